package org.opass.mrap.spark;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.opass.mrap.mapreduce.MrapConf;

/**
 * The files of one read and their pattern: the session's Hadoop configuration with the MRAP
 * settings on it, the pattern checked here, on the driver, before anything runs.
 */
final class MrapTable implements SupportsRead {
  private final ReadOptions options;
  private final Configuration conf;

  /** @throws IllegalArgumentException naming a pattern setting at fault */
  MrapTable(ReadOptions options) {
    this.options = options;
    this.conf = new Configuration(SparkSession.active().sparkContext().hadoopConfiguration());
    options.applyTo(conf);
    try {
      MrapConf.pattern(conf);
    } catch (IOException e) {
      throw new IllegalArgumentException("mrap: " + e.getMessage(), e);
    }
  }

  @Override
  public String name() {
    return "mrap " + String.join(", ", options.paths());
  }

  @Override
  public StructType schema() {
    return MrapSource.BYTES_SCHEMA;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.BATCH_READ);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap ignored) {
    return new MrapScan(conf, options.paths());
  }
}
