package org.opass.read.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HdfsChunksTest {
  @TempDir
  Path dir;

  private static org.apache.hadoop.fs.Path hp(Path p) {
    return new org.apache.hadoop.fs.Path(p.toString());
  }

  @Test
  void oneChunkPerBlockWithHostsOrNames() throws Exception {
    Files.write(dir.resolve("a"), new byte[123]);
    Files.write(dir.resolve("empty"), new byte[0]);
    FileSystem fs = FileSystem.getLocal(new Configuration());
    List<Chunk> hosts = HdfsChunks.of(fs, List.of(hp(dir.resolve("a")), hp(dir.resolve("empty"))));
    assertEquals(1, hosts.size());
    Chunk c = hosts.get(0);
    assertEquals(0, c.id());
    assertEquals(0, c.offset());
    assertEquals(123, c.length());
    assertEquals(List.of("localhost"), c.hosts());
    assertTrue(c.path().startsWith("file:") && c.path().endsWith("/a"), c.path());
    List<Chunk> names = HdfsChunks.of(fs, List.of(hp(dir.resolve("a"))),
        HdfsChunks.HostIdentity.NAMES);
    assertTrue(names.get(0).hosts().get(0).startsWith("localhost:"), names.toString());
  }

  @Test
  void directoriesExpandSortedWithoutHiddenFiles() throws Exception {
    Files.createDirectories(dir.resolve("d/b"));
    Files.write(dir.resolve("d/z"), new byte[1]);
    Files.write(dir.resolve("d/b/y"), new byte[2]);
    Files.write(dir.resolve("d/_SUCCESS"), new byte[3]);
    Files.write(dir.resolve("d/.z.crc"), new byte[4]);
    Files.write(dir.resolve("top"), new byte[5]);
    FileSystem fs = FileSystem.getLocal(new Configuration());
    List<Chunk> chunks = HdfsChunks.of(fs, List.of(hp(dir.resolve("d")), hp(dir.resolve("top"))));
    assertEquals(3, chunks.size());
    assertTrue(chunks.get(0).path().endsWith("/d/b/y"));
    assertTrue(chunks.get(1).path().endsWith("/d/z"));
    assertTrue(chunks.get(2).path().endsWith("/top"));
    assertEquals(2, chunks.get(2).id());
  }

  @Test
  void missingPathIsNamed() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    FileNotFoundException e = assertThrows(FileNotFoundException.class,
        () -> HdfsChunks.of(fs, List.of(hp(dir.resolve("nope")))));
    assertTrue(e.getMessage().contains("nope"), e.getMessage());
  }

  /** The local file system, counting the calls made on this instance. */
  static final class CountingFs extends RawLocalFileSystem {
    final AtomicInteger statusCalls = new AtomicInteger();

    @Override
    public FileStatus getFileStatus(org.apache.hadoop.fs.Path f) throws IOException {
      statusCalls.incrementAndGet();
      return super.getFileStatus(f);
    }
  }

  @Test
  void pathsQualifiedWithTheGivenFileSystemAreReadThroughIt() throws Exception {
    // a caller's own instance (FileSystem.newInstance, another user, other settings) is the one
    // asked, not the JVM's cached one for the same URI, which may belong to a cluster gone
    Files.write(dir.resolve("a"), new byte[7]);
    try (CountingFs fs = new CountingFs()) {
      fs.initialize(URI.create("file:///"), new Configuration());
      org.apache.hadoop.fs.Path qualified = fs.makeQualified(hp(dir.resolve("a")));
      assertEquals("file", qualified.toUri().getScheme());
      List<Chunk> chunks = HdfsChunks.of(fs, List.of(qualified));
      assertEquals(1, chunks.size());
      assertEquals(7, chunks.get(0).length());
      assertEquals(1, fs.statusCalls.get(), "the status came from the file system handed in");
    }
  }
}
