package org.opass.mrap.mapreduce;

import java.io.IOException;
import org.apache.hadoop.mapreduce.RecordReader;
import org.opass.mrap.read.TaskReader;

/** A MapReduce record reader over one of mrap-core's task readers, opened in initialize. */
abstract class TaskRecordReader<K, V, R extends TaskReader> extends RecordReader<K, V> {
  R reader;

  @Override
  public boolean nextKeyValue() throws IOException {
    return reader.next();
  }

  @Override
  public float getProgress() {
    return reader == null ? 0f : reader.progress();
  }

  @Override
  public void close() throws IOException {
    if (reader != null) {
      reader.close();
    }
  }
}
