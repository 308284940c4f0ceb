package org.opass.tools.sim;

import java.util.Locale;

/**
 * How much of its sequential bandwidth a DataNode's disk delivers while it serves several
 * streams at once. Two models:
 * <ul>
 *   <li>{@link #FAIR_SHARE}: all of it, shared evenly (what the emulated cluster's throttle
 *       does);</li>
 *   <li>{@link #SATA_7200_CFQ}: the Opass paper's disks (2 TB SATA, 7200 rpm, Linux CFQ), where
 *       every switch between streams costs a seek. Derived from the hardware, not fitted:
 *       <ul>
 *         <li>a switch costs an average seek (8.5 ms, the datasheet read seek of 2 TB 7200 rpm
 *             SATA disks) plus half a rotation (60 s / 7200 / 2 = 4.17 ms): 12.7 ms;</li>
 *         <li>between switches a stream keeps the disk for a CFQ time slice: the DataNode's
 *             reader thread streams a block with HDFS's 4 MiB read-ahead
 *             ({@code dfs.datanode.readahead.bytes}) always in flight, so its synchronous
 *             queue never runs dry and holds the disk for CFQ's whole {@code slice_sync} of
 *             100 ms (the read-ahead alone, 4 MiB at about 120 MiB/s, would be 33 ms);</li>
 *         <li>so with two or more streams the disk transfers 100 ms out of every 112.7 ms:
 *             0.887 of its bandwidth, shared evenly among the streams.</li>
 *       </ul></li>
 * </ul>
 * The efficiency is a ratio of times, so it holds at the emulated cluster's scaled-down
 * bandwidths too. Pure arithmetic, no Hadoop types.
 */
public final class DiskModel {
  /** Streams share the disk's full bandwidth. */
  public static final DiskModel FAIR_SHARE = new DiskModel("fair-share", 0, 1);
  /** 7200 rpm SATA under CFQ: a 12.7 ms seek per 100 ms slice once two streams compete. */
  public static final DiskModel SATA_7200_CFQ = new DiskModel("sata-7200-cfq",
      8.5 + 0.5 * 60_000.0 / 7200, 100);

  private final String name;
  private final double switchMillis;
  private final double sliceMillis;

  private DiskModel(String name, double switchMillis, double sliceMillis) {
    this.name = name;
    this.switchMillis = switchMillis;
    this.sliceMillis = sliceMillis;
  }

  public String name() {
    return name;
  }

  /** The fraction of its sequential bandwidth the disk delivers to {@code streams} streams. */
  public double efficiency(int streams) {
    return streams <= 1 ? 1 : sliceMillis / (sliceMillis + switchMillis);
  }

  /** Per-DataNode capacities for the given stream counts. */
  double[] capacities(double bandwidth, int[] streams) {
    double[] c = new double[streams.length];
    for (int d = 0; d < c.length; d++) {
      c[d] = bandwidth * efficiency(streams[d]);
    }
    return c;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%s (%.1f ms a switch, %.0f ms slices: %.3f of the "
        + "bandwidth to 2+ streams)", name, switchMillis, sliceMillis, efficiency(2));
  }
}
