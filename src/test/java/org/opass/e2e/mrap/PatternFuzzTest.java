package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.InvalidJobConfException;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.e2e.SeededCases;
import org.opass.mrap.copy.MrapCopy;
import org.opass.mrap.mapreduce.AccessInputFormat;
import org.opass.mrap.pattern.NaivePatterns;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.tools.cluster.ForklessLocalFileSystem;

/**
 * Hostile and mistaken pattern configurations, seeded: valid patterns with one to three
 * mutations each (bad values: empty, signs, fractions, hex, past 2^63, other scripts' digits,
 * stray commas, thousands of values; misspelt keys; keys of another kind; overflowing
 * products; variables that refer to themselves; settings of the reader and the copy tool gone
 * wrong) and malformed pattern files (cut short, with a document type and an external entity,
 * with an include, the wrong root, a name twice, binary), through a job's submission and
 * through {@code mrap-copy}. Every case is accepted or refused with our error naming the key,
 * option or file at fault (exit code 2 for the tool, nothing written); no other exception
 * escapes, no file's content is echoed.
 */
class PatternFuzzTest {
  private static final int CASES = SeededCases.of(10_000);
  private static final String SECRET = "the-secret-only-an-entity-could-echo";

  @TempDir
  File tmp;

  private static final Configuration LOCAL = ForklessLocalFileSystem.conf();

  static {
    LOCAL.setLong("fs.local.block.size", 4096);
  }

  private static final String[] BAD = {"", " ", "0", "-1", "-0", "+5", "1.5", "0x10", "1e3",
      "9223372036854775807", "9223372036854775808", "18446744073709551616",
      "99999999999999999999999", "\u0661\u0662\u0663", "\uff11\uff12", "7,", ",7", "1,,2",
      "3k", "3K", "1t", "2p", "8g", "1 2", "\t4\t", "abc", "\u0000", "NaN", "Infinity", "true",
      "${x}", "4096", "1", "100000", "2147483648", "4294967296", "64m"};

  private static String badValue(Random rnd, String key) {
    switch (rnd.nextInt(8)) {
      case 0:
        return "${" + key + "}"; // a variable that refers to itself
      case 1: {
        StringBuilder b = new StringBuilder();
        int n = 1 + rnd.nextInt(3000);
        for (int i = 0; i < n; i++) {
          b.append(i == 0 ? "" : ",").append(rnd.nextInt(100));
        }
        return b.toString();
      }
      case 2:
        return "9".repeat(1 + rnd.nextInt(5000));
      default:
        return BAD[rnd.nextInt(BAD.length)];
    }
  }

  private static String typo(Random rnd, String key) {
    char[] c = key.toCharArray();
    int i = 1 + rnd.nextInt(c.length - 1);
    switch (rnd.nextInt(4)) {
      case 0:
        return key.substring(0, i) + key.substring(i + 1);
      case 1:
        return key.substring(0, i) + (char) ('a' + rnd.nextInt(26)) + key.substring(i);
      case 2:
        char t = c[i];
        c[i] = c[i - 1];
        c[i - 1] = t;
        return new String(c);
      default:
        return key.toUpperCase(java.util.Locale.ROOT);
    }
  }

  private static final String[] OTHER_KEYS = {PatternConfig.STRIDED_SIZE,
      PatternConfig.STRIDED_COUNT, PatternConfig.STRIDED_SPACING, PatternConfig.STRIDED_STRIDE,
      PatternConfig.STRIDED_NESTING, PatternConfig.ARRAY_SHAPE, PatternConfig.TILE_SHAPE,
      PatternConfig.SUBARRAY_EXTENT, PatternConfig.INDEXED_REGIONS, PatternConfig.INDEXED_FILE,
      PatternConfig.KIND, AccessInputFormat.SPLIT_BYTES, AccessInputFormat.COALESCE_GAP,
      AccessInputFormat.RECORD_BYTES, AccessInputFormat.CHUNKS, AccessInputFormat.RESTRUCTURED,
      "mrap.copy.parallel.bytes", "mrap.copy.writers", "mrap.copy.threads"};

  /** A valid pattern for {@code length} bytes with one to three mutations. */
  private static Map<String, String> mutated(Random rnd, long length) {
    Map<String, String> k = new LinkedHashMap<>(NaivePatterns.random(rnd, length,
        rnd.nextBoolean()));
    int mutations = 1 + rnd.nextInt(3);
    for (int m = 0; m < mutations && !k.isEmpty(); m++) {
      List<String> keys = new ArrayList<>(k.keySet());
      String key = keys.get(rnd.nextInt(keys.size()));
      switch (rnd.nextInt(7)) {
        case 0:
          k.remove(key);
          break;
        case 1:
          k.put(typo(rnd, key), k.remove(key));
          break;
        case 2: // a key of another kind, or a setting, with any value
          String other = OTHER_KEYS[rnd.nextInt(OTHER_KEYS.length)];
          k.put(other, rnd.nextBoolean() ? badValue(rnd, other) : "2");
          break;
        case 3: // overflowing products
          k.put(key, rnd.nextBoolean() ? "4611686018427387904" : "1099511627776,4194304");
          break;
        case 4:
          k.put(typo(rnd, OTHER_KEYS[rnd.nextInt(OTHER_KEYS.length)]), "1");
          break;
        default:
          k.put(key, badValue(rnd, key));
      }
    }
    return k;
  }

