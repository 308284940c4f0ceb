package org.opass.mrap.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.cf.CfDecoding;
import org.opass.mrap.fs.InputFiles;
import org.opass.mrap.plan.AccessPlanner;
import org.opass.mrap.plan.VariablePlanner;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.settings.VariableSettings;
import org.opass.mrap.task.ReadTask;
import org.opass.mrap.task.VariableTask;

/**
 * One read's plan on the driver: the columns asked for, and a partition a task that mrap-core's
 * {@link AccessPlanner} or {@link VariablePlanner} plans (virtual splits and set-cover hosts
 * included), each with the task's hosts as its preferred locations.
 */
final class MrapScan implements ScanBuilder, SupportsPushDownRequiredColumns, Scan, Batch {
  private final Configuration conf;
  private final List<String> paths;
  private final StructType schema;
  private final ElementType type; // a variable's, else null
  private StructType columns;
  private InputPartition[] planned; // Spark asks twice a query (its plan and AQE's copy)

  MrapScan(Configuration conf, List<String> paths, StructType schema, ElementType type) {
    this.conf = conf;
    this.paths = paths;
    this.schema = schema;
    this.type = type;
    this.columns = schema;
  }

  @Override
  public void pruneColumns(StructType required) {
    columns = kept(schema, required);
  }

  /** {@code schema}'s columns that {@code required} names, in the schema's order. */
  static StructType kept(StructType schema, StructType required) {
    // Java types only (not getFieldIndex's scala.Option): the jar names no Scala class
    List<String> names = Arrays.asList(required.fieldNames());
    StructType kept = new StructType();
    for (StructField f : schema.fields()) {
      if (names.contains(f.name())) {
        kept = kept.add(f);
      }
    }
    return kept;
  }

  @Override
  public Scan build() {
    return this;
  }

  @Override
  public StructType readSchema() {
    return columns;
  }

  @Override
  public String description() {
    return "mrap " + String.join(", ", paths) + " " + columns.simpleString();
  }

  @Override
  public Batch toBatch() {
    return this;
  }

  /**
   * The read planned by mrap-core, a partition a task.
   *
   * @throws IllegalArgumentException naming a setting or a file the planner refuses (a pattern
   *     past a file's end, a restructured file read with another pattern)
   */
  @Override
  public synchronized InputPartition[] planInputPartitions() {
    if (planned == null) {
      planned = plan();
    }
    return planned.clone();
  }

  private InputPartition[] plan() {
    try {
      List<FileStatus> files = InputFiles.list(conf, paths);
      List<? extends ReadTask> tasks = type == null ? new AccessPlanner(conf).plan(files)
          : new VariablePlanner(conf).tasks(files);
      InputPartition[] out = new InputPartition[tasks.size()];
      boolean decode = type != null && VariableSettings.decode(conf);
      boolean netcdf = type != null
          && VariableSettings.kind(conf) == ScienceFiles.Kind.NETCDF;
      for (int i = 0; i < out.length; i++) {
        if (type != null) {
          sameType((VariableTask) tasks.get(i), decode, netcdf);
        }
        out[i] = new MrapPartition(tasks.get(i));
      }
      return out;
    } catch (InvalidSettingsException e) {
      throw new IllegalArgumentException("mrap: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("mrap: " + e.getMessage(), e);
    }
  }

  /** @throws IllegalArgumentException naming a file whose variable is of another type */
  private void sameType(VariableTask task, boolean decode, boolean netcdf) {
    for (VariableTask.Part p : task.parts()) {
      for (VariableTask.Member m : p.members()) {
        ElementType t = m.variable().type();
        if (decode) {
          t = CfDecoding.of(m.variable(), netcdf).decoded();
        }
        if (t != type) {
          throw new IllegalArgumentException("mrap: " + m.file() + "'s " + m.variable().name()
              + " holds " + t + ", the first file's " + type + ": one column holds one type; "
              + "read them apart");
        }
      }
    }
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return new MrapReaders(conf, columns);
  }
}
