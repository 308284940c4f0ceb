package org.opass.mrap.format.hdf5;

/**
 * What the HDF5 metadata reader throws for a valid object it does not read (a virtual dataset,
 * external storage, an external link, a filtered heap): refused by name, only where it is what
 * was asked for or lies on the way to it.
 */
final class Hdf5Unsupported extends RuntimeException {
  private static final long serialVersionUID = 1L;

  Hdf5Unsupported(String message) {
    super(message);
  }
}
