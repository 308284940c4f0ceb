package org.opass.mrap.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.BaseRelation;
import org.apache.spark.sql.sources.CreatableRelationProvider;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.opass.mrap.pattern.PatternConfig;

/**
 * {@code spark.read.format("mrap")}: the regions an MRAP access pattern names, one row a
 * record of {@code AccessInputFormat} (a region, or a piece of one longer than
 * {@code mrap.access.record.bytes}), with columns {@code file} (string), {@code offset} (long,
 * the logical offset: the bytes of the file's regions before this one) and {@code bytes}
 * (binary); or, with {@code mrap.pattern.kind=netcdf|hdf5}, a variable's slab, one row a
 * piece of {@code VariableInputFormat}: {@code file}, {@code origin} (the array index of its
 * first element), {@code shape} and {@code values} (its elements in C order, typed as the
 * variable is: {@link ElementColumns}). Options are the pattern's keys ({@code strided.*},
 * {@code mrap.pattern.*}, {@code mrap.science.*}) and {@code mrap.access.*};
 * {@code .load(paths)} names the files or folders. Partitions are the InputFormat's splits,
 * with their hosts as preferred locations. Selecting no {@code bytes} of a byte pattern reads
 * no data.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class MrapSource implements TableProvider, DataSourceRegister,
    CreatableRelationProvider {
  /** The format's name for {@code spark.read.format}. */
  public static final String NAME = "mrap";
  /** The columns of a byte pattern's rows. */
  static final StructType BYTES_SCHEMA = new StructType()
      .add("file", DataTypes.StringType, false)
      .add("offset", DataTypes.LongType, false)
      .add("bytes", DataTypes.BinaryType, false);
  /** Prefixes of the settings a read takes, beside {@code path} and {@code paths}. */
  static final List<String> PREFIXES;

  static {
    List<String> p = new ArrayList<>(List.of(PatternConfig.PREFIXES));
    p.add("mrap.access.");
    p.add("mrap.science.");
    PREFIXES = List.copyOf(p);
  }

  @Override
  public String shortName() {
    return NAME;
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    if (WriteOptions.isWrite(options)) {
      return new StructType(); // a write: Spark asks for the table before it falls back to v1
    }
    // an unknown option is named here, before anything runs
    return new MrapTable(ReadOptions.of(options.asCaseSensitiveMap())).schema();
  }

  /**
   * The columns of a variable's rows, its elements as {@code type}; {@code nulls}: a missing
   * element is null (decoded integers; a missing float is NaN).
   */
  static StructType variableSchema(DataType type, boolean nulls) {
    return new StructType()
        .add("file", DataTypes.StringType, false)
        .add("origin", DataTypes.createArrayType(DataTypes.LongType, false), false)
        .add("shape", DataTypes.createArrayType(DataTypes.IntegerType, false), false)
        .add("values", DataTypes.createArrayType(type, nulls), false);
  }

  @Override
  public Table getTable(StructType schema, Transform[] partitioning,
      Map<String, String> properties) {
    if (WriteOptions.isWrite(properties)) {
      return WRITE_ONLY;
    }
    return new MrapTable(ReadOptions.of(properties));
  }

  /**
   * {@code df.write.format("mrap").option("mrap.science.output", "netcdf|zarr")}: the
   * DataFrame, in the table layout's shape, written as a CF dataset ({@link DatasetWrite}).
   * Spark's v1 write path, as it alone gives a source Spark's save modes and the DataFrame.
   */
  @Override
  public BaseRelation createRelation(SQLContext sqlContext, SaveMode mode,
      scala.collection.immutable.Map<String, String> parameters, Dataset<Row> data) {
    Map<String, String> options = new java.util.LinkedHashMap<>();
    scala.collection.Iterator<scala.Tuple2<String, String>> all = parameters.iterator();
    while (all.hasNext()) {
      scala.Tuple2<String, String> kv = all.next();
      options.put(kv._1(), kv._2());
    }
    if (!WriteOptions.isWrite(options)) {
      throw new IllegalArgumentException("mrap: say what to write: .option(\""
          + WriteOptions.OUTPUT + "\", \"netcdf\") or \"zarr\"");
    }
    DatasetWrite.write(mode, options, data);
    StructType schema = data.schema();
    return new BaseRelation() {
      @Override
      public SQLContext sqlContext() {
        return sqlContext;
      }

      @Override
      public StructType schema() {
        return schema;
      }
    };
  }

  /**
   * What a write's options give Spark's v2 lookup: a table it cannot write, so that Spark
   * takes the v1 path ({@link #createRelation}), which keeps its save modes.
   */
  private static final Table WRITE_ONLY = new Table() {
    @Override
    public String name() {
      return "mrap write";
    }

    @Override
    public StructType schema() {
      return new StructType();
    }

    @Override
    public java.util.Set<TableCapability> capabilities() {
      return java.util.Collections.emptySet();
    }
  };

  /** Whether {@code key} (as given) is one of ours. */
  static boolean ours(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    if (k.equals("path") || k.equals("paths")) {
      return true;
    }
    for (String prefix : PREFIXES) {
      if (k.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }
}
