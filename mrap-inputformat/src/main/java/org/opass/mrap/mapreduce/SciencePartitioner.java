package org.opass.mrap.mapreduce;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Partitioner;
import org.opass.mrap.science.ArrayIndex;
import org.opass.mrap.write.OutputDataset;

/**
 * Routes a {@link ScienceOutputFormat} record to the reducer that writes its part: the part of
 * the key's index along the first dimension, and each reducer a contiguous range of parts
 * (reducer {@code r} of {@code n} writes parts {@code ceil(r * parts / n)} up to, not
 * including, {@code ceil((r + 1) * parts / n)}), so that every part is written by one task and a
 * reducer's records, sorted by point, arrive a part after another.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class SciencePartitioner extends Partitioner<ArrayIndex, Writable>
    implements Configurable {
  private Configuration conf;
  private OutputDataset dataset;

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    this.dataset = ScienceOutputFormat.dataset(conf);
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  /**
   * @throws IllegalArgumentException naming the key if its rank is not the grid's or its index
   *     along the first dimension lies off the grid
   */
  @Override
  public int getPartition(ArrayIndex key, Writable value, int reducers) {
    return reducer(ScienceOutputFormat.partOf(dataset, key), dataset.parts(), reducers);
  }

  /** The reducer of {@code reducers} that writes part {@code part} of {@code parts}. */
  static int reducer(int part, int parts, int reducers) {
    return (int) ((long) part * reducers / parts);
  }

  /** The first part reducer {@code r} of {@code reducers} writes. */
  static int firstPart(int r, int parts, int reducers) {
    return (int) (((long) r * parts + reducers - 1) / reducers);
  }
}