  /**
   * Whether a refusal's message names one of the keys set, one of ours (a required one that is
   * missing), an option, or the file.
   */
  private static boolean named(String message, Map<String, String> keys, String... others) {
    List<String> ours = new ArrayList<>(keys.keySet());
    ours.addAll(PatternConfig.keys());
    ours.addAll(AccessInputFormat.KEYS);
    for (String key : ours) {
      if (message.contains(key)) {
        return true;
      }
    }
    for (String o : others) {
      if (o != null && message.contains(o)) {
        return true;
      }
    }
    return false;
  }

  private static String xml(Map<String, String> keys) {
    StringBuilder b = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (Map.Entry<String, String> e : keys.entrySet()) {
      b.append("<property><name>").append(escape(e.getKey())).append("</name><value>")
          .append(escape(e.getValue())).append("</value></property>\n");
    }
    return b.append("</configuration>\n").toString();
  }

  private static String escape(String s) {
    StringBuilder b = new StringBuilder();
    for (char c : s.toCharArray()) {
      if (c == '<') {
        b.append("&lt;");
      } else if (c == '&') {
        b.append("&amp;");
      } else if (c < 0x20 && c != '\t') {
        b.append("&#x20;"); // XML 1.0 cannot carry it
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** A malformed or hostile pattern file. */
  private static String badFile(Random rnd, Map<String, String> keys, File secret) {
    String good = xml(keys);
    switch (rnd.nextInt(8)) {
      case 0:
        return good.substring(0, rnd.nextInt(good.length()));
      case 1:
        return "<?xml version=\"1.0\"?>\n<!DOCTYPE c [<!ENTITY e SYSTEM \"" + secret.toURI()
            + "\">]>\n<configuration><property><name>strided.region_size</name><value>&e;"
            + "</value></property></configuration>";
      case 2:
        return "<?xml version=\"1.0\"?>\n<configuration xmlns:xi=\"http://www.w3.org/2001/"
            + "XInclude\"><xi:include href=\"" + secret.toURI() + "\" parse=\"text\"/>"
            + "</configuration>";
      case 3:
        return good.replace("configuration>", "settings>");
      case 4:
        return good.replace("</configuration>", "<property><name>strided.region_size</name>"
            + "<value>1</value></property><property><name>strided.region_size</name>"
            + "<value>2</value></property></configuration>");
      case 5:
        return good.replace("<value>", "").replace("</value>", "");
      case 6:
        byte[] junk = new byte[1 + rnd.nextInt(300)];
        rnd.nextBytes(junk);
        return new String(junk, StandardCharsets.ISO_8859_1);
      default:
        return "";
    }
  }

  @Test
  void everyConfigurationIsTakenOrRefusedByName() throws Exception {
    Random rnd = new Random(2222);
    File input = new File(tmp, "input");
    assertTrue(input.mkdir());
    int length = 50_000;
    byte[] data = new byte[length];
    rnd.nextBytes(data);
    Files.write(new File(input, "data").toPath(), data);
    File secret = new File(tmp, "secret");
    Files.writeString(secret.toPath(), SECRET);
    Map<String, Integer> outcomes = new TreeMap<>();
    List<String> failures = new ArrayList<>();
    for (int c = 0; c < CASES && failures.size() < 20; c++) {
      Map<String, String> keys = mutated(rnd, length);
      String what = "case " + c + " " + shorten(keys.toString());
      // a job's submission
      Configuration conf = new Configuration(LOCAL);
      keys.forEach(conf::set);
      try {
        Job job = Job.getInstance(conf);
        FileInputFormat.setInputPaths(job, new Path(input.toURI()));
        List<InputSplit> splits = new AccessInputFormat().getSplits(job);
        outcomes.merge("submission taken", 1, Integer::sum);
        assertTrue(!splits.isEmpty(), what);
      } catch (InvalidJobConfException e) {
        outcomes.merge("submission refused", 1, Integer::sum);
        if (!named(e.getMessage(), keys)) {
          failures.add(what + ": the refusal names no key: " + e.getMessage());
        }
      } catch (Exception | StackOverflowError e) {
        failures.add(what + ": submission threw " + e);
      }
      // the copy tool, with the pattern in a file (sometimes a bad one) or as -D
      File dst = new File(tmp, "out" + c + "/copy");
      List<String> args = new ArrayList<>();
      String patternFile = null;
      if (rnd.nextBoolean()) {
        File f = new File(tmp, "pattern" + c + ".xml");
        Files.writeString(f.toPath(), rnd.nextInt(6) == 0 ? badFile(rnd, keys, secret)
            : xml(keys), StandardCharsets.UTF_8);
        patternFile = f.getPath();
        args.add("-pattern");
        args.add(patternFile);
      } else {
        keys.forEach((k, v) -> {
          args.add("-D");
          args.add(k + "=" + v);
        });
      }
      String option = null;
      switch (rnd.nextInt(8)) {
        case 0:
          option = "-task-bytes";
          args.add(0, badValue(rnd, option));
          args.add(0, option);
          break;
        case 1:
          option = "dfs.blocksize";
          args.add(0, option + "=" + badValue(rnd, option));
          args.add(0, "-D");
          break;
        case 2:
          option = "dfs.replication";
          args.add(0, option + "=" + (rnd.nextBoolean() ? "abc" : badValue(rnd, option)));
          args.add(0, "-D");
          break;
        case 3:
          option = "fs.permissions.umask-mode";
          args.add(0, option + "=" + (rnd.nextBoolean() ? "999" : badValue(rnd, option)));
          args.add(0, "-D");
          break;
        case 4:
          option = "-mode";
          args.add(0, rnd.nextBoolean() ? "sometimes" : "parallel");
          args.add(0, option);
          break;
        default:
      }
      args.add("-mode");
      args.add("single");
      args.add(new File(input, "data").toURI().toString());
      args.add(dst.toURI().toString());
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int rc;
      try {
        rc = ToolRunner.run(new Configuration(LOCAL), new MrapCopy(new PrintStream(
            new ByteArrayOutputStream(), true), new PrintStream(err, true)),
            args.toArray(new String[0]));
      } catch (Exception | StackOverflowError e) {
        failures.add(what + ": mrap-copy " + args + " threw " + e);
        continue;
      }
      String said = err.toString();
      outcomes.merge("copy exit " + rc, 1, Integer::sum);
      if (said.contains(SECRET)) {
        failures.add(what + ": mrap-copy echoed a file an entity named: " + said);
      }
      if (rc == 0) {
        if (!dst.exists()) {
          failures.add(what + ": mrap-copy " + args + " said it copied, nothing there");
        }
      } else if (rc == 2) {
        if (!named(said, keys, option, patternFile, "-D")) {
          failures.add(what + ": mrap-copy " + args + " refused naming nothing: " + said);
        }
        if (dst.getParentFile().exists()) {
          failures.add(what + ": mrap-copy " + args + " refused but wrote "
              + List.of(dst.getParentFile().list()));
        }
      } else {
        failures.add(what + ": mrap-copy " + args + " exited " + rc + ": " + said);
      }
    }
    System.out.println("pattern fuzz: " + outcomes);
    assertEquals(List.of(), failures);
    assertTrue(outcomes.getOrDefault("submission refused", 0) > CASES / 4
        && outcomes.getOrDefault("submission taken", 0) > CASES / 20, outcomes.toString());
  }

  private static String shorten(String s) {
    return s.length() > 300 ? s.substring(0, 300) + "..." : s;
  }

  @Test
  void aPatternOfATrillionRegionsIsCutWithoutWalkingThem() throws Exception {
    File sparse = new File(tmp, "sparse");
    try (RandomAccessFile f = new RandomAccessFile(sparse, "rw")) {
      f.setLength(1L << 42); // 4 TiB, sparse: nothing on disk
    }
    Configuration conf = new Configuration(LOCAL);
    conf.setLong("fs.local.block.size", 1L << 30);
    conf.set(PatternConfig.STRIDED_SIZE, "1");
    conf.set(PatternConfig.STRIDED_STRIDE, "4,4000");
    conf.set(PatternConfig.STRIDED_COUNT, "1000,1000000000"); // 10^12 regions
    for (String cut : new String[] {"blocks", "bytes", "virtual"}) {
      Configuration c = new Configuration(conf);
      if (!cut.equals("blocks")) {
        c.set(AccessInputFormat.SPLIT_BYTES, "1g");
      }
      if (cut.equals("virtual")) {
        c.set(AccessInputFormat.CHUNKS, "independent");
      }
      Job job = Job.getInstance(c);
      FileInputFormat.setInputPaths(job, new Path(sparse.toURI()));
      // a walk over 10^12 regions takes hours; the lookups, well under a minute
      List<InputSplit> splits = assertTimeoutPreemptively(Duration.ofMinutes(2),
          () -> new AccessInputFormat().getSplits(job), cut);
      long bytes = 0;
      for (InputSplit s : splits) {
        bytes += s.getLength();
      }
      assertEquals(1_000_000_000_000L, bytes, cut + ": every region in a split");
    }
  }
}
