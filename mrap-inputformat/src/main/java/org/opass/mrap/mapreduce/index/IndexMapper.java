package org.opass.mrap.mapreduce.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.opass.conf.StrictConf;
import org.opass.mrap.fs.InParallel;
import org.opass.mrap.index.FileEntry;
import org.opass.mrap.index.IndexBuilder;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.settings.VariableSettings;

/**
 * An index task: its files' headers read {@value IndexKeys#READERS_DEFAULT} at a time (a header
 * is a few small reads: the task waits on the DataNodes, not on its core), each file's entry
 * written as a line of the task's entries file.
 */
public final class IndexMapper extends Mapper<NullWritable, FileStatus, NullWritable, Text> {
  /** What index tasks count. */
  public enum Counter {
    FILES_INDEXED, VARIABLES_LEFT_OUT
  }

  @Override
  public void run(Context context) throws IOException, InterruptedException {
    Configuration conf = context.getConfiguration();
    List<FileStatus> files = new ArrayList<>();
    while (context.nextKeyValue()) {
      files.add(context.getCurrentValue());
    }
    ScienceFiles.Kind kind = VariableSettings.kind(conf);
    List<String> variables = IndexJob.variables(conf);
    String url = conf.get(IndexKeys.URL);
    List<FileEntry> entries = InParallel.map(files, StrictConf.atLeast(conf, IndexKeys.READERS,
        1, IndexKeys.READERS_DEFAULT), "index", f -> IndexBuilder.entry(conf, f, kind,
        variables));
    Text line = new Text();
    for (FileEntry e : entries) {
      line.set(e.line(url));
      context.write(NullWritable.get(), line);
      context.getCounter(Counter.FILES_INDEXED).increment(1);
      context.getCounter(Counter.VARIABLES_LEFT_OUT).increment(e.refused().size());
      context.progress();
    }
  }
}
