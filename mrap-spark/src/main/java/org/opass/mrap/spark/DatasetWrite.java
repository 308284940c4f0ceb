package org.opass.mrap.spark;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkJobInfo;
import org.apache.spark.SparkStageInfo;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.JavaSparkStatusTracker;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.cf.CfCalendar;
import org.opass.mrap.cf.CfDate;
import org.opass.mrap.cf.CfTime;
import org.opass.mrap.write.DatasetCommit;
import org.opass.mrap.write.OutputDataset;
import org.opass.mrap.write.OutputDimension;
import org.opass.mrap.write.OutputVariable;
import org.opass.mrap.write.PartWriter;

/**
 * {@code df.write.format("mrap")}: a DataFrame in the table layout's shape (a column a
 * dimension, a column a variable) written as a CF dataset. On the driver: the options and
 * columns checked; the DataFrame persisted for the write's two passes; a pass that gives each
 * dimension's distinct values, the rows and each packed variable's range (so the grid, a
 * ragged grid and duplicates are refused by name before anything is written); then the rows
 * moved to the task of their part (a range of the first dimension) and written there into the
 * write's work folder ({@link PartWriter}); then {@link DatasetCommit} publishes the dataset in
 * one step, or removes the work folder if anything failed.
 */
final class DatasetWrite {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(
      DatasetWrite.class);
  private static final String PART = "__mrap_part";

  private static String seconds(long nanos) {
    return String.format(java.util.Locale.ROOT, "%.3f", nanos / 1e9);
  }

  private DatasetWrite() {
  }

