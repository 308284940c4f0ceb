package org.opass.mrap.plan;

import org.apache.hadoop.io.Writable;

/**
 * What one task of a read reads, planned on the client: a {@link RegionTask} (regions of a
 * file) or a {@link VariableTask} (parts of files and their variables). An engine ships it in
 * its {@link Writable} form (a MapReduce split, a Spark partition) and hands it to the reader
 * of {@code org.opass.mrap.read}.
 */
public interface ReadTask extends Writable {
  /** Bytes the task reads from the files. */
  long length();

  /** The hosts to run on, best first; none after deserialization (they matter for scheduling). */
  String[] hosts();
}
