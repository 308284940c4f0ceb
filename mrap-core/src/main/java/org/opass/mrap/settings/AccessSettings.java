package org.opass.mrap.settings;

import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * The {@code mrap.access.*} settings: how the regions of a pattern or a variable's slab are cut
 * into tasks and read, checked once into an immutable value ({@link #of}) that the planners and
 * readers of every engine take. {@code AccessInputFormat}'s constants of the same names are
 * these keys.
 */
public final class AccessSettings {
  /** Bytes of interest per task (k, m, g suffixes); default: a task per block of the file. */
  public static final String SPLIT_BYTES = "mrap.access.split.bytes";
  /** Largest gap read through to join two regions in one read; 0 never joins. */
  public static final String COALESCE_GAP = "mrap.access.coalesce.gap";
  public static final long COALESCE_GAP_DEFAULT = 64 * 1024;
  /** Most bytes in one record: a longer region comes as several records. */
  public static final String RECORD_BYTES = "mrap.access.record.bytes";
  public static final long RECORD_BYTES_DEFAULT = 64L << 20;
  /** {@code together} (default) or {@code independent}: how a task's chunks are placed. */
  public static final String CHUNKS = "mrap.access.chunks";
  /**
   * How a restructured input file (one written by MRAP's copy) is read: {@code stored}
   * (default) requires the pattern to be the one it was restructured for and reads each
   * task's packed chunks contiguously; {@code index} reads any pattern through the stored
   * layout (a few reads a region, and no locality).
   */
  public static final String RESTRUCTURED = "mrap.access.restructured";
  /** Every setting under {@code mrap.access.}; another name there is refused. */
  public static final List<String> KEYS = Arrays.asList(SPLIT_BYTES, COALESCE_GAP,
      RECORD_BYTES, CHUNKS, RESTRUCTURED);
  /** Most bytes one record can hold: what one byte array holds. */
  public static final long MAX_RECORD_BYTES = Integer.MAX_VALUE - 64;

  private final long splitBytes;
  private final long coalesceGap;
  private final long recordBytes;
  private final boolean independent;
  private final boolean stored;

  private AccessSettings(Configuration conf) throws InvalidSettingsException {
    MrapConf.checkKeys(conf, "mrap.access.", KEYS);
    this.splitBytes = MrapConf.bytes(conf, SPLIT_BYTES, 0);
    this.coalesceGap = MrapConf.bytes(conf, COALESCE_GAP, COALESCE_GAP_DEFAULT);
    this.recordBytes = recordBytes(conf);
    this.independent = MrapConf.choice(conf, CHUNKS, "together", "independent")
        .equals("independent");
    this.stored = MrapConf.choice(conf, RESTRUCTURED, "stored", "index").equals("stored");
  }

  /**
   * The {@code mrap.access.*} settings of {@code conf}, every one checked now (a bad value is
   * refused on the client, not in a task).
   *
   * @throws InvalidSettingsException naming the key at fault, or an unknown {@code mrap.access.}
   *     key
   */
  public static AccessSettings of(Configuration conf) throws InvalidSettingsException {
    return new AccessSettings(conf);
  }

  /** Bytes of interest per task; 0: the planner's default (a block, tasks for every host). */
  public long splitBytes() {
    return splitBytes;
  }

  /** The largest gap read through to join two regions in one read. */
  public long coalesceGap() {
    return coalesceGap;
  }

  /** The most bytes of one record. */
  public long recordBytes() {
    return recordBytes;
  }

  /** Whether a task's chunks are placed each on its own ({@code independent}). */
  public boolean independentChunks() {
    return independent;
  }

  /** Whether restructured files are read as stored ({@code stored}) or through their index. */
  public boolean readAsStored() {
    return stored;
  }

  /** The most bytes of one record (a longer region is several); a bad value names the key. */
  private static long recordBytes(Configuration conf) throws InvalidSettingsException {
    long n = MrapConf.bytes(conf, RECORD_BYTES, RECORD_BYTES_DEFAULT, 1);
    if (n > MAX_RECORD_BYTES) {
      throw new InvalidSettingsException(RECORD_BYTES + "=" + conf.get(RECORD_BYTES) + " is "
          + "more than one record can hold (" + MAX_RECORD_BYTES + " bytes)");
    }
    return n;
  }
}