  /**
   * Writes {@code data} as {@code options} say, {@code mode} as Spark's file sources take it:
   * an existing destination refused ({@code errorifexists}), left alone ({@code ignore}) or
   * replaced ({@code overwrite}); {@code append} is refused.
   */
  static void write(SaveMode mode, Map<String, String> options, Dataset<Row> data) {
    WriteOptions o = WriteOptions.of(options);
    Configuration conf = new Configuration(data.sparkSession().sparkContext()
        .hadoopConfiguration());
    Path dst = new Path(o.path);
    try {
      if (mode == SaveMode.Append) {
        throw new IllegalArgumentException("mrap: a dataset is written whole, not appended to:"
            + " write another beside " + dst + " (xarray joins them), or replace it with "
            + "mode(\"overwrite\")");
      }
      FileSystem fs = dst.getFileSystem(conf);
      boolean exists = fs.exists(dst);
      if (exists && mode == SaveMode.Ignore) {
        return;
      }
      if (exists && mode == SaveMode.ErrorIfExists) {
        throw new IllegalArgumentException("mrap: " + fs.makeQualified(dst) + " exists: write "
            + "elsewhere, or replace it with mode(\"overwrite\")");
      }
      Shape shape = Shape.of(o, data.schema());
      // a partition a task slot: Spark keeps a cached plan's output partitions (spark.sql
      // .shuffle.partitions, 200, where the query's own run would have them coalesced), and
      // both passes would pay a task each
      int slots = data.sparkSession().sparkContext().defaultParallelism();
      boolean ours = data.storageLevel().equals(StorageLevel.NONE()); // else the user's cache
      Dataset<Row> rows = data.coalesce(slots);
      if (ours) {
        rows.persist(StorageLevel.MEMORY_AND_DISK());
      }
      try {
        long t0 = System.nanoTime();
        OutputDataset ds = plan(o, shape, rows, slots);
        long t1 = System.nanoTime();
        DatasetCommit commit = DatasetCommit.begin(conf, dst, mode == SaveMode.Overwrite);
        try {
          List<String> written = writeParts(ds, shape, rows, conf, commit.work());
          long t2 = System.nanoTime();
          commit.commit(ds, written);
          LOG.info("mrap: wrote {} ({}, {} parts): the grid's pass {} s, the parts {} s, the "
              + "commit {} s", commit.destination(), ds, ds.parts(), seconds(t1 - t0),
              seconds(t2 - t1), seconds(System.nanoTime() - t2));
        } catch (Throwable e) { // Spark's own exceptions are checked ones, thrown unchecked
          commit.abort();
          throw e;
        }
      } finally {
        if (ours) {
          rows.unpersist();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("mrap: writing " + dst + ": " + e.getMessage(), e);
    }
  }

  /** The dimension and variable columns of a write. */
  static final class Shape implements Serializable {
    private static final long serialVersionUID = 1L;
    final WriteColumn[] dims;
    final String[] vars;
    final int[] varIndex;
    final ElementType[] varTypes;
    final Metadata[] dimMeta;
    final Metadata[] varMeta;

    private Shape(WriteColumn[] dims, String[] vars, int[] varIndex, ElementType[] varTypes,
        Metadata[] dimMeta, Metadata[] varMeta) {
      this.dims = dims;
      this.vars = vars;
      this.varIndex = varIndex;
      this.varTypes = varTypes;
      this.dimMeta = dimMeta;
      this.varMeta = varMeta;
    }

    static Shape of(WriteOptions o, StructType schema) {
      List<String> names = Arrays.asList(schema.fieldNames());
      for (String c : o.variables) {
        known(names, c, WriteOptions.VARIABLES);
      }
      for (String c : o.dimensions) {
        known(names, c, WriteOptions.DIMENSIONS);
      }
      for (String c : o.attributes.keySet()) {
        known(names, c, WriteOptions.ATTR + c + ".*");
      }
      List<String> dims = new ArrayList<>(o.dimensions);
      List<String> vars = new ArrayList<>(o.variables);
      for (String n : names) {
        if (!o.dimensions.isEmpty() && !o.variables.isEmpty()) {
          if (!dims.contains(n) && !vars.contains(n)) {
            throw new IllegalArgumentException("mrap: column " + n + " is neither a dimension ("
                + WriteOptions.DIMENSIONS + ") nor a variable (" + WriteOptions.VARIABLES
                + "): select the columns to write");
          }
        } else if (o.dimensions.isEmpty() && !vars.contains(n)) {
          dims.add(n);
        } else if (o.variables.isEmpty() && !dims.contains(n)) {
          vars.add(n);
        }
      }
      if (dims.isEmpty() || vars.isEmpty()) {
        throw new IllegalArgumentException("mrap: a dataset needs a dimension column and a "
            + "variable column; the columns are " + names);
      }
      WriteColumn[] d = new WriteColumn[dims.size()];
      Metadata[] dm = new Metadata[d.length];
      for (int i = 0; i < d.length; i++) {
        StructField f = schema.apply(dims.get(i));
        dm[i] = f.metadata();
        Object cal = o.attributes(dims.get(i)).get("calendar");
        String calendar = cal != null ? String.valueOf(cal)
            : f.metadata().contains("calendar") ? f.metadata().getString("calendar") : null;
        d[i] = WriteColumn.dimension(dims.get(i), names.indexOf(dims.get(i)), f.dataType(),
            calendar);
      }
      int[] vi = new int[vars.size()];
      ElementType[] vt = new ElementType[vi.length];
      Metadata[] vm = new Metadata[vi.length];
      for (int i = 0; i < vi.length; i++) {
        StructField f = schema.apply(vars.get(i));
        vi[i] = names.indexOf(vars.get(i));
        vm[i] = f.metadata();
        vt[i] = WriteColumn.numberType(f.dataType());
        if (vt[i] == null) {
          throw new IllegalArgumentException("mrap: variable column " + vars.get(i) + " is "
              + f.dataType().simpleString() + ": a variable holds numbers (cast it, or name "
              + "the variables with " + WriteOptions.VARIABLES + ")");
        }
      }
      for (String p : o.pack) {
        if (!vars.contains(p)) {
          throw new IllegalArgumentException("mrap: " + WriteOptions.PACK + " names " + p
              + ", which is no variable column of " + vars);
        }
      }
      return new Shape(d, vars.toArray(new String[0]), vi, vt, dm, vm);
    }

    private static void known(List<String> names, String c, String key) {
      if (!names.contains(c)) {
        throw new IllegalArgumentException("mrap: " + key + " names " + c + ", which is no "
            + "column of " + names);
      }
    }
  }

  /**
   * What the first pass learns: each dimension's values, the rows, the packed ranges. Public
   * for Spark's Java-serialization encoder, which takes public classes only.
   */
  public static final class GridStats implements Serializable {
    private static final long serialVersionUID = 1L;
    final List<Set<Double>> keys = new ArrayList<>();
    long rows;
    final double[] min;
    final double[] max;
    final long[] nulls; // of every variable

    GridStats(int dims, int vars, int all) {
      nulls = new long[all];
      for (int d = 0; d < dims; d++) {
        keys.add(new HashSet<>());
      }
      min = new double[vars];
      max = new double[vars];
      Arrays.fill(min, Double.POSITIVE_INFINITY);
      Arrays.fill(max, Double.NEGATIVE_INFINITY);
    }

    void merge(GridStats o) {
      for (int d = 0; d < keys.size(); d++) {
        keys.get(d).addAll(o.keys.get(d));
      }
      rows += o.rows;
      for (int v = 0; v < nulls.length; v++) {
        nulls[v] += o.nulls[v];
      }
      for (int v = 0; v < min.length; v++) {
        min[v] = Math.min(min[v], o.min[v]);
        max[v] = Math.max(max[v], o.max[v]);
      }
    }
  }

  private static OutputDataset plan(WriteOptions o, Shape s, Dataset<Row> data, int slots) {
    int[] packed = new int[o.pack.size()];
    for (int i = 0; i < packed.length; i++) {
      packed[i] = s.varIndex[Arrays.asList(s.vars).indexOf(o.pack.get(i))];
    }
    WriteColumn[] dims = s.dims;
    int[] varColumns = s.varIndex;
    MapPartitionsFunction<Row, GridStats> scan = rows -> {
      GridStats g = new GridStats(dims.length, packed.length, varColumns.length);
      while (rows.hasNext()) {
        Row r = rows.next();
        g.rows++;
        for (int d = 0; d < dims.length; d++) {
          g.keys.get(d).add(dims[d].key(r.get(dims[d].index)));
        }
        for (int v = 0; v < varColumns.length; v++) {
          Object x = r.get(varColumns[v]);
          if (x == null || x instanceof Double && ((Double) x).isNaN()
              || x instanceof Float && ((Float) x).isNaN()) {
            g.nulls[v]++;
          }
        }
        for (int v = 0; v < packed.length; v++) {
          Object x = r.get(packed[v]);
          if (x != null) {
            double y = ((Number) x).doubleValue();
            if (!Double.isNaN(y)) {
              g.min[v] = Math.min(g.min[v], y);
              g.max[v] = Math.max(g.max[v], y);
            }
          }
        }
      }
      return List.of(g).iterator();
    };
    GridStats all = new GridStats(dims.length, packed.length, s.vars.length);
    for (GridStats g : data.mapPartitions(scan, Encoders.javaSerialization(GridStats.class))
        .collectAsList()) {
      all.merge(g);
    }
    if (all.rows == 0) {
      throw new IllegalArgumentException("mrap: the DataFrame has no rows: a dataset needs a "
          + "grid point");
    }
    List<OutputDimension> grid = new ArrayList<>();
    double points = 1;
    StringBuilder shape = new StringBuilder();
    for (int d = 0; d < dims.length; d++) {
      double[] keys = all.keys.get(d).stream().mapToDouble(Double::doubleValue).sorted()
          .toArray();
      grid.add(dimension(o, s, d, keys));
      points *= keys.length;
      shape.append(d == 0 ? "" : " x ").append(dims[d].name).append(' ').append(keys.length);
    }
    if (all.rows > points) {
      throw new IllegalArgumentException("mrap: " + all.rows + " rows name the " + (long) points
          + " points of the grid " + shape + ": some name a point twice (duplicate grid "
          + "points); aggregate them first");
    }
    if (all.rows < o.minFill * points) {
      throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "mrap: %d rows "
          + "name %.1f%% of the %d points of the grid %s: the columns do not form a grid "
          + "(a ragged grid, as of stations or a curvilinear mesh); below %s=%s it is refused",
          all.rows, 100.0 * all.rows / points, (long) points, shape, WriteOptions.MIN_FILL,
          o.minFill));
    }
    List<OutputVariable> vars = new ArrayList<>();
    for (int v = 0; v < s.vars.length; v++) {
      OutputVariable var = variable(o, s, v, o.pack.indexOf(s.vars[v]), all);
      boolean full = all.rows == points && all.nulls[v] == 0;
      vars.add(full && !var.attributes().containsKey("_FillValue") && !o.attributes(s.vars[v])
          .containsKey("_FillValue") ? var.withoutDeclaredFill() : var);
    }
    Map<String, Object> global = new LinkedHashMap<>();
    global.put("Conventions", "CF-1.8");
    global.putAll(o.global);
    return OutputDataset.of(o.kind, grid, vars, global, o.chunks, o.partBytes, slots);
  }

