package org.opass.tools.bench.opass;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.opass.read.balance.ChunkRead;
import org.opass.read.balance.ReplicaBalancer;
import org.opass.read.balance.Strategy;
import org.opass.read.nn.PlanRequestParser;
import org.opass.read.nn.ReadPlanService;
import org.opass.read.nn.ReadPlanTable;
import org.opass.read.wire.PlanRefusedException;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.Stats;

/**
 * What the read-plan endpoint's limits cost and bound, on the classes the NameNode runs:
 * <ul>
 *   <li>heap per live planned read in {@link ReadPlanTable} (what {@code max-reads} bounds);</li>
 *   <li>the first lookup after a plan of N planned reads expires (what an RPC handler pays),
 *   next to unlinking it (what the plugin's expiry thread pays instead);</li>
 *   <li>balancing one request of {@code max-request-reads} reads, both algorithms, as
 *   {@link ReadPlanService} does under its plan lock;</li>
 *   <li>reading a request with a long number: our streaming parser next to Jackson's
 *   {@code readTree}, which the endpoint used before.</li>
 * </ul>
 * Each figure is a mean with a 95% confidence interval over repetitions.
 */
public final class ReadPlanLimitsBench implements Bench {

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    int reps = quick ? 3 : 7;
    int planned = quick ? 1 << 18 : 1 << 20;
    Map<String, Object> doc = new LinkedHashMap<>();
    Map<String, Object> summary = new LinkedHashMap<>();

    Stats perRead = heapPerPlannedRead(planned, reps, false);
    Stats perSharedRead = heapPerPlannedRead(planned, reps, true);
    System.out.printf("%nheap per live planned read (%d reads): %s bytes, %s bytes when reads "
        + "share holders%n", planned, perRead, perSharedRead);
    summary.put("heap_bytes_per_planned_read", perRead.mean);
    summary.put("heap_bytes_per_planned_read_ci95", perRead.ci95);

    Stats[] expiry = expiry(planned, reps);
    System.out.printf("first lookup after %d planned reads expire: %s us on the RPC thread; "
        + "unlinking them off it: %s ms%n", planned, expiry[0], expiry[1]);
    summary.put("lookup_after_expiry_us", expiry[0].mean);
    summary.put("lookup_after_expiry_us_ci95", expiry[0].ci95);
    summary.put("expiry_unlink_ms", expiry[1].mean);

    Map<String, Object> balancing = new LinkedHashMap<>();
    double worstMs = 0;
    for (int dataNodes : new int[] {1024, 2048}) {
      for (boolean skewed : new boolean[] {false, true}) {
        Stats ms = balance(65_536, dataNodes, skewed, reps);
        String name = dataNodes + (skewed ? "-skewed" : "-uniform");
        balancing.put(name, ms.json());
        worstMs = Math.max(worstMs, ms.mean + ms.ci95);
        System.out.printf("balancing 65536 reads over %s DataNodes (both algorithms): %s ms%n",
            name, ms);
      }
    }
    summary.put("max_request_balance_ms_worst", worstMs);

    int digits = quick ? 100_000 : 200_000;
    Stats[] parse = parseLongNumber(digits, reps);
    System.out.printf("a request with a %d-digit number: streaming parser %s ms, readTree %s "
        + "ms%n", digits, parse[0], parse[1]);
    summary.put("long_number_digits", digits);
    summary.put("long_number_parse_ms", parse[0].mean);
    summary.put("long_number_readtree_ms", parse[1].mean);
    summary.put("long_number_speedup", parse[1].mean / parse[0].mean);

