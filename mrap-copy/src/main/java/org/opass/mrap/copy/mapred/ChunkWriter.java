package org.opass.mrap.copy.mapred;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Mapper;
import org.opass.mrap.copy.CopyJobKeys;
import org.opass.mrap.copy.PhysicalWriter;
import org.opass.mrap.copy.SourceFile;

/**
 * A copy job's writer task, as DistCp's {@code CopyMapper}: writes its chunks (key: chunk
 * number) as whole-block part files, each under its attempt's name and then published as the
 * chunk's part, then the CRCs of what it wrote: per chunk, of its bytes and of its part of
 * the original.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class ChunkWriter
    extends Mapper<IntWritable, NullWritable, NullWritable, NullWritable> {
  private SourceFile.Reader source;
  private PhysicalWriter writer;
  private FileSystem fs;
  private Path parts;
  private long chunk;
  private long length;
  private FsPermission permission;
  private short replication;
  private final ByteArrayOutputStream crcs = new ByteArrayOutputStream();
  private final DataOutputStream crcOut = new DataOutputStream(crcs);
  private int written;

  @Override
  protected void setup(Context ctx) throws IOException {
    Configuration conf = ctx.getConfiguration();
    SourceFile src = SourceFile.of(conf, new Path(conf.get(CopyJobKeys.SOURCE)));
    if (src.status().getLen() != conf.getLong(CopyJobKeys.SOURCE_LENGTH, -1)
        || (src.layout() == null) != conf.getBoolean(CopyJobKeys.SOURCE_PLAIN, true)) {
      throw new IOException(src.path() + " changed since the copy was planned");
    }
    parts = new Path(conf.get(CopyJobKeys.PARTS));
    fs = parts.getFileSystem(conf);
    chunk = conf.getLong(CopyJobKeys.CHUNK, -1);
    length = conf.getLong(CopyJobKeys.LENGTH, -1);
    permission = new FsPermission((short) conf.getInt(CopyJobKeys.PERMISSION, 0644));
    replication = (short) conf.getInt(CopyJobKeys.REPLICATION, 3);
    source = src.open();
    writer = new PhysicalWriter(source, WorkFiles.readLayout(fs, parts),
        conf.getLong(CopyJobKeys.LOGICAL, -1));
  }

  @Override
  protected void map(IntWritable index, NullWritable none, Context ctx) throws IOException {
    int c = index.get();
    long lo = c * chunk;
    long hi = Math.min(length, lo + chunk);
    Path data = attemptFile(WorkFiles.part(parts, c), ctx);
    PhysicalWriter.Sums sums;
    // not recursive: once the copy is given up and its parts folder removed, a writer still
    // running fails instead of making the folder again
    try (FSDataOutputStream out = fs.createNonRecursive(data, permission, true, 1 << 20,
        replication, chunk, null)) {
      sums = writer.write(lo, hi, out, n -> ctx.progress());
    }
    publish(fs, data, WorkFiles.part(parts, c));
    crcOut.writeInt(c);
    crcOut.writeInt(sums.written);
    crcOut.writeInt(sums.original);
    written++;
  }

  @Override
  protected void cleanup(Context ctx) throws IOException {
    try {
      Path task = WorkFiles.crcs(parts, ctx.getTaskAttemptID().getTaskID());
      Path attempt = attemptFile(task, ctx);
      try (FSDataOutputStream out = fs.createNonRecursive(attempt, permission, true, 4096,
          replication, chunk, null)) {
        out.writeInt(written);
        crcs.writeTo(out);
      }
      publish(fs, attempt, task);
    } finally {
      source.close();
    }
  }

  /** A name of this attempt's own (hidden from the listing of published files). */
  private static Path attemptFile(Path published, Context ctx) {
    return new Path(published.getParent(), "_" + published.getName() + "."
        + ctx.getTaskAttemptID());
  }

  private static void publish(FileSystem fs, Path from, Path to) throws IOException {
    fs.delete(to, false);
    if (!fs.rename(from, to)) {
      throw new IOException("could not rename " + from + " to " + to);
    }
  }
}
