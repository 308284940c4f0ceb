package org.opass.mrap.spark;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.opass.mrap.mapreduce.AccessRecordReader;
import org.opass.mrap.mapreduce.AccessSplit;
import org.opass.mrap.mapreduce.VariableRecordReader;
import org.opass.mrap.mapreduce.VariableSplit;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.plan.AccessSettings;
import org.opass.mrap.science.ArrayIndex;
import org.opass.mrap.science.ArrayPiece;

/**
 * Reads a partition on an executor: its split through {@link AccessRecordReader} (positioned
 * reads of the regions only, the file checked unchanged since the read was planned), a row a
 * record, or through {@link VariableRecordReader}, a row a piece of the slab. Without the
 * {@code bytes} column the rows of a byte pattern come from the split's pattern alone, and no
 * data is read.
 */
final class MrapReaders implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;
  private final byte[] conf; // the driver's Hadoop configuration, as Writable bytes
  private final String[] columns;

  MrapReaders(Configuration conf, StructType columns) {
    this.conf = MrapPartition.bytes(conf);
    this.columns = columns.fieldNames();
  }

  private Configuration conf() {
    Configuration c = new Configuration(false);
    try {
      c.readFields(new DataInputStream(new ByteArrayInputStream(conf)));
    } catch (IOException e) {
      throw new UncheckedIOException("a damaged mrap read configuration", e);
    }
    return c;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    MrapPartition p = (MrapPartition) partition;
    Configuration c = conf();
    try {
      if (p.variable()) {
        return new Pieces((VariableSplit) p.split(), c);
      }
      AccessSplit split = (AccessSplit) p.split();
      return Arrays.asList(columns).contains("bytes") ? new Records(split, c)
          : new OffsetsOnly(split, AccessSettings.recordBytes(c), columns);
    } catch (IOException e) {
      throw new UncheckedIOException("mrap: " + e.getMessage(), e);
    }
  }

  /** The pieces of a variable's split, read and decoded. */
  private final class Pieces implements PartitionReader<InternalRow> {
    private final VariableRecordReader reader = new VariableRecordReader();

    Pieces(VariableSplit split, Configuration c) {
      reader.initialize(split, new TaskAttemptContextImpl(c, new TaskAttemptID()));
    }

    @Override
    public boolean next() throws IOException {
      try {
        return reader.nextKeyValue();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    }

    @Override
    public InternalRow get() {
      ArrayIndex key = reader.getCurrentKey();
      ArrayPiece piece = reader.getCurrentValue();
      Object[] v = new Object[columns.length];
      for (int i = 0; i < columns.length; i++) {
        switch (columns[i]) {
          case "file":
            v[i] = UTF8String.fromString(key.file());
            break;
          case "origin":
            v[i] = UnsafeArrayData.fromPrimitiveArray(key.origin());
            break;
          case "shape":
            v[i] = UnsafeArrayData.fromPrimitiveArray(piece.shape());
            break;
          default:
            v[i] = ElementColumns.values(piece);
        }
      }
      return new GenericInternalRow(v);
    }

    @Override
    public void close() throws IOException {
      reader.close();
    }
  }

  /** A row of the asked columns. */
  private static InternalRow row(String[] columns, UTF8String file, long offset, byte[] bytes) {
    Object[] v = new Object[columns.length];
    for (int i = 0; i < columns.length; i++) {
      switch (columns[i]) {
        case "file":
          v[i] = file;
          break;
        case "offset":
          v[i] = offset;
          break;
        default:
          v[i] = bytes;
      }
    }
    return new GenericInternalRow(v);
  }

  /** The records of a split, read. */
  private final class Records implements PartitionReader<InternalRow> {
    private final AccessRecordReader reader = new AccessRecordReader();
    private final UTF8String file;

    Records(AccessSplit split, Configuration c) throws IOException {
      file = UTF8String.fromString(split.path().toString());
      // no reporter: counters are null, which the reader allows
      reader.initialize(split, new TaskAttemptContextImpl(c, new TaskAttemptID()));
    }

    @Override
    public boolean next() throws IOException {
      return reader.nextKeyValue();
    }

    @Override
    public InternalRow get() {
      BytesWritable b = reader.getCurrentValue();
      return row(columns, file, reader.getCurrentKey().get(),
          Arrays.copyOf(b.getBytes(), b.getLength()));
    }

    @Override
    public void close() throws IOException {
      reader.close();
    }
  }

  /**
   * The records' keys from the split's pattern, as the reader keys them (each part's regions
   * from its logical start, a region longer than a record as several), without a byte read.
   */
  private static final class OffsetsOnly implements PartitionReader<InternalRow> {
    private final AccessSplit split;
    private final long maxRecord;
    private final String[] columns;
    private final UTF8String file;
    private int part = -1;
    private RegionCursor regions;
    private long logical; // of the current region's start
    private long inRegion; // bytes of the current region before the current record
    private long regionLength;

    OffsetsOnly(AccessSplit split, long maxRecord, String[] columns) {
      this.split = split;
      this.maxRecord = maxRecord;
      this.columns = columns;
      this.file = UTF8String.fromString(split.path().toString());
    }

    @Override
    public boolean next() {
      inRegion += maxRecord;
      while (inRegion >= regionLength) {
        logical += regionLength;
        while (regions == null || !regions.next()) {
          if (++part == split.parts().size()) {
            return false;
          }
          AccessPattern p = split.parts().get(part);
          regions = p.cursor();
          logical = split.logicalStart(part);
          regionLength = 0;
        }
        regionLength = regions.length();
        inRegion = 0;
      }
      return true;
    }

    @Override
    public InternalRow get() {
      return row(columns, file, logical + inRegion, null);
    }

    @Override
    public void close() {
    }
  }
}
