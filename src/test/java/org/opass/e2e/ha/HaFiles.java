package org.opass.e2e.ha;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.Path;
import org.opass.read.wire.PlanRead;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.cluster.TestFiles;

/** Files and planned reads of the HA tests. */
final class HaFiles {
  private HaFiles() {
  }

  /** Files of one block each, written from host 0, three replicas; returns their contents. */
  static Map<Path, byte[]> write(EmulatedCluster cluster, String dir, int count, int block,
      long seed) throws Exception {
    Map<Path, byte[]> out = new ConcurrentHashMap<>();
    for (int f = 0; f < count; f++) {
      Path p = new Path(dir + "/f" + f);
      byte[] data = TestFiles.randomBytes(block, seed + f);
      TestFiles.write(cluster.fileSystemOnHost(0), p, data, (short) 3);
      out.put(p, data);
    }
    for (Path p : out.keySet()) {
      cluster.replicas().waitFor(p, (short) 3);
    }
    return out;
  }

  /**
   * Each file read by a host holding no replica of it, so the plan picks among three; a reader
   * never has two files with the same holders, so the DataNode serving each read is exactly the
   * planned one (a plan serves a reader's reads of equal holders in any order).
   */
  static List<PlanRead> remoteReads(EmulatedCluster cluster, List<Path> files)
      throws IOException {
    List<PlanRead> reads = new ArrayList<>();
    Set<String> used = new HashSet<>();
    for (Path p : files) {
      Set<Integer> holders = cluster.replicas().holders(p).get(0);
      for (int reader = 0; reader < cluster.size(); reader++) {
        if (!holders.contains(reader) && used.add(reader + "|" + holders)) {
          reads.add(PlanRead.wholeFile(p.toString(), cluster.hostName(reader)));
          break;
        }
      } // else no such reader left: the file is not read
    }
    return reads;
  }
}
