package org.opass.mrap.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.connector.read.SupportsPushDownV2Filters;
import org.apache.spark.sql.types.StructType;
import org.opass.mrap.array.Slab;
import org.opass.mrap.cf.CfDecoding;
import org.opass.mrap.cf.Selection;
import org.opass.mrap.format.Variable;
import org.opass.mrap.fs.InputFiles;
import org.opass.mrap.plan.FilePlan;
import org.opass.mrap.plan.VariablePlanner;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.settings.NothingSelectedException;
import org.opass.mrap.settings.VariableSettings;
import org.opass.mrap.task.VariableTask;

/**
 * A read of {@code mrap.science.layout=table} on the driver: the predicates on dimension
 * columns pushed as a selection by value ({@link GridFilters}), the columns asked for, and a
 * partition a task that mrap-core's {@link VariablePlanner} plans for the variables asked for
 * (the first, and the others read with it on its grid), each with the task's hosts as its
 * preferred locations; for coordinates alone, a partition a file and nothing read.
 */
final class TableScan implements ScanBuilder, SupportsPushDownRequiredColumns,
    SupportsPushDownV2Filters, Scan, Batch {
  private final Configuration conf;
  private final List<String> paths;
  private final TableColumns table;
  private final GridFilters filters;
  private StructType columns;
  private InputPartition[] planned; // Spark asks twice a query (its plan and AQE's copy)

  TableScan(Configuration conf, List<String> paths, TableColumns table) {
    this.conf = conf;
    this.paths = paths;
    this.table = table;
    this.filters = new GridFilters(table);
    this.columns = table.schema();
  }

  @Override
  public Predicate[] pushPredicates(Predicate[] predicates) {
    return filters.push(predicates);
  }

  @Override
  public Predicate[] pushedPredicates() {
    return filters.pushed();
  }

  @Override
  public void pruneColumns(StructType required) {
    columns = MrapScan.kept(table.schema(), required);
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
    Selection s = filters.none() ? null : selection(given());
    String selection = filters.none() ? "none (the filters keep no row)"
        : s == null ? null : s.toString();
    return "mrap table " + String.join(", ", paths) + " " + columns.simpleString()
        + " PushedFilters: " + Arrays.toString(filters.pushed()) + ", Selection: "
        + (selection == null ? "all" : selection);
  }

  @Override
  public Batch toBatch() {
    return this;
  }

  /** The variables read: those of the columns asked for, in the table's order. */
  private List<String> variablesRead() {
    List<String> names = Arrays.asList(columns.fieldNames());
    List<String> out = new ArrayList<>();
    for (String v : table.variables()) {
      if (names.contains(v)) {
        out.add(v);
      }
    }
    return out;
  }

  /** {@value VariableSettings#SELECT} as the user typed it, parsed; null where unset. */
  private Selection given() {
    try {
      return VariableSettings.selection(conf);
    } catch (InvalidSettingsException e) {
      throw new IllegalArgumentException("mrap: " + e.getMessage(), e);
    }
  }

  /**
   * The selection of the read, as a value: {@code given}, the user's {@value
   * VariableSettings#SELECT}, and the pushed filters'.
   *
   * @throws IllegalArgumentException naming the option and the filter where both constrain
   *     one dimension
   */
  private Selection selection(Selection given) {
    Selection pushed = filters.selection();
    String slab = conf.get(VariableSettings.SLAB);
    if (pushed == null) {
      return given;
    }
    if (slab != null) {
      Slab s;
      try {
        s = Slab.parse(slab, table.shape());
      } catch (IllegalArgumentException e) {
        return null; // the planner names it
      }
      for (String dim : filters.dimensions()) {
        int d = table.dimensionIndex(dim);
        if (s.extent(d) != table.shape()[d]) {
          throw new IllegalArgumentException("mrap: " + VariableSettings.SLAB + "=" + slab
              + " and the filter on " + dim + " (" + pushed + ") both select along " + dim
              + ": select by coordinates with filters alone, or by index with the slab "
              + "alone");
        }
      }
      return null; // the slab does not constrain them: Spark's filters serve
    }
    if (given == null) {
      return pushed;
    }
    List<String> mine = given.dimensions();
    for (String dim : filters.dimensions()) {
      if (mine.contains(dim)) {
        throw new IllegalArgumentException("mrap: " + VariableSettings.SELECT + "="
            + conf.get(VariableSettings.SELECT) + " and the filter on " + dim + " (" + pushed + ") both select along " + dim
            + ": give it once, as a filter or in the option");
      }
    }
    return given.and(pushed);
  }

  /**
   * The read planned by mrap-core: a partition a task, or, for coordinates alone, a partition
   * a file.
   *
   * @throws IllegalArgumentException naming a setting, filter or file the planner refuses
   */
  @Override
  public synchronized InputPartition[] planInputPartitions() {
    if (planned == null) {
      planned = plan();
    }
    return planned.clone();
  }

  private InputPartition[] plan() {
    if (filters.none()) {
      return new InputPartition[0];
    }
    List<String> variables = variablesRead();
    try {
      VariableSettings options = VariableSettings.of(conf); // the select option parsed once
      VariableSettings settings = options.selecting(selection(options.selection()));
      List<FileStatus> files = InputFiles.list(conf, paths);
      if (variables.isEmpty()) {
        List<InputPartition> out = new ArrayList<>();
        for (FilePlan fp : new VariablePlanner(conf, settings).selectedPlans(files)) {
          table.check(fp.name(), fp.coordinates());
          out.add(new GridPartition(fp.variable().shape(), fp.plan().slab(),
              fp.coordinates()));
        }
        return out.toArray(new InputPartition[0]);
      }
      VariableSettings read = settings.withVariable(variables.get(0))
          .readingWith(variables.subList(1, variables.size()));
      List<VariableTask> tasks = new VariablePlanner(conf, read).tasks(files);
      boolean netcdf = read.kind() == ScienceFiles.Kind.NETCDF;
      boolean decode = read.decode();
      InputPartition[] out = new InputPartition[tasks.size()];
      for (int i = 0; i < out.length; i++) {
        for (VariableTask.Part p : tasks.get(i).parts()) {
          for (VariableTask.Member m : p.members()) {
            table.check(m.file(), m.coordinates());
            sameType(m.file(), variables.get(0), m.variable(), decode, netcdf);
            for (int k = 0; k < m.readWith().size(); k++) {
              sameType(m.file(), variables.get(k + 1), m.readWith().get(k), decode, netcdf);
            }
          }
        }
        out[i] = new MrapPartition(tasks.get(i));
      }
      return out;
    } catch (NothingSelectedException e) {
      if (filters.selection() != null) {
        return new InputPartition[0]; // the query's filters keep no row of these files
      }
      throw new IllegalArgumentException("mrap: " + e.getMessage(), e);
    } catch (InvalidSettingsException e) {
      throw new IllegalArgumentException("mrap: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("mrap: " + e.getMessage(), e);
    }
  }

  /** @throws InvalidSettingsException naming a file whose variable's values are of another type */
  private void sameType(String file, String name, Variable v, boolean decode, boolean netcdf)
      throws InvalidSettingsException {
    Object t = decode ? CfDecoding.of(v, netcdf).decoded() : v.type();
    if (t != table.type(name)) {
      throw new InvalidSettingsException(file + "'s " + name + " holds " + t + " values, the "
          + "first file's " + table.type(name) + ": one column holds one type; read them apart");
    }
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return new TableReaders(conf, table, columns, variablesRead());
  }
}