  private static OutputDimension dimension(WriteOptions o, Shape s, int d, double[] keys) {
    WriteColumn c = s.dims[d];
    Map<String, Object> attrs = attributes(s.dimMeta[d], o.attributes(c.name));
    if (!c.isTime()) {
      return OutputDimension.of(c.name, c.type, keys, keys, attrs);
    }
    Object calendar = attrs.get("calendar");
    CfCalendar cal = calendar != null ? CfCalendar.of(String.valueOf(calendar))
        : c.calendar != null ? c.calendar : CfCalendar.PROLEPTIC_GREGORIAN;
    Object units = attrs.get("units");
    CfTime time;
    try {
      time = CfTime.of(units != null && CfTime.isTime(String.valueOf(units))
          ? String.valueOf(units) : defaultUnits(c, keys, cal), cal.cfName());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("mrap: dimension " + c.name + ": " + e.getMessage(), e);
    }
    double[] values = new double[keys.length];
    for (int i = 0; i < keys.length; i++) {
      CfDate date;
      try {
        date = c.date(keys[i], cal);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("mrap: dimension " + c.name + ": " + e.getMessage(),
            e);
      }
      values[i] = time.value(date);
    }
    attrs.put("units", time.units());
    attrs.put("calendar", cal.cfName());
    attrs.putIfAbsent("standard_name", "time");
    return OutputDimension.of(c.name, ElementType.FLOAT64, keys, values, attrs);
  }

