package org.opass.mrap.examples;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.Tool;
import org.opass.mrap.mapreduce.SequenceMatchingInputFormat;
import org.opass.mrap.read.SideKey;

/**
 * The MRAP matching example: joins two text inputs on the key before the first tab, in one
 * map-only phase with {@link SequenceMatchingInputFormat}: each task reads its pieces of B
 * into memory (they come first), then streams its pieces of A and writes
 * {@code key<TAB>a-rest<TAB>b-rest} for every pair of lines with the same key. Stock MapReduce
 * does this with a reduce-side join (tag, shuffle, join): a shuffle of both inputs.
 *
 * <pre>
 * hadoop jar mrap-inputformat-*.jar join \
 *     [-D mrap.match.mode=one-to-all|all-pairs] [-D mrap.match.a.split.bytes=...] A B OUTPUT
 * </pre>
 * A and B are comma-separated files or folders. Exit codes: 0 done, 1 the job failed, 2 usage.
 */
public class JoinOnKey extends Configured implements Tool {
  static final String NAME = "JoinOnKey";
  /** Its command line and what it does, after {@code hadoop jar mrap-inputformat-*.jar}. */
  static final String USAGE = "join [generic options] A B OUTPUT\n"
      + "  joins the lines of A and B on the key before the "
      + "first tab, in one map-only phase (" + SequenceMatchingInputFormat.MODE
      + ": one-to-all, all-pairs, one-to-one)";

  /** Holds the task's B lines by key, then matches its A lines against them. */
  public static class JoinMapper extends Mapper<SideKey, Writable, Text, Text> {
    private final Map<String, List<String>> b = new HashMap<>();
    private final Text outKey = new Text();
    private final Text outValue = new Text();

    @Override
    protected void map(SideKey key, Writable value, Context context)
        throws IOException, InterruptedException {
      String line = value.toString();
      int tab = line.indexOf('\t');
      if (tab < 0) {
        return; // no key
      }
      String k = line.substring(0, tab);
      String rest = line.substring(tab + 1);
      if (!key.isA()) {
        b.computeIfAbsent(k, x -> new ArrayList<>()).add(rest);
        return;
      }
      List<String> matches = b.get(k);
      if (matches != null) {
        outKey.set(k);
        for (String m : matches) {
          outValue.set(rest + "\t" + m);
          context.write(outKey, outValue);
        }
      }
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    int rc = ExampleJobs.usage(args, 3, NAME, "give A, B and OUTPUT", USAGE);
    if (rc >= 0) {
      return rc;
    }
    Job job = Job.getInstance(getConf(), NAME);
    job.setJarByClass(JoinOnKey.class);
    job.getConfiguration().set(SequenceMatchingInputFormat.A_PATHS, args[0]);
    job.getConfiguration().set(SequenceMatchingInputFormat.B_PATHS, args[1]);
    job.setInputFormatClass(SequenceMatchingInputFormat.class);
    job.setMapperClass(JoinMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    return ExampleJobs.runInto(job, new Path(args[2]), NAME);
  }
}
