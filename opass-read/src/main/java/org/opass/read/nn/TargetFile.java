package org.opass.read.nn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * A file of a read-plan request ({@link ReadPlanService}): its wanted byte ranges, then its
 * located blocks in order, each reduced at once to what planning needs ({@link Block}). One
 * per file of a request, whatever alias names it; built and read by one request's thread
 * ({@link PlanRequestResolver}), not thread-safe.
 */
final class TargetFile {
  final String path;
  final long length;
  final long blockSize;
  final List<long[]> wanted = new ArrayList<>();
  final List<Block> blocks = new ArrayList<>();
  private long[] starts;

  TargetFile(String path, long length, long blockSize) {
    this.path = path;
    this.length = length;
    this.blockSize = blockSize;
  }

  void want(long offset, long end) {
    if (offset < length && offset < end) {
      wanted.add(new long[] {offset, Math.min(end, length)});
    }
  }

  /** The wanted ranges merged (gaps under a block joined: they share blocks). */
  List<long[]> spans() {
    List<long[]> sorted = new ArrayList<>(wanted);
    sorted.sort((a, b) -> Long.compare(a[0], b[0]));
    List<long[]> out = new ArrayList<>();
    for (long[] r : sorted) {
      long[] last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last != null && r[0] - last[1] < blockSize) {
        last[1] = Math.max(last[1], r[1]);
      } else {
        out.add(new long[] {r[0], r[1]});
      }
    }
    return out;
  }

  /** Index of the first located block that ends after {@code offset}. */
  int firstBlockEndingAfter(long offset) {
    if (starts == null) {
      starts = new long[blocks.size()];
      for (int b = 0; b < starts.length; b++) {
        starts[b] = blocks.get(b).start;
      }
    }
    int at = Arrays.binarySearch(starts, offset);
    int b = at >= 0 ? at : Math.max(0, -at - 2);
    while (b < blocks.size() && blocks.get(b).end() <= offset) {
      b++;
    }
    return b;
  }

  /**
   * What planning needs of a located block, copied out of it at once so the located block
   * (with its tokens and DataNode copies) is not kept: about 200 bytes.
   */
  static final class Block {
    final long start;
    final long size;
    final String[] holders; // DataNode ids
    final String[] ips;
    final String[] names; // transfer addresses
    final boolean[] usable;
    final int usableCount;
    private String firstReader;
    private Set<String> moreReaders;

    Block(LocatedBlock lb, long staleMillis) {
      this.start = lb.getStartOffset();
      this.size = lb.getBlockSize();
      DatanodeInfo[] locs = lb.getLocations();
      holders = new String[locs.length];
      ips = new String[locs.length];
      names = new String[locs.length];
      usable = new boolean[locs.length];
      int ok = 0;
      for (int k = 0; k < locs.length; k++) {
        DatanodeInfo dn = locs[k];
        holders[k] = dn.getDatanodeUuid();
        ips[k] = dn.getIpAddr();
        names[k] = dn.getXferAddr();
        usable[k] = !lb.isStriped() && dn.isInService() && !dn.isStale(staleMillis);
        ok += usable[k] ? 1 : 0;
      }
      usableCount = ok;
    }

    long end() {
      return start + size;
    }

    /** True the first time {@code reader} reads this block in the request. */
    boolean addReader(String reader) {
      if (firstReader == null) {
        firstReader = reader;
        return true;
      }
      if (firstReader.equals(reader)) {
        return false;
      }
      if (moreReaders == null) {
        moreReaders = new HashSet<>(4);
      }
      return moreReaders.add(reader);
    }

    List<String> usableHolders() {
      List<String> out = new ArrayList<>(usableCount);
      for (int k = 0; k < holders.length; k++) {
        if (usable[k]) {
          out.add(holders[k]);
        }
      }
      return out;
    }

    /** The transfer address of holder {@code id} (what clients and counters see). */
    String nameOf(String id) {
      for (int k = 0; k < holders.length; k++) {
        if (holders[k].equals(id)) {
          return names[k];
        }
      }
      return id;
    }

    /** The usable replica on the DataNode at {@code ip}, or null. */
    String usableAt(String ip) {
      for (int k = 0; k < holders.length; k++) {
        if (usable[k] && ips[k].equals(ip)) {
          return holders[k];
        }
      }
      return null;
    }
  }
}
