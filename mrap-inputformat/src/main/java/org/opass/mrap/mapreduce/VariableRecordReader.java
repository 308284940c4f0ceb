package org.opass.mrap.mapreduce;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.opass.mrap.read.PieceReader;
import org.opass.mrap.science.ArrayIndex;
import org.opass.mrap.science.ArrayPiece;

/**
 * A {@link VariableSplit} as MapReduce records (key: file and array index, value: the piece),
 * read by mrap-core's {@link PieceReader}, counted in the task's counters.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public class VariableRecordReader extends TaskRecordReader<ArrayIndex, ArrayPiece, PieceReader> {
  @Override
  public void initialize(InputSplit split, TaskAttemptContext ctx) {
    reader = new PieceReader(ctx.getConfiguration(), ((VariableSplit) split).task(),
        new ContextCounters(ctx));
  }

  @Override
  public ArrayIndex getCurrentKey() {
    return reader.key();
  }

  @Override
  public ArrayPiece getCurrentValue() {
    return reader.value();
  }
}
