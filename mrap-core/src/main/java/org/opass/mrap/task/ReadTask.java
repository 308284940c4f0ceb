package org.opass.mrap.task;

import org.apache.hadoop.io.Writable;

/**
 * What one task of a read reads, planned on the client, and the hosts to run it on: a {@link
 * RegionTask} (regions of a file) or a {@link VariableTask} (parts of files and their
 * variables). An engine ships it in its {@link Writable} form (a MapReduce split, a Spark
 * partition) and hands it to a reader of {@code org.opass.mrap.read}.
 */
public abstract class ReadTask implements Writable {
  private String[] hosts = new String[0];

  ReadTask() {
  }

  ReadTask(String[] hosts) {
    this.hosts = hosts.clone();
  }

  /** Bytes the task reads from the files. */
  public abstract long length();

  /** The hosts to run on, best first; none once read back (they matter for scheduling only). */
  public String[] hosts() {
    return hosts.clone();
  }

  /** A task read back runs where the scheduler put it, as a {@code FileSplit} does. */
  void forgetHosts() {
    hosts = new String[0];
  }
}
