package org.opass.mrap.copy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.mrap.layout.Members;
import org.opass.mrap.layout.PackedLayout;
import org.opass.mrap.layout.PackedLayoutTest;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.ConcatenatedPattern;

/**
 * What a copy reads: files end to end (a pack's source, more files than the reader keeps open,
 * empty ones among them) read back in any order as their concatenation, and a container
 * written from them giving back each file as a member of its own.
 */
class SourceFileTest {
  @TempDir
  File tmp;

  @Test
  void filesEndToEndReadAsTheirConcatenationAndAContainerGivesThemBack() throws Exception {
    Random rnd = new Random(8);
    Configuration conf = PhysicalWriterTest.localConf();
    int n = 2 * SourceFile.OPEN_STREAMS + 5; // the reader closes and opens again
    List<SourceFile> files = new ArrayList<>();
    List<byte[]> bytes = new ArrayList<>();
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (int i = 0; i < n; i++) {
      byte[] b = new byte[i % 7 == 3 ? 0 : 1 + rnd.nextInt(20_000)];
      rnd.nextBytes(b);
      File f = new File(tmp, "part_" + i + ".bin");
      Files.write(f.toPath(), b);
      files.add(SourceFile.of(conf, new Path(f.toURI())));
      bytes.add(b);
      all.write(b);
    }
    byte[] whole = all.toByteArray();
    SourceFile joined = SourceFile.concatenation(files);
    assertEquals(whole.length, joined.length());
    try (SourceFile.Reader in = joined.open()) {
      for (int k = 0; k < 300; k++) {
        int from = rnd.nextInt(whole.length + 1);
        int to = from + rnd.nextInt(Math.min(60_000, whole.length - from) + 1);
        byte[] got = new byte[to - from];
        in.read(from, got, 0, got.length);
        assertArrayEquals(Arrays.copyOfRange(whole, from, to), got, "[" + from + ", " + to + ")");
      }
    }
    // a container of the files that have bytes: each a member of its own again
    List<SourceFile> packed = new ArrayList<>();
    List<String> names = new ArrayList<>();
    List<Long> lengths = new ArrayList<>();
    List<AccessPattern> patterns = new ArrayList<>();
    List<Long> starts = new ArrayList<>();
    long at = 0;
    for (int i = 0; i < n; i++) {
      if (bytes.get(i).length > 0) {
        packed.add(files.get(i));
        names.add(files.get(i).name());
        lengths.add((long) bytes.get(i).length);
        patterns.add(PackedLayoutTest.randomPattern(rnd, bytes.get(i).length));
        starts.add(at);
        at += bytes.get(i).length;
      }
    }
    PackedLayout layout = PackedLayout.container(ConcatenatedPattern.of(
        starts.stream().mapToLong(Long::longValue).toArray(),
        patterns.toArray(new AccessPattern[0])), Members.of(names,
        lengths.stream().mapToLong(Long::longValue).toArray()), 5000, 1);
    File container = new File(tmp, "all.pack");
    try (SourceFile.Reader in = SourceFile.concatenation(packed).open();
        java.io.OutputStream out = Files.newOutputStream(container.toPath())) {
      new PhysicalWriter(in, layout, layout.logicalLength()).write(0, layout.physicalLength(),
          out, x -> { });
    }
    SourceFile c = SourceFile.of(conf, new Path(container.toURI()));
    List<SourceFile> members = c.members();
    assertEquals(names.size(), members.size());
    for (int i = 0; i < members.size(); i++) {
      SourceFile m = members.get(i);
      assertEquals(names.get(i), m.name());
      byte[] back = new byte[(int) m.length()];
      try (SourceFile.Reader in = m.open()) {
        in.read(0, back, 0, back.length);
      }
      assertArrayEquals(Files.readAllBytes(new File(tmp, names.get(i)).toPath()), back,
          names.get(i));
      assertNull(m.members(), "a member is a file, not a container");
    }
    assertNull(files.get(0).members(), "a plain file holds no members");
  }
}
