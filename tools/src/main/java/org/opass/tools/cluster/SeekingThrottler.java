package org.opass.tools.cluster;

import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.hdfs.util.Canceler;
import org.apache.hadoop.hdfs.util.DataTransferThrottler;
import org.opass.tools.sim.DiskModel;

/**
 * A DataNode throttle that also charges what switching between streams costs a disk: while
 * two or more streams (the DataNode's transfer threads) use it, every packet is charged as
 * {@code bytes / efficiency} of the {@link DiskModel}, so the DataNode moves only that
 * fraction of its bandwidth, shared among them. A stream counts as active for
 * {@value #ACTIVE_MILLIS} ms after its last packet: longer than the gap between two packets
 * of one stream when five share the DataNode (64 KiB at a fifth of 2 MiB/s: 156 ms), so a
 * stream waiting for its turn is not forgotten; a read that starts just after another ended
 * is charged for two streams for at most that long.
 */
public final class SeekingThrottler extends DataTransferThrottler {
  static final long ACTIVE_MILLIS = 250;

  private final DiskModel disk;
  private final Map<Thread, Long> lastPacketNanos = new HashMap<>(); // guarded by this

  public SeekingThrottler(long periodMillis, long bytesPerSecond, DiskModel disk) {
    super(periodMillis, bytesPerSecond);
    this.disk = disk;
  }

  @Override
  public void throttle(long numOfBytes, Canceler canceler) {
    int streams;
    synchronized (this) {
      long now = System.nanoTime();
      lastPacketNanos.put(Thread.currentThread(), now);
      lastPacketNanos.values().removeIf(t -> now - t > ACTIVE_MILLIS * 1_000_000L);
      streams = lastPacketNanos.size();
    }
    super.throttle((long) Math.ceil(numOfBytes / disk.efficiency(streams)), canceler);
  }
}
