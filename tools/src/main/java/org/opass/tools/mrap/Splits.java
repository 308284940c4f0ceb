package org.opass.tools.mrap;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;

/** Splits as a task gets them. */
public final class Splits {
  private Splits() {
  }

  /** The split as a task reads it: written and read back. */
  public static InputSplit reserialized(InputSplit s) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ((Writable) s).write(new DataOutputStream(bytes));
    try {
      Writable copy = (Writable) s.getClass().getDeclaredConstructor().newInstance();
      copy.readFields(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
      return (InputSplit) copy;
    } catch (ReflectiveOperationException e) {
      throw new IOException(e);
    }
  }
}
