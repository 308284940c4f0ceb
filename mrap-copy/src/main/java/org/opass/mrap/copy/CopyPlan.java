package org.opass.mrap.copy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.fs.BlockLocation;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.layout.SegmentCursor;

/**
 * What a copy job writes where, as DistCp's copy listing is what its job copies: the
 * destination cut into chunks of a block each, the writer tasks (each with the host it should
 * run on, or none), and the writer of each chunk. Immutable.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class CopyPlan {
  private final long chunkSize;
  private final long length;
  private final String[] hosts;
  private final int[] writerOf;

  private CopyPlan(long chunkSize, long length, String[] hosts, int[] writerOf) {
    this.chunkSize = chunkSize;
    this.length = length;
    this.hosts = hosts;
    this.writerOf = writerOf;
  }

  /**
   * @param chunkSize bytes of a chunk, >= 1
   * @param length    bytes of the destination, >= 1
   * @param hosts     each writer's host, "" for none preferred; at least one writer
   * @param writerOf  the writer of each chunk, one per chunk ({@link #chunks(long, long)})
   * @throws IllegalArgumentException naming the bad value
   */
  public static CopyPlan of(long chunkSize, long length, String[] hosts, int[] writerOf) {
    if (chunkSize < 1) {
      throw new IllegalArgumentException("chunk size (" + chunkSize + ") must be >= 1");
    }
    if (length < 1) {
      throw new IllegalArgumentException("length (" + length + ") must be >= 1");
    }
    if (hosts.length == 0) {
      throw new IllegalArgumentException("no writers: give at least one host (\"\" for any)");
    }
    for (int w = 0; w < hosts.length; w++) {
      if (hosts[w] == null) {
        throw new IllegalArgumentException("hosts[" + w + "] is null: give \"\" for any host");
      }
    }
    int chunks = chunks(chunkSize, length);
    if (writerOf.length != chunks) {
      throw new IllegalArgumentException(writerOf.length + " writers given for the " + chunks
          + " chunks of " + chunkSize + " bytes in " + length + " bytes");
    }
    for (int c = 0; c < chunks; c++) {
      if (writerOf[c] < 0 || writerOf[c] >= hosts.length) {
        throw new IllegalArgumentException("writerOf[" + c + "] (" + writerOf[c] + ") is not "
            + "one of the " + hosts.length + " writers");
      }
    }
    return new CopyPlan(chunkSize, length, hosts.clone(), writerOf.clone());
  }

  /**
   * The plan of a copy of {@code source} written as {@code layout} (null: plainly), of
   * {@code length} bytes: CHAIO's aggregator selection ({@link AggregatorSelection}) over the
   * nodes holding a plain HDFS source's bytes (one writer task each, on the node it reads
   * from); any other source (local, shared, an object store, a restructured file) is shared
   * evenly among {@code writers} writers that may run anywhere.
   */
  static CopyPlan plan(SourceFile source, RestructuredLayout layout, long chunkSize,
      long length, int writers) throws IOException {
    int chunks = chunks(chunkSize, length);
    if (!"hdfs".equals(source.fs().getUri().getScheme()) || source.layout() != null) {
      int n = Math.max(1, Math.min(chunks, writers));
      int[] writerOf = AggregatorSelection.select(n, new long[chunks][n]);
      String[] hosts = new String[n];
      Arrays.fill(hosts, "");
      return of(chunkSize, length, hosts, writerOf);
    }
    BlockLocation[] blocks = source.fs().getFileBlockLocations(source.status(), 0,
        source.status().getLen());
    long[] blockStarts = new long[blocks.length];
    for (int b = 0; b < blocks.length; b++) {
      blockStarts[b] = blocks[b].getOffset();
    }
    Map<String, Integer> nodeIndex = new LinkedHashMap<>();
    List<Map<Integer, Long>> held = new ArrayList<>(chunks);
    for (int c = 0; c < chunks; c++) {
      Map<Integer, Long> bytes = new HashMap<>();
      long lo = c * chunkSize;
      long hi = Math.min(length, lo + chunkSize);
      SegmentCursor pieces = layout != null ? layout.physical(lo, hi) : null;
      long from = lo;
      long to = hi;
      while (pieces == null || pieces.next()) {
        if (pieces != null) {
          if (pieces.logical() < 0) {
            continue;
          }
          from = pieces.logical();
          to = from + pieces.length();
        }
        int b = Arrays.binarySearch(blockStarts, from);
        for (b = b >= 0 ? b : Math.max(0, -b - 2); b < blocks.length
            && blocks[b].getOffset() < to; b++) {
          long overlap = Math.min(to, blocks[b].getOffset() + blocks[b].getLength())
              - Math.max(from, blocks[b].getOffset());
          if (overlap > 0) {
            for (String h : blocks[b].getHosts()) {
              nodeIndex.putIfAbsent(h, nodeIndex.size());
              bytes.merge(nodeIndex.get(h), overlap, Long::sum);
            }
          }
        }
        if (pieces == null) {
          break;
        }
      }
      held.add(bytes);
    }
    int nodes = Math.max(1, nodeIndex.size());
    long[][] served = new long[chunks][nodes];
    for (int c = 0; c < chunks; c++) {
      for (Map.Entry<Integer, Long> e : held.get(c).entrySet()) {
        served[c][e.getKey()] = e.getValue();
      }
    }
    int[] chosen = AggregatorSelection.select(nodes, served);
    String[] names = nodeIndex.isEmpty() ? new String[] {""}
        : nodeIndex.keySet().toArray(new String[0]);
    // only the nodes given a chunk become writers
    int[] renumber = new int[nodes];
    Arrays.fill(renumber, -1);
    List<String> hosts = new ArrayList<>();
    int[] writerOf = new int[chunks];
    for (int c = 0; c < chunks; c++) {
      if (renumber[chosen[c]] < 0) {
        renumber[chosen[c]] = hosts.size();
        hosts.add(names[chosen[c]]);
      }
      writerOf[c] = renumber[chosen[c]];
    }
    return of(chunkSize, length, hosts.toArray(new String[0]), writerOf);
  }

  /** Chunks of {@code chunkSize} bytes in {@code length} bytes: one at least. */
  public static int chunks(long chunkSize, long length) {
    return (int) Math.max(1, (length - 1) / chunkSize + 1);
  }

  /** Bytes of a chunk (the last may be shorter). */
  public long chunkSize() {
    return chunkSize;
  }

  /** Bytes of the destination. */
  public long length() {
    return length;
  }

  public int chunks() {
    return writerOf.length;
  }

  public int writers() {
    return hosts.length;
  }

  /** The host writer {@code w} should run on, "" for any. */
  public String host(int w) {
    return hosts[w];
  }

  /** The writer of chunk {@code c}. */
  public int writerOf(int c) {
    return writerOf[c];
  }
}
