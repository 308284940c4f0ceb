package org.opass.mrap.copy;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * The keys under which a copy job's client gives its writers and committer what they need, as
 * DistCp's {@code DistCpConstants} holds its own: the job's settings, not the user's (those
 * are {@code mrap.copy.*}, {@link CopySettings}).
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class CopyJobKeys {
  private static final String JOB = "mrap.copyjob.";
  /** The local file of the job's splits, read where the job is submitted. */
  public static final String SPLITS = JOB + "splits";
  /** The source, qualified: tasks resolve paths in working folders of their own. */
  public static final String SOURCE = JOB + "source";
  /** The source's length when the copy was planned: a writer refuses a changed source. */
  public static final String SOURCE_LENGTH = JOB + "source.length";
  /** Whether the source is a plain file (not restructured); its checksum is then checked. */
  public static final String SOURCE_PLAIN = JOB + "source.plain";
  /** The folder of the parts the writers publish (and of the destination's layout). */
  public static final String PARTS = JOB + "parts";
  /** The hidden name the joined parts take before they are published. */
  public static final String TEMP = JOB + "temp";
  /** The name the copy is published under. */
  public static final String DESTINATION = JOB + "destination";
  /** Whether publishing replaces an existing destination ({@code -overwrite}). */
  public static final String OVERWRITE = JOB + "overwrite";
  /** Whether the copy is checked before it is published (not {@code -no-verify}). */
  public static final String VERIFY = JOB + "verify";
  /** Bytes of a chunk: the destination's block size. */
  public static final String CHUNK = JOB + "chunk";
  /** Bytes of the destination. */
  public static final String LENGTH = JOB + "length";
  /** Bytes of the source's original. */
  public static final String LOGICAL = JOB + "logical";
  /** The parts' replication. */
  public static final String REPLICATION = JOB + "replication";
  /** The parts' permission, as a short. */
  public static final String PERMISSION = JOB + "permission";

  private CopyJobKeys() {
  }
}
