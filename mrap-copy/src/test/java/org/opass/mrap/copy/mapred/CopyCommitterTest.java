package org.opass.mrap.copy.mapred;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.mrap.copy.CopyException;
import org.opass.mrap.copy.CopyJobKeys;

/**
 * The copy job's committer on the local file system, as DistCp's {@code TestCopyCommitter}
 * tests DistCp's: a work folder laid out as a copy job's writers leave it, then
 * {@code commitJob} or {@code abortJob} as MapReduce calls them. One chunk a copy: the local
 * file system has no {@code concat} of checksummed files (HDFS's is tested end to end).
 */
class CopyCommitterTest {
  private static final JobID JOB = new JobID("copy", 1);

  @TempDir
  File tmp;

  private LocalFileSystem fs;
  private final CopyCommitter committer = new CopyCommitter();

  @BeforeEach
  void localFileSystem() throws IOException {
    fs = FileSystem.getLocal(new Configuration());
  }

  /** A copy to {@code tmp/name} whose writers are done, as its job's committer sees it. */
  private final class Copy {
    final byte[] data;
    final Path dst;
    final Path temp;
    final Path parts;
    final Configuration conf = new Configuration();
    final JobContext job;

    Copy(String name, int length, long seed) throws IOException {
      data = new byte[length];
      new Random(seed).nextBytes(data);
      Path dir = new Path(tmp.toURI());
      Path src = new Path(dir, name + ".src");
      write(src, data);
      dst = new Path(dir, name);
      Path work = new Path(dir, "." + name + ".mrap-copy");
      temp = new Path(work, "tag");
      parts = new Path(work, "tag.parts");
      fs.mkdirs(parts);
      conf.set(CopyJobKeys.SOURCE, src.toString());
      conf.setLong(CopyJobKeys.SOURCE_LENGTH, length);
      conf.setBoolean(CopyJobKeys.SOURCE_PLAIN, true);
      conf.set(CopyJobKeys.PARTS, parts.toString());
      conf.set(CopyJobKeys.TEMP, temp.toString());
      conf.set(CopyJobKeys.DESTINATION, dst.toString());
      conf.setBoolean(CopyJobKeys.OVERWRITE, false);
      conf.setBoolean(CopyJobKeys.VERIFY, true);
      conf.setLong(CopyJobKeys.CHUNK, 1 << 20);
      conf.setLong(CopyJobKeys.LENGTH, length);
      conf.setLong(CopyJobKeys.LOGICAL, length);
      job = new JobContextImpl(conf, JOB);
    }

    /** An attempt of its writer task. */
    TaskAttemptContext task(int attempt) {
      return new TaskAttemptContextImpl(conf, new TaskAttemptID(JOB.getJtIdentifier(),
          JOB.getId(), TaskType.MAP, 0, attempt));
    }

    /** The writer's files: its part (under the attempt's name, then published) and CRCs. */
    Copy written(int sentCrc) throws IOException {
      TaskAttemptID attempt = task(0).getTaskAttemptID();
      Path part = WorkFiles.part(parts, 0);
      Path mine = attemptFile(part, attempt);
      write(mine, data);
      assertTrue(fs.rename(mine, part));
      try (FSDataOutputStream out = fs.create(WorkFiles.crcs(parts, attempt.getTaskID()))) {
        out.writeInt(1); // chunks
        out.writeInt(0);
        out.writeInt(sentCrc);
        out.writeInt(crc(data)); // its part of the original's CRC: all of it
      }
      return this;
    }

    Copy written() throws IOException {
      return written(crc(data));
    }

    /** Why the committer could not publish, as it left it for the client; null if it did. */
    String failureNote() throws IOException {
      Path note = WorkFiles.failureNote(temp);
      if (!fs.exists(note)) {
        return null;
      }
      try (FSDataInputStream in = fs.open(note)) {
        return in.readUTF();
      }
    }
  }

  /** Where a writer's attempt writes a file before it publishes it. */
  private static Path attemptFile(Path published, TaskAttemptID attempt) {
    return new Path(published.getParent(), "_" + published.getName() + "." + attempt);
  }

  private void write(Path p, byte[] bytes) throws IOException {
    try (FSDataOutputStream out = fs.create(p, false)) {
      out.write(bytes);
    }
  }

  private byte[] read(Path p) throws IOException {
    return Files.readAllBytes(fs.pathToFile(p).toPath());
  }

  /** The file's identity on disk: the same after a rename, another after a copy. */
  private Object inode(Path p) throws IOException {
    Object key = Files.readAttributes(fs.pathToFile(p).toPath(), BasicFileAttributes.class)
        .fileKey();
    assertNotNull(key, "this file system names no file's identity");
    return key;
  }

