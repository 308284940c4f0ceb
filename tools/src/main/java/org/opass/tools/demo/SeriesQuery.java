package org.opass.tools.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.FileSystem;
import org.opass.tools.cluster.ProcessHdfs;
import org.opass.tools.cluster.Release;

/**
 * The tour's Spark SQL step: a small NetCDF series queried as a table through
 * {@code spark.read.format("mrap")}, with its coordinate filters pushed to the source and
 * without, each answer checked against netCDF4-python's ({@code expected.json}).
 */
final class SeriesQuery {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String OPEN_RESULTS = "tools/src/main/resources/demo/open_results.py";

  private SeriesQuery() {
  }

  /**
   * The series into HDFS, then its query twice in the Spark application: with its coordinate
   * filters pushed (the tasks read the chunks holding the box) and with them on expressions of
   * the columns (Spark hands the scan none: the tasks read every chunk); the bytes read from
   * HDFS planning each (on the driver: the files' headers and chunk indexes, kept once read)
   * and running it.
   * Both answers must be the one netCDF4-python gives ({@code expected.json}).
   */
  static void run(ProcessHdfs hdfs, SparkSql spark, Map<String, Object> summary)
      throws Exception {
    Path series = Release.ROOT.resolve(Tour.SERIES);
    JsonNode expected = JSON.readTree(Release.ROOT.resolve(Tour.SERIES_EXPECTED).toFile());
    long seriesBytes = 0;
    List<Path> files;
    try (var list = Files.list(series)) {
      files = list.filter(f -> f.toString().endsWith(".nc")).sorted()
          .collect(Collectors.toList());
    }
    try (FileSystem fs = FileSystem.newInstance(hdfs.clientConf())) {
      for (Path f : files) {
        fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(f.toUri()),
            new org.apache.hadoop.fs.Path("/tour/era5/" + f.getFileName()));
        seriesBytes += Files.size(f);
      }
    }
    Map<String, String> options = new LinkedHashMap<>();
    expected.get("options").fields().forEachRemaining(e -> options.put(e.getKey(),
        e.getValue().asText()));
    String sql = expected.get("sql").asText();
    String notPushed = expected.get("sql_not_pushed").asText();
    String table = hdfs.uri() + "/tour/era5";
    spark.view("era5", table, options);
    System.out.println("    " + files.size() + " files, " + kib(seriesBytes) + ", "
        + table + ":");
    System.out.println("    spark.read.format(\"mrap\")" + options.entrySet().stream()
        .map(e -> ".option(\"" + e.getKey() + "\", \"" + e.getValue() + "\")")
        .collect(Collectors.joining()) + ".load(\"/tour/era5\")");
    System.out.println("    " + sql.replace(" FROM ", "\n      FROM ")
        .replace(" WHERE ", "\n      WHERE ").replace(" GROUP BY ", "\n      GROUP BY "));
    SparkSql.Answer[] answers = {spark.sql(sql), spark.sql(notPushed)};
    List<String> columns = new ArrayList<>();
    expected.get("columns").forEach(c -> columns.add(c.asText()));
    System.out.println("    " + row(columns));
    for (String r : answers[0].rows()) {
      System.out.println("    " + row(List.of(r.split("\t"))));
    }
    System.out.println("    its scan: " + answers[0].scan());
    System.out.println("    the same query, " + notPushed.substring(notPushed.indexOf(
        "WHERE "), notPushed.indexOf(" GROUP BY")));
    System.out.println("    its scan: " + answers[1].scan());
    List<String> want = new ArrayList<>();
    for (JsonNode r : expected.get("rows")) {
      List<String> cells = new ArrayList<>();
      r.forEach(c -> cells.add(c.isIntegralNumber() ? c.asText()
          : Double.toString(c.asDouble())));
      want.add(String.join("\t", cells));
    }
    if (!answers[0].rows().equals(answers[1].rows()) || !answers[0].rows().equals(want)) {
      throw new IOException("Spark SQL's answers differ: with the filters pushed "
          + answers[0].rows() + ", without " + answers[1].rows() + ", netCDF4-python's "
          + want + " (" + Tour.SERIES_EXPECTED + ")");
    }
    long with = answers[0].runBytes();
    long without = answers[1].runBytes();
    JsonNode chunks = expected.get("chunks");
    summary.put("spark_sql_task_bytes_pushed", with);
    summary.put("spark_sql_task_bytes_not_pushed", without);
    summary.put("spark_sql_task_bytes_pushed_over_not_pushed", with / (double) without);
    summary.put("spark_sql_planning_bytes_pushed", answers[0].planBytes());
    summary.put("spark_sql_planning_bytes_not_pushed", answers[1].planBytes());
    summary.put("spark_sql_answers_equal", true);
    Tour.result(String.format(Locale.ROOT, "Spark SQL over NetCDF: the same %d rows with the "
        + "filters pushed and without (and netCDF4-python's); the tasks read %s from HDFS "
        + "with them pushed (the %d chunks holding the box: %s), %s without (every chunk: "
        + "%s): %.2f", want.size(), kib(with), chunks.get("box").asInt(),
        kib(chunks.get("box_bytes").asLong()), kib(without),
        kib(chunks.get("all_bytes").asLong()), with / (double) without));
    Tour.result("planning on the driver read the files' headers and chunk indexes, in 64 KiB "
        + "pages it keeps for the next query: " + kib(answers[0].planBytes()) + " for the "
        + "query with its filters pushed, then " + kib(answers[1].planBytes())
        + " for the other");
    written(hdfs, spark, want, expected.get("columns"));
  }

  /**
   * The answer written back into HDFS by {@code df.write.format("mrap")}, as a CF NetCDF file
   * and a Zarr store, and opened by xarray over WebHDFS ({@code open_results.py}): both must hold
   * the answer's rows.
   */
  private static void written(ProcessHdfs hdfs, SparkSql spark, List<String> want,
      JsonNode columns) throws Exception {
    List<String> vars = new ArrayList<>();
    for (int i = 1; i < columns.size(); i++) {
      vars.add(columns.get(i).asText());
    }
    String nc = "/tour/results/spring.nc";
    String zarr = "/tour/results/spring.zarr";
    spark.write("netcdf", hdfs.uri() + nc, String.join(",", vars));
    spark.write("zarr", hdfs.uri() + zarr, String.join(",", vars));
    java.net.URI http = java.net.URI.create(hdfs.nameNodeHttp());
    Map<String, Object> web = new LinkedHashMap<>();
    web.put("host", http.getHost());
    web.put("port", http.getPort());
    web.put("user", System.getProperty("user.name"));
    String python = org.opass.tools.bench.ReferencePython.find();
    Process p = new ProcessBuilder(python, Release.ROOT.resolve(OPEN_RESULTS).toString(),
        JSON.writeValueAsString(web), nc, zarr).redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    byte[] out = p.getInputStream().readAllBytes();
    if (p.waitFor() != 0) {
      throw new IOException(OPEN_RESULTS + " failed (exit " + p.exitValue() + ") with "
          + python);
    }
    JsonNode opened = JSON.readTree(out);
    for (String kind : new String[] {"netcdf", "zarr"}) {
      List<String> got = new ArrayList<>();
      for (JsonNode r : opened.get(kind).get("rows")) {
        List<String> cells = new ArrayList<>();
        r.forEach(c -> cells.add(c.isIntegralNumber() ? c.asText()
            : Double.toString(c.asDouble())));
        got.add(String.join("\t", cells));
      }
      if (!got.equals(want)) {
        throw new IOException("xarray read " + got + " from " + kind + " " + (kind.equals(
            "netcdf") ? nc : zarr) + ", Spark wrote " + want);
      }
    }
    System.out.println("    clim.write.format(\"mrap\").option(\"mrap.science.output\", "
        + "\"netcdf\" | \"zarr\").option(\"mrap.science.variables\", \"" + String.join(",",
        vars) + "\").save(...)");
    Tour.result("the answer written back by df.write.format(\"mrap\") as " + nc + " ("
        + opened.get("netcdf").get("format").asText() + ") and " + zarr + " (Zarr v2), "
        + "opened by xarray over WebHDFS: the same " + want.size() + " rows in both");
  }

  private static String kib(long bytes) {
    return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
  }

  /** A table row: each cell right-aligned in 10 characters. */
  private static String row(List<String> cells) {
    StringBuilder b = new StringBuilder();
    for (String c : cells) {
      b.append(String.format(Locale.ROOT, "%10s", c));
    }
    return b.toString();
  }
}
