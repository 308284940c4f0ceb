package org.opass.read.balance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Timing of {@link ReplicaBalancer} on NameNode-sized batches (not a unit test: surefire does
 * not pick it up). Run after {@code mvn test-compile}:
 * {@code java -cp opass-read/target/classes:opass-read/target/test-classes
 * org.opass.read.balance.ReplicaBalancerBench}
 */
public final class ReplicaBalancerBench {

  public static void main(String[] args) {
    int reps = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    System.out.printf("cores=%d, reps=%d (median / max ms, after warm-up)%n",
        Runtime.getRuntime().availableProcessors(), reps);
    for (int[] size : new int[][] {{4096, 256}, {32768, 1024}}) {
      for (String load : new String[] {"idle", "uniform0-15", "hot10%", "skewedPlacement", "8holders"}) {
        run(size[0], size[1], load, size[0] > 10000 ? Math.max(5, reps / 3) : reps);
      }
    }
  }

  private static void run(int m, int n, String scenario, int reps) {
    Random rnd = new Random(m * 31L + scenario.hashCode());
    List<ChunkRead> reads = new ArrayList<>(m);
    for (int r = 0; r < m; r++) {
      String[] hs = new String[3];
      int k = 0;
      while (k < 3) {
        int d = switch (scenario) {
          case "skewedPlacement" -> (int) (n * Math.pow(rnd.nextDouble(), 3)); // few hold most
          case "8holders" -> rnd.nextInt(8); // one hot dataset on 8 DataNodes
          default -> rnd.nextInt(n);
        };
        String dn = "dn" + d;
        if (!Arrays.asList(hs).contains(dn)) {
          hs[k++] = dn;
        }
      }
      reads.add(ChunkRead.of("blk_" + r, hs));
    }
    Map<String, Integer> nc = new HashMap<>();
    for (int d = 0; d < n; d++) {
      switch (scenario) {
        case "uniform0-15" -> nc.put("dn" + d, rnd.nextInt(16));
        case "hot10%" -> nc.put("dn" + d, rnd.nextInt(10) == 0 ? 50 + rnd.nextInt(50)
            : rnd.nextInt(6));
        default -> { }
      }
    }
    for (Strategy s : Strategy.values()) {
      ReplicaBalancer bal = new ReplicaBalancer(s, 17);
      for (int w = 0; w < 20; w++) { // let the JIT compile the hot loops first
        bal.withSeed(w).assign(reads, nc);
      }
      double[] ms = new double[reps];
      long maxLoad = 0;
      for (int i = 0; i < reps; i++) {
        long t0 = System.nanoTime();
        maxLoad = bal.withSeed(i).assign(reads, nc).maxLoad();
        ms[i] = (System.nanoTime() - t0) / 1e6;
      }
      Arrays.sort(ms);
      System.out.printf("%6d reads x %5d DNs %-16s %-10s median %7.2f ms  max %7.2f ms"
          + "  (maxLoad %d)%n", m, n, scenario, s, ms[reps / 2], ms[reps - 1], maxLoad);
    }
    StrategyComparison c = new ReplicaBalancer(Strategy.OPTIMAL, 17).compare(reads, nc);
    System.out.printf("%6s %-38s ALGORITHM2 max %d (flow-unmatched %d) vs OPTIMAL max %d%n", "",
        "", c.algorithm2().maxLoad(), c.algorithm2().unmatchedByFlow(), c.optimal().maxLoad());
  }
}