  private static int crc(byte[] b) {
    CRC32C c = new CRC32C();
    c.update(b);
    return (int) c.getValue();
  }

  @Test
  void commitJobPublishesThePartsFileItselfUnderTheDestinationsName() throws IOException {
    Copy copy = new Copy("dst", 300_000, 1).written();
    TaskAttemptContext task = copy.task(0);
    committer.setupJob(copy.job);
    committer.setupTask(task);
    assertFalse(committer.needsTaskCommit(task), "the writers publish their own parts");
    Object part = inode(WorkFiles.part(copy.parts, 0));
    assertFalse(fs.exists(copy.dst));
    committer.commitJob(copy.job);
    assertArrayEquals(copy.data, read(copy.dst));
    assertEquals(part, inode(copy.dst), "renamed, not copied");
    assertFalse(fs.exists(copy.parts), "the parts folder is removed");
    assertFalse(fs.exists(copy.temp));
    assertEquals(null, copy.failureNote());
  }

  @Test
  void commitJobReplacesAnExistingDestinationOnlyWhenAskedTo() throws IOException {
    Copy copy = new Copy("taken", 5_000, 2).written();
    byte[] old = {1, 2, 3};
    write(copy.dst, old);
    CopyException e = assertThrows(CopyException.class, () -> committer.commitJob(copy.job));
    assertTrue(e.getMessage().contains("could not publish the copy as " + copy.dst),
        e.getMessage());
    assertArrayEquals(old, read(copy.dst), "the destination is left as it was");
    assertEquals(e.getMessage(), copy.failureNote(), "the client is told why");

    Copy again = new Copy("replaced", 7_000, 3).written();
    write(again.dst, old);
    again.conf.setBoolean(CopyJobKeys.OVERWRITE, true);
    Object part = inode(WorkFiles.part(again.parts, 0));
    committer.commitJob(new JobContextImpl(again.conf, JOB));
    assertArrayEquals(again.data, read(again.dst));
    assertEquals(part, inode(again.dst), "replaced in the same rename");
  }

  @Test
  void aPartThatDoesNotHoldTheBytesSentIsNotPublished() throws IOException {
    Copy copy = new Copy("damaged", 4_000, 4).written(crc(new byte[4_000]));
    CopyException e = assertThrows(CopyException.class, () -> committer.commitJob(copy.job));
    assertTrue(e.getMessage().contains("does not hold the bytes sent"), e.getMessage());
    assertFalse(fs.exists(copy.dst));
    assertEquals(e.getMessage(), copy.failureNote());
  }

  @Test
  void abortJobRemovesTheAttemptsFilesAndThePartsFolder() throws IOException {
    Copy copy = new Copy("given-up", 4_000, 5).written();
    // another attempt of the writer, part-way, and the joined parts of a commit that failed
    TaskAttemptID attempt = copy.task(1).getTaskAttemptID();
    write(attemptFile(WorkFiles.part(copy.parts, 0), attempt), copy.data);
    write(attemptFile(WorkFiles.crcs(copy.parts, attempt.getTaskID()), attempt), new byte[4]);
    write(copy.temp, copy.data);
    committer.abortJob(copy.job, JobStatus.State.FAILED);
    assertFalse(fs.exists(copy.parts), "the parts and the attempts' files are removed");
    assertFalse(fs.exists(copy.temp));
    assertFalse(fs.exists(copy.dst));
    assertEquals(List.of(), Arrays.asList(fs.pathToFile(copy.temp.getParent()).list()),
        "nothing is left in the work folder");
  }

  @Test
  void aSecondCommitIsRefusedNamingTheDestinationAndLeavesTheCopyAlone() throws IOException {
    Copy copy = new Copy("once", 9_000, 6).written();
    committer.commitJob(copy.job);
    Object published = inode(copy.dst);
    IOException e = assertThrows(IOException.class, () -> committer.commitJob(copy.job));
    assertTrue(e.getMessage().contains("nothing to publish as " + copy.dst)
        && e.getMessage().contains("committed or aborted already"), e.getMessage());
    assertArrayEquals(copy.data, read(copy.dst));
    assertEquals(published, inode(copy.dst));

    Copy aborted = new Copy("aborted", 9_000, 7).written();
    committer.abortJob(aborted.job, JobStatus.State.KILLED);
    e = assertThrows(IOException.class, () -> committer.commitJob(aborted.job));
    assertTrue(e.getMessage().contains("nothing to publish as " + aborted.dst), e.getMessage());
    assertFalse(fs.exists(aborted.dst));
  }
}
