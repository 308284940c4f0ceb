package org.opass.mrap.mapreduce.index;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/** The settings of {@code bin/mrap index} (beside {@code mrap.pattern.kind}). */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class IndexKeys {
  /** The variables indexed, comma-separated; unset: every variable of each file. */
  public static final String VARIABLES = "mrap.index.variables";
  /**
   * What chunk URLs begin with ({@code {{u}}} in the sets): a WebHDFS URL such as {@code
   * webhdfs://namenode:9870}; default: the NameNode's HTTP address of the indexed file system.
   */
  public static final String URL = "mrap.index.url";
  /** Files whose headers one task reads; default: a task for each host holding the files. */
  public static final String FILES_PER_TASK = "mrap.index.files-per-task";
  /**
   * Files a joined set holds at most: a longer series is joined into a set a run of this many
   * consecutive files ({@code refs-00000.json}, ...); default 1000.
   */
  public static final String SET_FILES = "mrap.index.set-files";
  /** Headers a task reads at once. */
  public static final String READERS = "mrap.index.readers";
  public static final int READERS_DEFAULT = 8;

  private IndexKeys() {
  }
}
