package org.opass.tools.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Where the replicas of an {@link EmulatedCluster} are ({@link EmulatedCluster#replicas()}),
 * as the NameNode records them and the DataNodes hold them.
 */
public final class Replicas {
  private final EmulatedCluster cluster;

  Replicas(EmulatedCluster cluster) {
    this.cluster = cluster;
  }

  /**
   * For each block of {@code file}, in order, the indices of the DataNodes the NameNode knows to
   * hold a replica.
   */
  public List<Set<Integer>> holders(Path file) throws IOException {
    FileSystem fs = cluster.nameNodeFileSystem();
    FileStatus status = fs.getFileStatus(file);
    List<Set<Integer>> holders = new ArrayList<>();
    for (BlockLocation block : fs.getFileBlockLocations(status, 0, status.getLen())) {
      Set<Integer> replicas = new TreeSet<>();
      for (String name : block.getNames()) {
        replicas.add(cluster.dataNodeIndexOf(name));
      }
      holders.add(Collections.unmodifiableSet(replicas));
    }
    return Collections.unmodifiableList(holders);
  }

  /**
   * Waits until the NameNode knows at least {@code replication} replicas of every block of
   * {@code file} (a closed file: the last replicas are reported a moment after close()).
   *
   * @throws IOException if that does not happen within a minute
   */
  public void waitFor(Path file, short replication) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + EmulatedCluster.SETTLE_TIMEOUT.toNanos();
    while (true) {
      List<Set<Integer>> holders = holders(file);
      if (holders.stream().allMatch(replicas -> replicas.size() >= replication)) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IOException(file + " has replicas " + holders + ", wanted " + replication
            + " of each block");
      }
      Thread.sleep(EmulatedCluster.POLL_MILLIS);
    }
  }

  /**
   * The number of replicas the NameNode records on each DataNode. The NameNode learns of
   * replicas from reports that trail the writes, so this waits until its counts equal the
   * finalized replicas each DataNode holds. Call it with no write or delete in flight.
   *
   * @throws IOException if the counts do not settle within a minute
   */
  public int[] storedPerDataNode() throws IOException, InterruptedException {
    String blockPool = cluster.blockManager().getBlockPoolId();
    long deadline = System.nanoTime() + EmulatedCluster.SETTLE_TIMEOUT.toNanos();
    while (true) {
      int[] recorded = new int[cluster.size()];
      int[] held = new int[cluster.size()];
      for (int k = 0; k < cluster.size(); k++) {
        recorded[k] = cluster.datanodeDescriptor(k).numBlocks();
        held[k] = cluster.dataNode(k).getFSDataset().getFinalizedBlocks(blockPool).size();
      }
      if (Arrays.equals(recorded, held)) {
        return recorded;
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("the NameNode records " + Arrays.toString(recorded)
            + " replicas per DataNode, the DataNodes hold " + Arrays.toString(held));
      }
      Thread.sleep(EmulatedCluster.POLL_MILLIS);
    }
  }
}
