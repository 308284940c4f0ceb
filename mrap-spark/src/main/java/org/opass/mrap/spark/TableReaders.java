package org.opass.mrap.spark;

import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.types.UTF8String;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.array.Slab;
import org.opass.mrap.cf.Coordinates;
import org.opass.mrap.read.GridReader;
import org.opass.mrap.read.ReadCounters;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.task.VariableTask;

/**
 * Reads a table's partition on an executor, a row a grid point: a task's pieces of its first
 * variable through a {@link GridReader}, each with the same box of the other variables, as
 * column batches; or, for coordinates alone, a {@link GridPartition}'s points as rows, with
 * nothing read.
 */
final class TableReaders implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;
  private final byte[] conf;
  private final TableColumns table;
  private final int[] dimensionAt; // per column read: its dimension, or -1
  private final int[] variableAt; // per column read: its variable among those read, or -1
  private final DataType[] types; // per column read
  /** Most rows of a column batch. */
  static final int BATCH = 4096;

  /**
   * @param columns the columns read, in order
   * @param variables the variables read, in the order of the task's (first, then read with)
   */
  TableReaders(Configuration conf, TableColumns table, StructType columns,
      List<String> variables) {
    this.conf = MrapPartition.bytes(conf);
    this.table = table;
    String[] names = columns.fieldNames();
    this.dimensionAt = new int[names.length];
    this.variableAt = new int[names.length];
    this.types = new DataType[names.length];
    for (int i = 0; i < names.length; i++) {
      dimensionAt[i] = table.dimensionIndex(names[i]);
      variableAt[i] = variables.indexOf(names[i]);
      types[i] = columns.fields()[i].dataType();
    }
  }

  /** A task's pieces come as column batches (coordinates alone: rows). */
  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    return partition instanceof MrapPartition;
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    return new Batches((VariableTask) ((MrapPartition) partition).task(),
        MrapPartition.configuration(conf));
  }

  /** Coordinates alone, a row a grid point (a task's pieces come as batches). */
  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    GridPartition g = (GridPartition) partition;
    return new Points(g.slab(), g.coordinates());
  }

  /** A coordinate as its column holds it. */
  private Object coordinate(int d, Object c) {
    switch (table.kind(d)) {
      case INSTANT: {
        Instant t = (Instant) c;
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L),
            t.getNano() / 1000);
      }
      case DATE_TEXT:
        return UTF8String.fromString(c.toString());
      case NUMBER: {
        double v = (Double) c;
        return number(table.numberType(d), (long) v, v);
      }
      default:
        return c; // the index, a Long
    }
  }

  /** A value of {@code type} as {@link ElementColumns#of} holds it. */
  private static Object number(ElementType type, long l, double v) {
    switch (type) {
      case INT8:
        return (byte) l;
      case UINT8:
      case CHAR:
      case INT16:
        return (short) l;
      case UINT16:
      case INT32:
        return (int) l;
      case UINT32:
      case INT64:
        return l;
      case UINT64:
        return Decimal.apply(new BigDecimal(Long.toUnsignedString(l)), 20, 0);
      case FLOAT32:
        return (float) v;
      default:
        return v;
    }
  }

  /**
   * The rows of a task as column batches: each piece's elements, at most {@value #BATCH} rows
   * a batch, the coordinates of each dimension worked out once a piece.
   */
  private final class Batches implements PartitionReader<ColumnarBatch> {
    private final GridReader reader;
    private final OnHeapColumnVector[] vectors;
    private final ColumnarBatch batch;
    private final List<Object[]> along = new ArrayList<>(); // per dimension, along the piece
    private int[] inner = new int[0];
    private int from; // the piece's first element not yet given
    private int elements;

    Batches(VariableTask task, Configuration c) {
      this.reader = new GridReader(c, task, ReadCounters.NONE);
      this.vectors = new OnHeapColumnVector[dimensionAt.length];
      for (int i = 0; i < vectors.length; i++) {
        vectors[i] = new OnHeapColumnVector(BATCH, types[i]);
      }
      this.batch = new ColumnarBatch(vectors);
    }

    @Override
    public boolean next() throws IOException {
      while (from >= elements) {
        if (!reader.next()) {
          return false;
        }
        ArrayPiece p = reader.value();
        inner = innerSizes(p.shape());
        along.clear();
        for (int d = 0; d < inner.length; d++) {
          along.add(along(p, d, inner[d]));
        }
        elements = p.elements();
        from = 0;
      }
      int n = Math.min(BATCH, elements - from);
      ArrayPiece p = reader.value();
      for (int i = 0; i < vectors.length; i++) {
        OnHeapColumnVector v = vectors[i];
        v.reset();
        int d = dimensionAt[i];
        if (d >= 0) {
          Object[] a = along.get(d);
          for (int r = 0; r < n; r++) {
            put(v, r, a[(from + r) / inner[d] % a.length]);
          }
        } else if (variableAt[i] == 0) {
          for (int r = 0; r < n; r++) {
            int at = from + r;
            put(v, r, p.isMissing(at) ? null : number(p.type(), p.getLong(at), p.getDouble(at)));
          }
        } else {
          GridReader.BoxValues w = reader.with(variableAt[i] - 1);
          for (int r = 0; r < n; r++) {
            int at = from + r;
            put(v, r, w.isMissing(at) ? null : number(w.type(), w.getLong(at), w.getDouble(at)));
          }
        }
      }
      batch.setNumRows(n);
      from += n;
      return true;
    }

    @Override
    public ColumnarBatch get() {
      return batch;
    }

    @Override
    public void close() throws IOException {
      batch.close();
      reader.close();
    }
  }

  /** A value, as {@link #coordinate} or {@link #number} gives it, into row {@code r} of v. */
  private static void put(OnHeapColumnVector v, int r, Object x) {
    if (x == null) {
      v.putNull(r);
    } else if (x instanceof Double) {
      v.putDouble(r, (Double) x);
    } else if (x instanceof Float) {
      v.putFloat(r, (Float) x);
    } else if (x instanceof Long) {
      v.putLong(r, (Long) x);
    } else if (x instanceof Integer) {
      v.putInt(r, (Integer) x);
    } else if (x instanceof Short) {
      v.putShort(r, (Short) x);
    } else if (x instanceof Byte) {
      v.putByte(r, (Byte) x);
    } else if (x instanceof UTF8String) {
      v.putByteArray(r, ((UTF8String) x).getBytes());
    } else {
      v.putDecimal(r, (Decimal) x, 20);
    }
  }

  /** Elements per step along each dimension of a piece of {@code shape} (C order). */
  private static int[] innerSizes(int[] shape) {
    int[] inner = new int[shape.length];
    int step = 1;
    for (int d = shape.length - 1; d >= 0; d--) {
      inner[d] = step;
      step *= shape[d];
    }
    return inner;
  }

  /** The coordinates along dimension {@code d} of a piece, as its column holds them. */
  private Object[] along(ArrayPiece p, int d, int inner) {
    Object[] v = new Object[p.shape()[d]];
    for (int j = 0; j < v.length; j++) {
      v[j] = coordinate(d, p.coordinate(d, j * inner));
    }
    return v;
  }

  /** A slab's grid points in C order, from their coordinates alone. */
  private final class Points implements PartitionReader<InternalRow> {
    private final long[][] indices; // per dimension, those the slab selects
    private final Coordinates coordinates;
    private final int[] at;
    private boolean started;

    Points(Slab slab, Coordinates coordinates) {
      this.coordinates = coordinates;
      int r = slab.rank();
      indices = new long[r][];
      at = new int[r];
      for (int d = 0; d < r; d++) {
        indices[d] = indices(slab, d);
      }
    }

    @Override
    public boolean next() {
      if (!started) {
        started = true;
        return true;
      }
      for (int d = at.length - 1; d >= 0; d--) {
        if (++at[d] < indices[d].length) {
          return true;
        }
        at[d] = 0;
      }
      return false;
    }

    @Override
    public InternalRow get() {
      Object[] v = new Object[dimensionAt.length];
      for (int i = 0; i < v.length; i++) {
        int d = dimensionAt[i];
        v[i] = coordinate(d, coordinates.axis(d).at(indices[d][at[d]]));
      }
      return new GenericInternalRow(v);
    }

    @Override
    public void close() {
    }
  }

  /** The indices a slab selects along dimension {@code d}, ascending. */
  static long[] indices(Slab slab, int d) {
    long[] out = new long[(int) slab.extent(d)];
    int n = 0;
    int[] pick = new int[slab.rank()];
    for (int k = 0; k < slab.parts(d); k++) {
      pick[d] = k;
      Slab part = slab.part(pick);
      for (long c = 0; c < part.count(d); c++) {
        for (long b = 0; b < part.block(d); b++) {
          out[n++] = part.start(d) + c * part.stride(d) + b;
        }
      }
    }
    return out;
  }
}
