package org.opass.mrap.spark;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.spark.sql.connector.read.InputPartition;
import org.opass.mrap.array.Slab;
import org.opass.mrap.cf.Coordinates;

/**
 * The grid points a selection picks in one file, for a table read of coordinates alone: its
 * slab and its coordinates over it, no variable's bytes (nothing is read on the executor).
 */
final class GridPartition implements InputPartition {
  private static final long serialVersionUID = 1L;
  private final long[] shape;
  private final String slab; // Slab's text form
  private final byte[] coordinates;

  GridPartition(long[] shape, Slab slab, Coordinates coordinates) {
    this.shape = shape.clone();
    this.slab = slab.toString();
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try {
      coordinates.write(new DataOutputStream(b));
    } catch (IOException e) { // to memory
      throw new UncheckedIOException(e);
    }
    this.coordinates = b.toByteArray();
  }

  Slab slab() {
    return Slab.parse(slab, shape);
  }

  Coordinates coordinates() {
    try {
      return Coordinates.read(new DataInputStream(new ByteArrayInputStream(coordinates)));
    } catch (IOException e) {
      throw new UncheckedIOException("a damaged mrap partition", e);
    }
  }
}
