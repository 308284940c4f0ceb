package org.opass.mrap.format.hdf5;

/**
 * What the HDF5 metadata reader throws where a file does not hold what the format says it must
 * (a block past the file's end, a wrong signature, a field out of range): the reader's caller
 * names the file and the dataset and keeps this as the cause.
 */
final class Hdf5Damage extends RuntimeException {
  private static final long serialVersionUID = 1L;

  Hdf5Damage(String message) {
    super(message);
  }
}
