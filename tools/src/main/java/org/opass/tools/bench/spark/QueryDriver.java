package org.opass.tools.bench.spark;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.opass.tools.bench.DrivenProcess;

/**
 * The Spark application of {@link SparkScienceBench}: {@code mrap-spark}'s
 * {@code ScienceQueryDriver} in a process of its own, driven a line at a time.
 */
final class QueryDriver implements AutoCloseable {
  private final Process process;
  private final BufferedReader out;
  private final PrintStream in;
  private final File log;

  /**
   * Starts the application on {@code local[8]} for the series at {@code dir} ({@code files}
   * files); the query's box is {@link SparkScienceBench}'s.
   */
  QueryDriver(String classpath, File log, String dir, int files) throws IOException {
    this(classpath, log, dir, files, null);
  }

  /** As above, the way {@code pushdown-index} planning from the series index {@code index}. */
  QueryDriver(String classpath, File log, String dir, int files, String index)
      throws IOException {
    this.log = log;
    List<String> args = new ArrayList<>(List.of("local[8]", dir, SparkScienceBench.FROM,
        SparkScienceBench.TO, Integer.toString(SparkScienceBench.LAT_A),
        Integer.toString(SparkScienceBench.LAT_B), Integer.toString(SparkScienceBench.LON_A),
        Integer.toString(SparkScienceBench.LON_B), Integer.toString(files)));
    if (index != null) {
      args.add(index);
    }
    process = DrivenProcess.start(List.of("-Xmx3g", "-XX:+ExitOnOutOfMemoryError"), classpath,
        "org.opass.mrap.spark.ScienceQueryDriver", args, log);
    out = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8));
    in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
    answer("ready", null);
  }

  /** One query: the driver's seconds and its groups. */
  Answer query(String way) throws IOException {
    in.println(way);
    List<List<Object>> groups = new ArrayList<>();
    String done = answer("done " + way, groups);
    String s = done.substring(done.indexOf("seconds=") + 8);
    return new Answer(Double.parseDouble(s.substring(0, s.indexOf(' '))), groups);
  }

  /** The query's scan, as Spark's plan describes it. */
  String explain(String way) throws IOException {
    in.println("explain " + way);
    return answer("scan " + way, null).substring(("scan " + way + " ").length());
  }

  /** Plans the query alone (the reads at planning). */
  void plan(String way) throws IOException {
    in.println("plan " + way);
    answer("planned " + way, null);
  }

  /**
   * The driver's next line starting with {@code prefix} (others are its own output, or
   * groups, kept in {@code groups} where given).
   */
  private String answer(String prefix, List<List<Object>> groups) throws IOException {
    return DrivenProcess.answer(process, out, log, prefix, line -> {
      if (groups != null && line.startsWith("group ")) {
        String[] g = line.split(" ");
        groups.add(Arrays.asList(Integer.parseInt(g[1]), Float.parseFloat(g[2]),
            Float.parseFloat(g[3]), g[4].equals("null") ? null : Double.parseDouble(g[4]),
            g[5].equals("null") ? null : Double.parseDouble(g[5])));
      }
    });
  }

  @Override
  public void close() throws IOException {
    DrivenProcess.quit(process, in, 60);
  }

  /** One answer of the driver: its seconds and groups. */
  static final class Answer {
    final double seconds;
    final List<List<Object>> groups;

    Answer(double seconds, List<List<Object>> groups) {
      this.seconds = seconds;
      this.groups = groups;
    }
  }
}
