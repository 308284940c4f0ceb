package org.opass.mrap.examples;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.util.Tool;
import org.opass.mrap.mapreduce.VariableInputFormat;
import org.opass.mrap.science.ArrayIndex;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.settings.VariableSettings;

/**
 * The scientific example job: per file and index of the first dimension (a time step, say),
 * the count, mean, minimum and maximum of a variable's slab, over a folder of NetCDF or HDF5
 * files. Only the slab's bytes are read (the chunks holding it, for a chunked variable).
 *
 * <pre>
 * hadoop jar mrap-inputformat-*.jar slab-stats -D mrap.pattern.kind=netcdf \
 *     -D mrap.science.variable=temperature -D mrap.science.slab=':,10:30,5:45' INPUT... OUTPUT
 * </pre>
 * Values are decoded as CF says (unless {@code -D mrap.science.decode=false}): the statistics
 * are of physical values, and missing elements (fill or missing values, or outside the valid
 * range) are skipped and counted. Output lines: {@code
 * file<TAB>index<TAB>count<TAB>mean<TAB>min<TAB>max<TAB>missing}. Exit codes: 0 done, 1 the job
 * failed, 2 usage, or a variable or slab an input file cannot serve (named).
 */
public class SlabStats extends Configured implements Tool {
  static final String NAME = "SlabStats";
  /** Its command line and what it does, after {@code hadoop jar mrap-inputformat-*.jar}. */
  static final String USAGE = "slab-stats [generic options] INPUT... OUTPUT\n"
      + "  per file and first index: count, mean, min and max of a variable's slab\n"
      + "  -D mrap.pattern.kind=netcdf|hdf5  -D mrap.science.variable=NAME  "
      + "[-D mrap.science.slab='0:10, :, 5:9' | -D mrap.science.select='time=2020-06-01:"
      + "2020-08-31, lat=30:45'] [-D mrap.science.decode=false]";

  /** Count, sum, min and max of some elements, and how many were missing. */
  public static final class Stats implements Writable {
    long count;
    long missing;
    double sum;
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;

    void add(double v) {
      count++;
      sum += v;
      min = Math.min(min, v);
      max = Math.max(max, v);
    }

    void add(Stats s) {
      count += s.count;
      missing += s.missing;
      sum += s.sum;
      min = Math.min(min, s.min);
      max = Math.max(max, s.max);
    }

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeLong(count);
      out.writeLong(missing);
      out.writeDouble(sum);
      out.writeDouble(min);
      out.writeDouble(max);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      count = in.readLong();
      missing = in.readLong();
      sum = in.readDouble();
      min = in.readDouble();
      max = in.readDouble();
    }
  }

  /** Sums each (file, first index) in memory; emits once per task. */
  public static class StatsMapper extends Mapper<ArrayIndex, ArrayPiece, Text, Stats> {
    private final Map<String, Stats> sums = new HashMap<>();

    @Override
    protected void map(ArrayIndex key, ArrayPiece piece, Context ctx) {
      int[] shape = piece.shape();
      int perStep = piece.elements() / shape[0];
      long step = piece.step()[0];
      for (int i = 0; i < shape[0]; i++) {
        Stats s = sums.computeIfAbsent(key.file() + "\t" + (key.origin(0) + i * step),
            k -> new Stats());
        for (int j = i * perStep; j < (i + 1) * perStep; j++) {
          if (piece.isMissing(j)) {
            s.missing++;
          } else {
            s.add(piece.getDouble(j));
          }
        }
      }
    }

    @Override
    protected void cleanup(Context ctx) throws IOException, InterruptedException {
      Text k = new Text();
      for (Map.Entry<String, Stats> e : sums.entrySet()) {
        k.set(e.getKey());
        ctx.write(k, e.getValue());
      }
    }
  }

  /** Joins the tasks' sums. */
  public static class StatsReducer extends Reducer<Text, Stats, Text, Text> {
    @Override
    protected void reduce(Text key, Iterable<Stats> values, Context ctx)
        throws IOException, InterruptedException {
      Stats all = new Stats();
      for (Stats s : values) {
        all.add(s);
      }
      ctx.write(key, new Text(all.count + "\t" + (all.sum / all.count) + "\t" + all.min + "\t"
          + all.max + "\t" + all.missing));
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Configuration conf = getConf();
    // a bad setting is a usage error, found before any job
    int rc = ExampleJobs.usage(args, -2, NAME, "name at least one input and the output", USAGE,
        () -> VariableSettings.check(conf));
    if (rc >= 0) {
      return rc;
    }
    Job job = Job.getInstance(conf, NAME);
    job.setJarByClass(SlabStats.class);
    job.setInputFormatClass(VariableInputFormat.class);
    job.setMapperClass(StatsMapper.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(Stats.class);
    job.setReducerClass(StatsReducer.class);
    job.setNumReduceTasks(1);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    return ExampleJobs.runOverInto(job, args, NAME);
  }
}
