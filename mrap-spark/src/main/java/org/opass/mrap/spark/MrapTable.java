package org.opass.mrap.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.cf.CfDecoding;
import org.opass.mrap.format.Variable;
import org.opass.mrap.fs.InputFiles;
import org.opass.mrap.plan.VariablePlanner;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.settings.MrapConf;
import org.opass.mrap.settings.VariableSettings;

/**
 * The files of one read and what it reads in them: the session's Hadoop configuration with the
 * MRAP settings on it, the pattern checked here, on the driver, before anything runs; for a
 * variable, its element type from the first file's header (the other files must agree, checked
 * when the read is planned).
 */
final class MrapTable implements SupportsRead {
  private final ReadOptions options;
  private final Configuration conf;
  private final ElementType type; // a variable's, else null
  private final StructType schema;
  private final TableColumns table; // of mrap.science.layout=table, else null

  /** @throws IllegalArgumentException naming a setting at fault, or a file without the variable */
  MrapTable(ReadOptions options) {
    this.options = options;
    this.conf = new Configuration(SparkSession.active().sparkContext().hadoopConfiguration());
    options.applyTo(conf);
    try {
      if (options.table()) {
        table = TableColumns.of(conf, firstFile(), options.variables());
        type = null;
        schema = table.schema();
      } else if (options.variable()) {
        table = null;
        type = firstFilesType();
        schema = MrapSource.variableSchema(ElementColumns.of(type),
            VariableSettings.decode(conf) && !type.floating());
      } else {
        MrapConf.pattern(conf);
        table = null;
        type = null;
        schema = MrapSource.BYTES_SCHEMA;
      }
    } catch (InvalidSettingsException e) {
      throw new IllegalArgumentException("mrap: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("mrap: " + e.getMessage(), e);
    }
  }

  /** The variable's element type in the first file of the paths that holds bytes. */
  private ElementType firstFilesType() throws IOException {
    Variable v = VariablePlanner.plan(conf, List.of(firstFile())).get(0).variable();
    // the type of the values read: decoded, unless mrap.science.decode=false
    return VariableSettings.decode(conf) ? CfDecoding.of(v,
        VariableSettings.kind(conf) == ScienceFiles.Kind.NETCDF).decoded() : v.type();
  }

  /** The first file of the paths that holds bytes (for stores, the first store). */
  private FileStatus firstFile() throws IOException {
    for (FileStatus f : InputFiles.list(conf, options.paths())) {
      if (f.getLen() > 0 || f.isDirectory()) {
        return f;
      }
    }
    throw new InvalidSettingsException("no file of " + String.join(", ", options.paths())
        + " holds any bytes, so none holds " + conf.get(VariableSettings.VARIABLE));
  }

  /** The variable's element type, or null for a byte pattern. */
  ElementType type() {
    return type;
  }

  @Override
  public String name() {
    return "mrap " + String.join(", ", options.paths());
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.BATCH_READ);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap ignored) {
    if (table != null) {
      return new TableScan(conf, options.paths(), table);
    }
    return new MrapScan(conf, options.paths(), schema, type);
  }
}
