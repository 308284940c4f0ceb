package org.opass.tools.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.opass.tools.sim.ReadSimulation.Kind;
import org.opass.tools.sim.ReadSimulation.Reader;
import org.opass.tools.sim.ReadSimulation.Result;

/**
 * The read simulation reads every chunk once, no faster than a disk allows, and the real
 * planner with the NameNode's plan serving gives every process its own data.
 */
class ReadSimulationTest {

  private static Map<Reader, List<Result>> run(Kind kind) throws Exception {
    File dir = Files.createTempDirectory("sim-read").toFile();
    return ReadSimulation.run(dir, new ReadSimulation.Setup(16, 2, kind).chunksPerProcess(4),
        new long[] {1, 2});
  }

  @Test
  void singleReadsArePlannedLocalAndEven() throws Exception {
    Map<Reader, List<Result>> runs = run(Kind.SINGLE);
    for (Reader reader : Reader.values()) {
      for (Result r : runs.get(reader)) {
        assertEquals(16 * 4, Arrays.stream(r.servedPerDataNode()).sum(), reader.name());
        // a lone reader takes 0.5 s a chunk; four chunks take at least 2 s
        assertTrue(r.chunkAvgSec() >= 0.5 - 1e-9, reader + ": chunk " + r.chunkAvgSec());
        assertTrue(r.makespanSec() >= 2.0 - 1e-9, reader + ": makespan " + r.makespanSec());
      }
    }
    for (Result r : runs.get(Reader.OPASS)) {
      // 64 chunks x 3 random replicas on 16 nodes: an equal assignment is (nearly always)
      // all local, and the NameNode serves what the plan says
      assertTrue(r.localFraction() >= 0.9, "local " + r.localFraction());
      assertTrue(r.servedMaxOverAvg() <= 1.25, "served max/avg " + r.servedMaxOverAvg());
      assertTrue(r.chunkAvgSec() <= 0.6, "chunk " + r.chunkAvgSec());
    }
    for (Result r : runs.get(Reader.STOCK)) {
      assertTrue(r.localFraction() < 0.5, "rank-based reads are mostly remote");
    }
  }

  @Test
  void twoTenantsShareEveryDataNodeAndMasterWorkerComputes() throws Exception {
    for (Result r : run(Kind.TENANTS).get(Reader.OPASS)) {
      assertEquals(2 * 16 * 4, Arrays.stream(r.servedPerDataNode()).sum());
      // two readers a DataNode halve its bandwidth: a chunk takes about 1 s, not a lone 0.5 s;
      // not quite 1 s on average, as the last chunks of a DataNode may find one reader left
      // (0.992 seen under Hadoop 3.4.1's random replicas)
      assertTrue(r.chunkAvgSec() >= 0.9, "two readers a DataNode: " + r.chunkAvgSec());
    }
    for (Result r : run(Kind.DYNAMIC).get(Reader.STOCK)) {
      assertEquals(16 * 4, Arrays.stream(r.servedPerDataNode()).sum());
      // 64 tasks of 0.5 s reading and 0-1 s computing each, on 16 workers
      assertTrue(r.makespanSec() >= 2.0, "makespan " + r.makespanSec());
    }
  }
}