  /**
   * xarray's way: "{@code <unit> since <first day>}", the unit the largest of days, hours,
   * minutes, seconds and microseconds that every time is a whole number of.
   */
  static String defaultUnits(WriteColumn c, double[] keys, CfCalendar cal) {
    CfDate first = c.date(keys[0], cal);
    double sinceMidnight = first.hour() * 3600e6 + first.minute() * 60e6 + first.second() * 1e6
        + first.microsecond();
    String[] names = {"days", "hours", "minutes", "seconds", "microseconds"};
    double[] micros = {86_400e6, 3_600e6, 60e6, 1e6, 1};
    int u = 0;
    for (; u < names.length - 1; u++) {
      boolean whole = true;
      for (double k : keys) {
        if ((c.micros(keys[0], k) + sinceMidnight) % micros[u] != 0) {
          whole = false;
          break;
        }
      }
      if (whole) {
        break;
      }
    }
    CfDate day = CfDate.of(cal, first.year(), first.month(), first.day());
    return names[u] + " since " + day.toString().replace('T', ' ');
  }

  private static OutputVariable variable(WriteOptions o, Shape s, int v, int packed,
      GridStats stats) {
    String name = s.vars[v];
    Map<String, Object> attrs = attributes(s.varMeta[v], o.attributes(name));
    Object fill = attrs.remove("_FillValue");
    Object scale = attrs.remove("scale_factor");
    Object offset = attrs.remove("add_offset");
    if (packed >= 0 || scale != null || offset != null) {
      return OutputVariable.packed(name, packed >= 0 ? stats.min[packed] : Double.NaN,
          packed >= 0 ? stats.max[packed] : Double.NaN,
          scale == null ? (packed >= 0 ? Double.NaN : 1) : number(name, "scale_factor", scale),
          offset == null ? 0 : number(name, "add_offset", offset), attrs);
    }
    return OutputVariable.of(name, s.varTypes[v],
        fill == null ? Double.NaN : number(name, "_FillValue", fill), attrs);
  }

  private static double number(String column, String attribute, Object value) {
    if (value instanceof Number) {
      return ((Number) value).doubleValue();
    }
    throw new IllegalArgumentException("mrap: " + WriteOptions.ATTR + column + "." + attribute
        + "=" + value + ": expected a number");
  }

