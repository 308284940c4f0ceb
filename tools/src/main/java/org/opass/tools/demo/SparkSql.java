package org.opass.tools.demo;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.opass.tools.bench.DrivenProcess;

/**
 * The tour's Spark application: mrap-spark's {@code SqlDriver} in a JVM of its own, as a Spark
 * application is ({@code local[2]}; Spark does not share the tour's classpath, its Jackson is
 * not Hadoop's), driven a line at a time: each query planned, then run, with the bytes it read
 * from HDFS meanwhile. Its classpath is mrap-spark's test classpath, in the file that {@code
 * bin/embedded.sh} writes with {@code EMBEDDED_SPARK=1} and names in {@value
 * #CLASSPATH_PROPERTY}; its log goes to a file.
 */
final class SparkSql implements AutoCloseable {
  static final String CLASSPATH_PROPERTY = "opass.bench.spark.classpath";
  private final Process process;
  private final BufferedReader out;
  private final PrintStream in;
  private final File log;

  /**
   * A query's answer: what the scan was handed, the rows (tab separated), and the bytes read
   * from HDFS planning it (on the driver) and running it (by its tasks).
   */
  record Answer(String scan, List<String> rows, long planBytes, long runBytes) {
  }

  /** Starts the application and waits until its session is up. */
  SparkSql(File log) throws IOException {
    String cpFile = System.getProperty(CLASSPATH_PROPERTY);
    if (cpFile == null || !new File(cpFile).isFile()) {
      throw new IllegalStateException("the Spark step needs mrap-spark's classpath in the file "
          + "-D" + CLASSPATH_PROPERTY + " names (" + cpFile + "); bin/demo has bin/embedded.sh "
          + "write it (EMBEDDED_SPARK=1)");
    }
    this.log = log;
    process = DrivenProcess.start(List.of("-Xmx1g", "-XX:+UseParallelGC",
        "-XX:+ExitOnOutOfMemoryError"), Files.readString(Paths.get(cpFile)).trim(),
        "org.opass.mrap.spark.SqlDriver", List.of("local[2]"), log);
    out = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8));
    in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
    next("ready");
  }

  /** {@code spark.read.format("mrap")} with {@code options} from {@code path}, as a view. */
  void view(String name, String path, Map<String, String> options) throws IOException {
    StringBuilder line = new StringBuilder("view ").append(name).append(' ').append(path);
    options.forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
    in.println(line);
    next("done view");
  }

  /** Writes the query planned last as {@code kind} to {@code path}, replacing it. */
  void write(String kind, String path, String variables) throws IOException {
    in.println("write " + kind + " " + path + " " + variables);
    next("done write");
  }

  Answer sql(String query) throws IOException {
    in.println("plan " + query.replace('\n', ' '));
    String scan = next("scan ").substring(5);
    long planBytes = read(next("done plan"));
    in.println("run");
    List<String> rows = new ArrayList<>();
    for (String line = next("row ", "done run"); ; line = next("row ", "done run")) {
      if (line.startsWith("row ")) {
        rows.add(line.substring(4));
      } else {
        return new Answer(scan, rows, planBytes, read(line));
      }
    }
  }

  private static long read(String done) {
    return Long.parseLong(done.replaceFirst(".* read=(\\d+).*", "$1"));
  }

  /**
   * The driver's next line starting with one of {@code prefixes} (others are its own output).
   *
   * @throws IOException with the driver's error, or where it ended
   */
  private String next(String... prefixes) throws IOException {
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      if (line.startsWith("error ")) {
        throw new IOException("the Spark application: " + line.substring(6) + " (its log: "
            + log + ")");
      }
      for (String p : prefixes) {
        if (line.startsWith(p)) {
          return line;
        }
      }
    }
    throw new IOException("the Spark application ended (exit "
        + DrivenProcess.exitCode(process) + ") before "
        + "saying '" + prefixes[0] + "'; its log: " + log);
  }

  @Override
  public void close() {
    DrivenProcess.quit(process, in, 30);
  }
}
