package org.opass.mrap.mapreduce.index;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.opass.mrap.index.EntriesFile;

/**
 * An index task's entries file: each entry's line a gzip member ({@link EntriesFile}), in the
 * task's work file, published by the job's committer as any {@code FileOutputFormat}'s.
 */
public final class EntriesOutputFormat extends FileOutputFormat<NullWritable, Text> {
  @Override
  public RecordWriter<NullWritable, Text> getRecordWriter(TaskAttemptContext job)
      throws IOException {
    Path file = getDefaultWorkFile(job, EntriesFile.SUFFIX);
    FSDataOutputStream out = file.getFileSystem(job.getConfiguration()).create(file, false);
    return new RecordWriter<NullWritable, Text>() {
      @Override
      public void write(NullWritable key, Text line) throws IOException {
        EntriesFile.write(out, line.toString());
      }

      @Override
      public void close(TaskAttemptContext context) throws IOException {
        out.close();
      }
    };
  }
}