  /** A column's CF attributes from its metadata (a table read's), the options' over them. */
  private static Map<String, Object> attributes(Metadata meta, Map<String, Object> given) {
    Map<String, Object> a = new LinkedHashMap<>();
    for (String k : TableColumns.CF_TEXT) {
      if (meta.contains(k)) {
        a.put(k, meta.getString(k));
      }
    }
    a.putAll(given);
    return a;
  }

  private static List<String> writeParts(OutputDataset ds, Shape s, Dataset<Row> data,
      Configuration conf, Path work) {
    WriteColumn first = s.dims[0];
    OutputDimension firstDim = ds.dimensions().get(0);
    UserDefinedFunction partOf = functions.udf((UDF1<Object, Integer>) x -> {
      int i = firstDim.index(first.key(x));
      if (i < 0) {
        throw new IllegalStateException("mrap: " + first.name + " " + x + " was not in the "
            + "DataFrame's first pass: is the query deterministic?");
      }
      return ds.part(i);
    }, DataTypes.IntegerType);
    Column firstColumn = data.col("`" + first.name + "`");
    Dataset<Row> parted = data.withColumn(PART, partOf.apply(firstColumn))
        .repartition(ds.parts(), functions.col(PART)).sortWithinPartitions(PART);
    int partIndex = data.schema().fieldNames().length;
    byte[] confBytes = MrapPartition.bytes(conf);
    String workName = work.toString();
    MapPartitionsFunction<Row, String> write = rows -> {
      Configuration c = MrapPartition.configuration(confBytes);
      Path w = new Path(workName);
      FileSystem fs = w.getFileSystem(c);
      String attempt = "a" + TaskContext.get().taskAttemptId();
      List<String> out = new ArrayList<>();
      PartWriter part = null;
      long[] length = ds.shape();
      while (rows.hasNext()) {
        Row r = rows.next();
        int p = r.getInt(partIndex);
        if (part == null || part.part() != p) {
          if (part != null) {
            out.addAll(part.write(fs, w, attempt));
          }
          part = new PartWriter(ds, p);
        }
        long index = 0;
        for (int d = 0; d < s.dims.length; d++) {
          int i = ds.dimensions().get(d).index(s.dims[d].key(r.get(s.dims[d].index)));
          if (i < 0) {
            throw new IllegalStateException("mrap: a row's " + s.dims[d].name + " was not in "
                + "the DataFrame's first pass: is the query deterministic?");
          }
          index = index * length[d] + i;
        }
        for (int v = 0; v < s.vars.length; v++) {
          Object x = r.get(s.varIndex[v]);
          part.put(v, index, x == null ? Double.NaN : ((Number) x).doubleValue());
        }
      }
      if (part != null) {
        out.addAll(part.write(fs, w, attempt));
      }
      return out.iterator();
    };
    SparkContext sc = data.sparkSession().sparkContext();
    String[] keys = {"spark.jobGroup.id", "spark.job.description", "spark.job.interruptOnCancel"};
    String[] before = new String[keys.length];
    for (int i = 0; i < keys.length; i++) {
      before[i] = sc.getLocalProperty(keys[i]);
    }
    String group = "mrap-write-" + java.util.UUID.randomUUID();
    sc.setJobGroup(group, "mrap: write " + work.getParent() + " (" + ds.kind().lowerName()
        + ")", true);
    try {
      return parted.mapPartitions(write, Encoders.STRING()).collectAsList();
    } catch (Throwable e) { // SparkException included
      // a failed task fails the job while others still write: stop them before the work
      // folder is removed, or they would make it again
      sc.cancelJobGroup(group);
      awaitTasks(JavaSparkContext.fromSparkContext(sc).statusTracker(), group);
      throw e;
    } finally {
      for (int i = 0; i < keys.length; i++) {
        sc.setLocalProperty(keys[i], before[i]);
      }
    }
  }

  /** Waits (a minute at most) until no task of the jobs of {@code group} runs. */
  private static void awaitTasks(JavaSparkStatusTracker tracker, String group) {
    long end = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < end) {
      int running = 0;
      for (int job : tracker.getJobIdsForGroup(group)) {
        SparkJobInfo info = tracker.getJobInfo(job);
        for (int stage : info == null ? new int[0] : info.stageIds()) {
          SparkStageInfo s = tracker.getStageInfo(stage);
          running += s == null ? 0 : s.numActiveTasks();
        }
      }
      if (running == 0) {
        return;
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
