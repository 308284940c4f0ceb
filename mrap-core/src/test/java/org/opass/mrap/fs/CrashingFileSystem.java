package org.opass.mrap.fs;

import java.io.IOException;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.util.Progressable;

/**
 * HDFS as a client sees it that dies before its {@code n}-th change to the namespace (create,
 * mkdirs, delete, rename, concat): from then on every call fails, as for a killed process, and
 * what it left stays as it was. Every instance shares one countdown ({@link #arm}), so a copy
 * that opens several clients (and its tasks, on the LocalJobRunner) dies once.
 */
public class CrashingFileSystem extends DistributedFileSystem {
  private static final AtomicInteger LEFT = new AtomicInteger(Integer.MAX_VALUE);
  private static final AtomicBoolean CRASHED = new AtomicBoolean();
  /** Instead of failing, say so on stdout and wait to be killed (a process of its own). */
  private static volatile boolean pause;

  /** Dies before the {@code n}-th change from now on (1: the first). */
  public static void arm(int n) {
    CRASHED.set(false);
    LEFT.set(n);
  }

  /**
   * Before the {@code n}-th change, prints {@code PAUSED} and waits forever, for a test to kill
   * the process outright ({@code kill -9}): what it had open stays open.
   */
  public static void pauseAt(int n) {
    pause = true;
    arm(n);
  }

  /** Whether it died since {@link #arm}; disarms it. */
  public static boolean disarm() {
    LEFT.set(Integer.MAX_VALUE);
    return CRASHED.getAndSet(false);
  }

  /** Changes made since {@link #disarm}, while disarmed: how many a whole copy makes. */
  public static int changesSinceDisarmed() {
    return Integer.MAX_VALUE - LEFT.get();
  }

  /** A configuration whose hdfs:// clients are this class. */
  public static Configuration on(Configuration conf) {
    Configuration c = new Configuration(conf);
    c.setClass("fs.hdfs.impl", CrashingFileSystem.class, org.apache.hadoop.fs.FileSystem.class);
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    return c;
  }

  private static void alive() throws IOException {
    if (CRASHED.get()) {
      throw new IOException("the client died (simulated)");
    }
  }

  private static void change(String what) throws IOException {
    alive();
    if (LEFT.decrementAndGet() == 0) {
      if (pause) {
        System.out.println("PAUSED before " + what);
        System.out.flush();
        while (true) {
          try {
            Thread.sleep(60_000);
          } catch (InterruptedException e) {
            // still waiting to be killed
          }
        }
      }
      CRASHED.set(true);
      throw new IOException("the client died before " + what + " (simulated)");
    }
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite,
      int bufferSize, short replication, long blockSize, Progressable progress)
      throws IOException {
    change("create " + f);
    return super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, EnumSet<CreateFlag> flags,
      int bufferSize, short replication, long blockSize, Progressable progress,
      org.apache.hadoop.fs.Options.ChecksumOpt checksumOpt) throws IOException {
    change("create " + f);
    return super.create(f, permission, flags, bufferSize, replication, blockSize, progress,
        checksumOpt);
  }

  @Override
  public FSDataOutputStream createNonRecursive(Path f, FsPermission permission,
      EnumSet<CreateFlag> flag, int bufferSize, short replication, long blockSize,
      Progressable progress) throws IOException {
    change("create " + f);
    return super.createNonRecursive(f, permission, flag, bufferSize, replication, blockSize,
        progress);
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    change("mkdirs " + f);
    return super.mkdirs(f, permission);
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    change("delete " + f);
    return super.delete(f, recursive);
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    change("rename " + src + " to " + dst);
    return super.rename(src, dst);
  }

  @Override
  public void rename(Path src, Path dst, Options.Rename... options) throws IOException {
    change("rename " + src + " to " + dst);
    super.rename(src, dst, options);
  }

  @Override
  public void concat(Path trg, Path[] psrcs) throws IOException {
    change("concat into " + trg);
    super.concat(trg, psrcs);
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    alive();
    return super.open(f, bufferSize);
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    alive();
    return super.getFileStatus(f);
  }

  @Override
  public FileStatus[] listStatus(Path p) throws IOException {
    alive();
    return super.listStatus(p);
  }

  @Override
  public FileChecksum getFileChecksum(Path f) throws IOException {
    alive();
    return super.getFileChecksum(f);
  }
}
