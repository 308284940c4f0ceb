package org.opass.mrap.spark;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.spark.sql.connector.read.InputPartition;
import org.opass.mrap.mapreduce.AccessSplit;
import org.opass.mrap.mapreduce.VariableSplit;

/**
 * A split, as the executor that reads it gets it: the split's own serialized form (as
 * MapReduce ships it to a task), and its hosts, which Spark's scheduler prefers.
 */
final class MrapPartition implements InputPartition {
  private static final long serialVersionUID = 1L;
  private final byte[] split;
  private final boolean variable; // a VariableSplit, else an AccessSplit
  private final String[] hosts;

  MrapPartition(InputSplit split) {
    this.split = bytes((Writable) split);
    this.variable = split instanceof VariableSplit;
    try {
      this.hosts = split.getLocations();
    } catch (IOException | InterruptedException e) { // ours compute them in memory
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String[] preferredLocations() {
    return hosts.clone();
  }

  boolean variable() {
    return variable;
  }

  /** The split, read back: an {@link AccessSplit} or a {@link VariableSplit}. */
  InputSplit split() {
    Writable s = variable ? new VariableSplit() : new AccessSplit();
    try {
      s.readFields(new DataInputStream(new ByteArrayInputStream(split)));
    } catch (IOException e) {
      throw new UncheckedIOException("a damaged mrap partition", e);
    }
    return (InputSplit) s;
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
