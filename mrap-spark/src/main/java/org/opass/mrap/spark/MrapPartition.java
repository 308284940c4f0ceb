package org.opass.mrap.spark;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.io.Writable;
import org.apache.spark.sql.connector.read.InputPartition;
import org.opass.mrap.mapreduce.AccessSplit;

/**
 * A split, as the executor that reads it gets it: the split's own serialized form (as
 * MapReduce ships it to a task), and its hosts, which Spark's scheduler prefers.
 */
final class MrapPartition implements InputPartition {
  private static final long serialVersionUID = 1L;
  private final byte[] split;
  private final String[] hosts;

  MrapPartition(AccessSplit split) {
    this.split = bytes(split);
    this.hosts = split.getLocations();
  }

  @Override
  public String[] preferredLocations() {
    return hosts.clone();
  }

  /** The split, read back. */
  AccessSplit split() {
    AccessSplit s = new AccessSplit();
    try {
      s.readFields(new DataInputStream(new ByteArrayInputStream(split)));
    } catch (IOException e) {
      throw new UncheckedIOException("a damaged mrap partition", e);
    }
    return s;
  }

  static byte[] bytes(Writable w) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try {
      w.write(new DataOutputStream(b));
    } catch (IOException e) { // to memory
      throw new UncheckedIOException(e);
    }
    return b.toByteArray();
  }
}
