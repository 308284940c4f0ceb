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
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;
import org.opass.mrap.plan.VariableTask;
import org.opass.mrap.read.GridReader;
import org.opass.mrap.read.ReadCounters;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.science.Coordinates;
import org.opass.mrap.science.ElementType;
import org.opass.mrap.science.Slab;

/**
 * Reads a table's partition on an executor, a row a grid point: a task's pieces of its first
 * variable through a {@link GridReader}, each with the same box of the other variables; or,
 * for coordinates alone, a {@link GridPartition}'s points, with nothing read.
 */
final class TableReaders implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;
  private final byte[] conf;
  private final TableColumns table;
  private final int[] dimensionAt; // per column read: its dimension, or -1
  private final int[] variableAt; // per column read: its variable among those read, or -1

  /**
   * @param columns the columns read, in order
   * @param variables the variables read, in the order of the task's (first, then read with)
   */
  TableReaders(Configuration conf, TableColumns table, String[] columns,
      List<String> variables) {
    this.conf = MrapPartition.bytes(conf);
    this.table = table;
    this.dimensionAt = new int[columns.length];
    this.variableAt = new int[columns.length];
    for (int i = 0; i < columns.length; i++) {
      dimensionAt[i] = table.dimensionIndex(columns[i]);
      variableAt[i] = variables.indexOf(columns[i]);
    }
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    if (partition instanceof GridPartition) {
      GridPartition g = (GridPartition) partition;
      return new Points(g.slab(), g.coordinates());
    }
    return new Rows((VariableTask) ((MrapPartition) partition).task(),
        MrapPartition.configuration(conf));
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

  /** The rows of a task: each piece's elements, a row each. */
  private final class Rows implements PartitionReader<InternalRow> {
    private final GridReader reader;
    private final List<Object[]> along = new ArrayList<>(); // per dimension, along the piece
    private int[] inner = new int[0]; // elements per step along each dimension
    private int at = -1;
    private int elements;

    Rows(VariableTask task, Configuration c) {
      this.reader = new GridReader(c, task, ReadCounters.NONE);
    }

    @Override
    public boolean next() throws IOException {
      while (++at >= elements) {
        if (!reader.next()) {
          return false;
        }
        ArrayPiece p = reader.value();
        int[] shape = p.shape();
        inner = new int[shape.length];
        along.clear();
        int step = 1;
        for (int d = shape.length - 1; d >= 0; d--) {
          inner[d] = step;
          step *= shape[d];
        }
        for (int d = 0; d < shape.length; d++) {
          Object[] v = new Object[shape[d]];
          for (int j = 0; j < v.length; j++) {
            v[j] = coordinate(d, p.coordinate(d, j * inner[d]));
          }
          along.add(v);
        }
        elements = p.elements();
        at = -1;
      }
      return true;
    }

    @Override
    public InternalRow get() {
      Object[] v = new Object[dimensionAt.length];
      ArrayPiece p = reader.value();
      for (int i = 0; i < v.length; i++) {
        int d = dimensionAt[i];
        if (d >= 0) {
          v[i] = along.get(d)[at / inner[d] % along.get(d).length];
          continue;
        }
        int k = variableAt[i];
        if (k == 0) {
          v[i] = p.isMissing(at) ? null : number(p.type(), p.getLong(at), p.getDouble(at));
        } else {
          GridReader.BoxValues w = reader.with(k - 1);
          v[i] = w.isMissing(at) ? null : number(w.type(), w.getLong(at), w.getDouble(at));
        }
      }
      return new GenericInternalRow(v);
    }

    @Override
    public void close() throws IOException {
      reader.close();
    }
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
