package org.opass.mrap.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.pattern.PatternException;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.pattern.TiledPattern;

/**
 * MRAP's non-contiguous input (thesis §4.3.1): each map task reads only the regions of its
 * files that the job's access pattern names ({@link PatternConfig}: strided, nested, subarray,
 * tiled, indexed), one record per region: the key is the region's logical offset (its place in
 * the file's regions laid end to end), the value its bytes. The pattern is checked against each
 * input file when the job is submitted.
 *
 * <p>Splits: a tiled pattern gives one split per tile; the other kinds are cut, in file order,
 * into splits of about {@value #SPLIT_BYTES} bytes of interest (default: the file's block
 * size). Each split prefers the hosts that hold most of its bytes.
 *
 * <p>Reading: regions of one block whose gap is at most {@value #COALESCE_GAP} bytes (default
 * 64 KiB) are read with one positioned read, up to 8 MiB at once. That reads the gaps too (more
 * bytes from the DataNode) to save a round trip each; 0 reads exactly the regions.
 */
public class AccessInputFormat extends FileInputFormat<LongWritable, BytesWritable> {
  /** Bytes of interest per split (k, m, g suffixes); default the file's block size. */
  public static final String SPLIT_BYTES = "mrap.access.split.bytes";
  /** Largest gap read through to join two regions in one read; 0 never joins. */
  public static final String COALESCE_GAP = "mrap.access.coalesce.gap";
  public static final long COALESCE_GAP_DEFAULT = 64 * 1024;
  /** Most bytes read at once when regions are joined. */
  static final int MAX_JOINED_READ = 8 << 20;
  /** A region is one record: at most what one byte array holds. */
  static final long MAX_REGION_BYTES = Integer.MAX_VALUE - 64;

  public static void setSplitBytes(Job job, long bytes) {
    job.getConfiguration().setLong(SPLIT_BYTES, bytes);
  }

  public static void setCoalesceGap(Job job, long bytes) {
    job.getConfiguration().setLong(COALESCE_GAP, bytes);
  }

  @Override
  public List<InputSplit> getSplits(JobContext job) throws IOException {
    Configuration conf = job.getConfiguration();
    PatternConfig pc = MrapConf.pattern(conf);
    long splitBytes = MrapConf.bytes(conf, SPLIT_BYTES, 0);
    MrapConf.bytes(conf, COALESCE_GAP, COALESCE_GAP_DEFAULT); // checked now, not in a task
    List<InputSplit> splits = new ArrayList<>();
    for (FileStatus file : listStatus(job)) {
      Path path = file.getPath();
      try {
        pc.checkWithin(file.getLen(), path.toString());
      } catch (PatternException e) {
        throw MrapConf.invalid(e);
      }
      FileSystem fs = path.getFileSystem(conf);
      BlockLocation[] blocks = fs.getFileBlockLocations(file, 0, file.getLen());
      long perSplit = splitBytes > 0 ? splitBytes : Math.max(1, file.getBlockSize());
      if (pc.tiles() != null) {
        TiledPattern tiles = pc.tiles();
        long logical = 0;
        for (long t = 0; t < tiles.tileCount(); t++) {
          AccessPattern tile = tiles.tile(t);
          splits.add(split(path, tile, logical, file, blocks));
          logical += tile.totalBytes();
        }
      } else {
        cut(pc, pc.pattern(), perSplit, path, file, blocks, splits);
      }
    }
    return splits;
  }

  /** Cuts the pattern into runs of regions of about {@code perSplit} bytes, in file order. */
  private static void cut(PatternConfig pc, AccessPattern p, long perSplit, Path path,
      FileStatus file, BlockLocation[] blocks, List<InputSplit> out) throws IOException {
    RegionCursor c = p.cursor();
    long from = 0;
    long index = 0;
    long bytes = 0;
    long logical = 0;
    while (c.next()) {
      if (c.length() > MAX_REGION_BYTES) {
        throw MrapConf.invalid(new PatternException(pc.kind().equals("strided")
            ? PatternConfig.STRIDED_SIZE : PatternConfig.KIND, "a region of " + c.length()
            + " bytes is more than one record can hold (" + MAX_REGION_BYTES + ")"));
      }
      bytes += c.length();
      index++;
      if (bytes >= perSplit) {
        out.add(split(path, p.slice(from, index), logical, file, blocks));
        logical += bytes;
        from = index;
        bytes = 0;
      }
    }
    if (index > from) {
      out.add(split(path, p.slice(from, index), logical, file, blocks));
    }
  }

  private static AccessSplit split(Path path, AccessPattern part, long logical, FileStatus file,
      BlockLocation[] blocks) throws IOException {
    return new AccessSplit(path, part, logical, file.getBlockSize(), topHosts(part, blocks));
  }

  /** The hosts holding the most of the pattern's bytes, most first (at most three). */
  static String[] topHosts(AccessPattern p, BlockLocation[] blocks) throws IOException {
    if (blocks.length == 0) {
      return new String[0];
    }
    long[] starts = new long[blocks.length];
    for (int b = 0; b < blocks.length; b++) {
      starts[b] = blocks[b].getOffset();
    }
    Map<String, Long> bytes = new HashMap<>();
    RegionCursor c = p.cursor();
    while (c.next()) {
      long off = c.offset();
      long end = off + c.length();
      int b = Arrays.binarySearch(starts, off);
      b = b >= 0 ? b : Math.max(0, -b - 2);
      for (; b < blocks.length && blocks[b].getOffset() < end; b++) {
        long overlap = Math.min(end, blocks[b].getOffset() + blocks[b].getLength())
            - Math.max(off, blocks[b].getOffset());
        if (overlap > 0) {
          for (String h : blocks[b].getHosts()) {
            bytes.merge(h, overlap, Long::sum);
          }
        }
      }
    }
    return bytes.entrySet().stream()
        .sorted((x, y) -> y.getValue().equals(x.getValue()) ? x.getKey().compareTo(y.getKey())
            : Long.compare(y.getValue(), x.getValue()))
        .limit(3).map(Map.Entry::getKey).toArray(String[]::new);
  }

  @Override
  public RecordReader<LongWritable, BytesWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new AccessRecordReader();
  }
}
