package org.opass.mrap.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapred.InvalidJobConfException;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.plan.AccessPlanner;
import org.opass.mrap.settings.AccessSettings;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.task.RegionTask;

/**
 * MRAP's non-contiguous input (thesis §4.3.1): each map task reads only the regions of its
 * files that the job's access pattern names ({@link PatternConfig}: strided, nested, subarray,
 * tiled, indexed), one record per region: the key is the region's logical offset (its place in
 * the file's regions laid end to end), the value its bytes. A region longer than
 * {@value #RECORD_BYTES} (default 64 MiB) comes as several records, keyed by their own logical
 * offsets. The pattern is checked against every input file when the job is submitted; empty
 * files are skipped.
 *
 * <p>Splits: a tiled pattern gives one split per tile; the other kinds are cut in file order,
 * by default into one split per block of the file (the regions starting in it: as many tasks as
 * a plain scan, each local to its block), or, when {@value #SPLIT_BYTES} is set, into splits
 * of about that many bytes of interest (fewer tasks for a sparse pattern). Cutting looks the
 * cuts up in the pattern; it never walks its regions. A split's regions may span several
 * chunks (HDFS blocks); {@value #CHUNKS} says how to place it (thesis §4.3.3):
 * <ul>
 *   <li>{@code together} (default): the split stays as cut and prefers the primary host of
 *   Algorithm 4.3.2's weighted set cover, then the next cheapest hosts;</li>
 *   <li>{@code independent} (records may be processed in any grouping): virtual splits, the
 *   regions regrouped by the block they start in and the blocks by a host that holds them, so
 *   that every split is local to its host.</li>
 * </ul>
 *
 * <p>A restructured file (written by {@code mrap-copy}, carrying its layout) is read as
 * {@value #RESTRUCTURED} says: {@code stored} (default) refuses a pattern other than the one
 * it was restructured for, naming both, and gives a split per packed task (per tile, for a
 * file stored tile by tile: one read each); {@code index} reads any pattern through the
 * layout.
 *
 * <p>Reading: regions of one block whose gap is at most {@value #COALESCE_GAP} bytes (default
 * 64 KiB) are read with one positioned read, up to 8 MiB at once. That reads the gaps too (more
 * bytes from the DataNode) to save a round trip each; 0 reads exactly the regions.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public class AccessInputFormat extends FileInputFormat<LongWritable, BytesWritable> {
  /** Bytes of interest per split (k, m, g suffixes); default: a split per block of the file. */
  public static final String SPLIT_BYTES = AccessSettings.SPLIT_BYTES;
  /** Largest gap read through to join two regions in one read; 0 never joins. */
  public static final String COALESCE_GAP = AccessSettings.COALESCE_GAP;
  public static final long COALESCE_GAP_DEFAULT = AccessSettings.COALESCE_GAP_DEFAULT;
  /** Most bytes in one record: a longer region comes as several records. */
  public static final String RECORD_BYTES = AccessSettings.RECORD_BYTES;
  public static final long RECORD_BYTES_DEFAULT = AccessSettings.RECORD_BYTES_DEFAULT;
  /** {@code together} (default) or {@code independent}: how a split's chunks are placed. */
  public static final String CHUNKS = AccessSettings.CHUNKS;
  /**
   * How a restructured input file (one written by MRAP's copy) is read: {@code stored}
   * (default) requires the job's pattern to be the one it was restructured for and reads each
   * task's packed chunks contiguously; {@code index} reads any pattern through the stored
   * layout (a few reads a region, and no locality).
   */
  public static final String RESTRUCTURED = AccessSettings.RESTRUCTURED;
  /** Every setting under {@code mrap.access.}; another name there is refused. */
  public static final List<String> KEYS = AccessSettings.KEYS;

  public static void setSplitBytes(Job job, long bytes) {
    job.getConfiguration().setLong(SPLIT_BYTES, bytes);
  }

  public static void setCoalesceGap(Job job, long bytes) {
    job.getConfiguration().setLong(COALESCE_GAP, bytes);
  }

  /** Whether the records of a split may be regrouped into virtual splits. */
  public static void setIndependentChunks(Job job, boolean independent) {
    job.getConfiguration().set(CHUNKS, independent ? "independent" : "together");
  }

  /** A setting refused while planning, as MapReduce names a refused job: same message. */
  static InvalidJobConfException refused(InvalidSettingsException e) {
    InvalidJobConfException out = new InvalidJobConfException(e.getMessage());
    out.initCause(e);
    return out;
  }

  @Override
  public List<InputSplit> getSplits(JobContext job) throws IOException {
    List<InputSplit> splits = new ArrayList<>();
    try {
      for (RegionTask task : new AccessPlanner(job.getConfiguration()).plan(listStatus(job))) {
        splits.add(new AccessSplit(task));
      }
    } catch (InvalidSettingsException e) {
      throw refused(e);
    }
    return splits;
  }


  @Override
  public RecordReader<LongWritable, BytesWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new AccessRecordReader();
  }
}