    doc.put("summary", summary);
    doc.put("setup", Map.of("planned_reads", planned, "repetitions", reps,
        "holders", "3 of 512 DataNodes at random per read, 1000 readers"));
    doc.put("heap_bytes_per_planned_read", perRead.json());
    doc.put("heap_bytes_per_shared_planned_read", perSharedRead.json());
    doc.put("lookup_after_expiry_us", expiry[0].json());
    doc.put("expiry_unlink_ms", expiry[1].json());
    doc.put("balance_65536_reads_ms", balancing);
    doc.put("long_number_parse_ms", parse[0].json());
    doc.put("long_number_readtree_ms", parse[1].json());
    return doc;
  }

  private static List<ReadPlanTable.PlannedRead> reads(int n, boolean shared, long seed) {
    Random rnd = new Random(seed);
    String[] dns = new String[512];
    for (int i = 0; i < dns.length; i++) {
      dns[i] = new UUID(rnd.nextLong(), rnd.nextLong()).toString();
    }
    List<ReadPlanTable.PlannedRead> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int a = shared ? 0 : rnd.nextInt(512);
      int b = shared ? 1 : (a + 1 + rnd.nextInt(511)) % 512;
      int c = shared ? 2 : b;
      while (!shared && (c == a || c == b)) {
        c = rnd.nextInt(512);
      }
      String reader = "10.0." + (i % 1000) / 256 + "." + (i % 1000) % 256;
      out.add(new ReadPlanTable.PlannedRead(reader, List.of(dns[a], dns[b], dns[c]), dns[a]));
    }
    return out;
  }

  private static ReadPlanTable table(long ttl, AtomicLong clock) {
    return new ReadPlanTable(ReadPlanTable.Limits.builder().maxReads(1 << 22).maxReadsPerUser(1 << 22)
        .maxPlans(1 << 16).maxPlansPerUser(1 << 16).ttlMillis(ttl).build(), clock::get);
  }

  private static void add(ReadPlanTable t, List<ReadPlanTable.PlannedRead> reads) throws Exception {
    for (int i = 0; i < reads.size(); i += 1 << 16) {
      t.add("bench", reads.subList(i, Math.min(reads.size(), i + (1 << 16))));
    }
  }

  private static long usedAfterGc() {
    Runtime r = Runtime.getRuntime();
    for (int i = 0; i < 4; i++) {
      System.gc();
    }
    return r.totalMemory() - r.freeMemory();
  }

  private static Stats heapPerPlannedRead(int n, int reps, boolean shared) throws Exception {
    double[] v = new double[reps];
    for (int r = 0; r < reps; r++) {
      List<ReadPlanTable.PlannedRead> reads = reads(n, shared, r);
      long before = usedAfterGc();
      ReadPlanTable t = table(Long.MAX_VALUE / 4, new AtomicLong());
      add(t, reads);
      long after = usedAfterGc();
      v[r] = (double) (after - before) / n;
      if (t.plannedReads() != n) {
        throw new IllegalStateException("planned " + t.plannedReads());
      }
    }
    return Stats.of(v);
  }

  private static Stats[] expiry(int n, int reps) throws Exception {
    double[] lookupUs = new double[reps];
    double[] unlinkMs = new double[reps];
    long key = ReadPlanTable.holdersKey("x", "y", "z");
    for (int r = -1; r < reps; r++) { // round -1 warms the code up and is not counted
      AtomicLong clock = new AtomicLong(1);
      ReadPlanTable t = table(1000, clock);
      add(t, reads(n, false, r));
      t.add("bench", List.of(new ReadPlanTable.PlannedRead("10.9.9.9", List.of("x", "y", "z"),
          "y")));
      clock.set(1001); // every plan expired
      long t0 = System.nanoTime();
      String server = t.serverFor("10.0.0.1", key);
      double us = (System.nanoTime() - t0) / 1e3;
      if (server != null) {
        throw new IllegalStateException("an expired plan served");
      }
      long t1 = System.nanoTime();
      t.expire();
      double ms = (System.nanoTime() - t1) / 1e6;
      if (r >= 0) {
        lookupUs[r] = us;
        unlinkMs[r] = ms;
      }
    }
    return new Stats[] {Stats.of(lookupUs), Stats.of(unlinkMs)};
  }

  private static Stats balance(int m, int n, boolean skewed, int reps) {
    Random rnd = new Random(m * 31L + n + (skewed ? 1 : 0));
    List<ChunkRead> reads = new ArrayList<>(m);
    for (int r = 0; r < m; r++) {
      String[] hs = new String[3];
      int k = 0;
      while (k < 3) {
        int d = skewed ? (int) (n * Math.pow(rnd.nextDouble(), 3)) : rnd.nextInt(n);
        String dn = "dn" + d;
        if (!java.util.Arrays.asList(hs).contains(dn)) {
          hs[k++] = dn;
        }
      }
      reads.add(ChunkRead.of(Integer.toString(r), hs));
    }
    Map<String, Integer> load = new HashMap<>();
    for (int d = 0; d < n; d++) {
      load.put("dn" + d, rnd.nextInt(8));
    }
    new ReplicaBalancer(Strategy.OPTIMAL, 0, m).compare(reads, load); // warm-up
    double[] ms = new double[reps];
    for (int r = 0; r < reps; r++) {
      long t0 = System.nanoTime();
      new ReplicaBalancer(Strategy.OPTIMAL, r + 1, m).compare(reads, load);
      ms[r] = (System.nanoTime() - t0) / 1e6;
    }
    return Stats.of(ms);
  }

  private static Stats[] parseLongNumber(int digits, int reps) throws Exception {
    StringBuilder b = new StringBuilder("{\"reads\": [{\"path\": \"/f\", \"reader\": \"h\", "
        + "\"length\": ");
    Random rnd = new Random(7);
    b.append('1');
    for (int i = 1; i < digits; i++) {
      b.append((char) ('0' + rnd.nextInt(10)));
    }
    byte[] body = b.append("}]}").toString().getBytes(StandardCharsets.UTF_8);
    ObjectMapper mapper = new ObjectMapper();
    double[] ours = new double[reps];
    double[] tree = new double[reps];
    for (int r = -1; r < reps; r++) { // round -1 warms the code up and is not counted
      long t0 = System.nanoTime();
      try {
        PlanRequestParser.parse(body, 65_536);
        throw new IllegalStateException("a long number was accepted");
      } catch (PlanRefusedException expected) {
        if (r >= 0) {
          ours[r] = (System.nanoTime() - t0) / 1e6;
        }
      }
      long t1 = System.nanoTime();
      mapper.readTree(body).get("reads").get(0).get("length").canConvertToLong();
      if (r >= 0) {
        tree[r] = (System.nanoTime() - t1) / 1e6;
      }
    }
    return new Stats[] {Stats.of(ours), Stats.of(tree)};
  }
}
