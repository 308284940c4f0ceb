package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.tools.cluster.ChildJvm;
import org.opass.tools.mrap.MrapMemoryMain;

/**
 * A restructured file of small records within the heap a map task has by default (1 GiB
 * containers, {@code -Xmx820m}): 33,554,432 regions of 4 bytes, 128 MiB of interest in a
 * 256 MiB file, copied by one {@code mrap-copy} client and read by one task, through its packed
 * chunks and through its index, each in a JVM of 820 MiB.
 */
class MrapMemoryTest {
  private static final long REGIONS = 1L << 25;
  private static final String HEAP = "820m";

  @TempDir
  static File tmp;

  @Test
  void aTaskOver33MillionRegionsRunsInTheDefaultMapHeap() throws Exception {
    File src = new File(tmp, "src");
    CRC32C interest = new CRC32C();
    CRC32C whole = new CRC32C();
    MrapMemoryMain.writeRegions(src, REGIONS, interest, whole);
    String[] pattern = {"strided.region_size=4", "strided.region_spacing=4",
        "strided.region_count=" + REGIONS};
    File dst = new File(tmp, "dst");
    ChildJvm.Result copy = ChildJvm.run(HEAP, new File(tmp, "copy.log"), 600,
        MrapMemoryMain.class, "copy", "-D", "dfs.blocksize=128m", "-D", pattern[0], "-D",
        pattern[1], "-D", pattern[2], "-mode", "single", src.toURI().toString(),
        dst.toURI().toString());
    assertEquals(0, copy.exitCode, copy.output);

    ChildJvm.Result packed = ChildJvm.run(HEAP, new File(tmp, "packed.log"), 600,
        MrapMemoryMain.class, "read", dst.toURI().toString(), pattern[0], pattern[1],
        pattern[2]);
    assertEquals(0, packed.exitCode, packed.output);
    assertEquals(Long.toString(REGIONS), packed.value("records"), packed.output);
    assertEquals(Long.toString(interest.getValue()), packed.value("crc"), "the regions' bytes");

    // the whole original through the stored index, in 8-byte regions
    ChildJvm.Result index = ChildJvm.run(HEAP, new File(tmp, "index.log"), 600,
        MrapMemoryMain.class, "read", dst.toURI().toString(), "mrap.access.restructured=index",
        "strided.region_size=8", "strided.region_spacing=0", "strided.region_count=" + REGIONS);
    assertEquals(0, index.exitCode, index.output);
    assertEquals(Long.toString(whole.getValue()), index.value("crc"), "the original's bytes");
  }
}
