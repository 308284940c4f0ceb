package org.opass.mrap.examples;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.opass.mrap.mapreduce.AccessInputFormat;
import org.opass.mrap.settings.MrapConf;

/**
 * The MRAP example job: pulls the regions an access pattern names out of files in HDFS, in one
 * map-only phase, into SequenceFiles of (logical offset, region bytes). Where stock MapReduce
 * reads every byte and filters, this reads the regions only.
 *
 * <pre>
 * hadoop jar mrap-inputformat-*.jar extract \
 *     -conf pattern.xml INPUT... OUTPUT
 * </pre>
 * The pattern is the job's {@code strided.*} or {@code mrap.pattern.*} properties (see
 * {@code conf/mrap-pattern-*.xml}). Exit codes: 0 done, 1 the job failed, 2 usage or a bad
 * pattern (named).
 */
public class ExtractRegions extends Configured implements Tool {
  static final String NAME = "ExtractRegions";
  /** Its command line and what it does, after {@code hadoop jar mrap-inputformat-*.jar}. */
  static final String USAGE = "extract [generic options] INPUT... OUTPUT\n"
      + "  reads the regions the job's access pattern names (-conf pattern.xml, or -D "
      + "strided.region_size=... etc.)\n  into SequenceFiles of (logical offset, bytes) "
      + "under OUTPUT";

  @Override
  public int run(String[] args) throws Exception {
    Configuration conf = getConf();
    // a bad setting is a usage error, found before any job
    int rc = ExampleJobs.usage(args, -2, NAME, "name at least one input and the output", USAGE,
        () -> MrapConf.pattern(conf));
    if (rc >= 0) {
      return rc;
    }
    Job job = Job.getInstance(conf, NAME);
    job.setJarByClass(ExtractRegions.class);
    job.setInputFormatClass(AccessInputFormat.class);
    job.setMapperClass(Mapper.class); // identity: the records are the regions
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(LongWritable.class);
    job.setOutputValueClass(BytesWritable.class);
    job.setOutputFormatClass(SequenceFileOutputFormat.class);
    return ExampleJobs.runOverInto(job, args, NAME);
  }
}
