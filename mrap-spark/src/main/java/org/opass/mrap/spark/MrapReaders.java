package org.opass.mrap.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.read.PieceReader;
import org.opass.mrap.read.ReadCounters;
import org.opass.mrap.read.RegionReader;
import org.opass.mrap.read.TaskReader;
import org.opass.mrap.science.ArrayIndex;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.settings.AccessSettings;
import org.opass.mrap.task.RegionTask;
import org.opass.mrap.task.VariableTask;

/**
 * Reads a partition on an executor: its task through mrap-core's {@link RegionReader}
 * (positioned reads of the regions only, the file checked unchanged since the read was
 * planned), a row a record, or through its {@link PieceReader}, a row a piece of the slab.
 * Without the {@code bytes} column the rows of a byte pattern come from the task's pattern
 * alone, and no data is read.
 */
final class MrapReaders implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;
  private final byte[] conf; // the driver's Hadoop configuration, as Writable bytes
  private final String[] columns;

  MrapReaders(Configuration conf, StructType columns) {
    this.conf = MrapPartition.bytes(conf);
    this.columns = columns.fieldNames();
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    MrapPartition p = (MrapPartition) partition;
    Configuration c = MrapPartition.configuration(conf);
    try {
      if (p.variable()) {
        return new Pieces((VariableTask) p.task(), c);
      }
      RegionTask split = (RegionTask) p.task();
      return Arrays.asList(columns).contains("bytes") ? new Records(split, c)
          : new OffsetsOnly(split, AccessSettings.of(c).recordBytes(), columns);
    } catch (IOException e) {
      throw new UncheckedIOException("mrap: " + e.getMessage(), e);
    }
  }

  /** Rows from one of mrap-core's task readers (Spark keeps no MRAP counters). */
  private abstract static class TaskRows<R extends TaskReader>
      implements PartitionReader<InternalRow> {
    final R reader;

    TaskRows(R reader) {
      this.reader = reader;
    }

    @Override
    public boolean next() throws IOException {
      return reader.next();
    }

    @Override
    public void close() throws IOException {
      reader.close();
    }
  }

  /** The pieces of a variable's task, read and decoded. */
  private final class Pieces extends TaskRows<PieceReader> {
    Pieces(VariableTask task, Configuration c) {
      super(new PieceReader(c, task, ReadCounters.NONE));
    }

    @Override
    public InternalRow get() {
      ArrayIndex key = reader.key();
      ArrayPiece piece = reader.value();
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

  /** The records of a task, read. */
  private final class Records extends TaskRows<RegionReader> {
    private final UTF8String file;

    Records(RegionTask task, Configuration c) throws IOException {
      super(new RegionReader(c, task, ReadCounters.NONE));
      file = UTF8String.fromString(task.path().toString());
    }

    @Override
    public InternalRow get() {
      BytesWritable b = reader.value();
      return row(columns, file, reader.key(),
          Arrays.copyOf(b.getBytes(), b.getLength()));
    }
  }

  /**
   * The records' keys from the task's pattern, as the reader keys them (each part's regions
   * from its logical start, a region longer than a record as several), without a byte read.
   */
  private static final class OffsetsOnly implements PartitionReader<InternalRow> {
    private final RegionTask split;
    private final long maxRecord;
    private final String[] columns;
    private final UTF8String file;
    private int part = -1;
    private RegionCursor regions;
    private long logical; // of the current region's start
    private long inRegion; // bytes of the current region before the current record
    private long regionLength;

    OffsetsOnly(RegionTask split, long maxRecord, String[] columns) {
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
