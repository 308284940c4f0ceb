package org.opass.mrap.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFormatException;
import org.opass.mrap.format.Variable;
import org.opass.mrap.science.Fixtures;
import org.opass.mrap.science.ScienceFiles;

/**
 * The filters of filters/make_filters.py (bitshuffle with and without LZ4, LZ4, LZF; chunks
 * under and over bitshuffle's block) on damaged chunks: each decodes, or is refused with a
 * {@link ScienceFormatException}, in memory bounded by the chunk, whatever its header says.
 * That they decode right is {@link SlabPlanTest}'s, against HDF5.
 */
class Hdf5FiltersTest {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  @Test
  void damagedChunksAreRefusedByNameWithBoundedMemory() throws IOException {
    Random rnd = new Random(Long.getLong("opass.fuzz.seed", 36));
    int datasets = 0;
    int refused = 0;
    int decoded = 0;
    try (FileChannel ch = FileChannel.open(Fixtures.folder().resolve("filters/filters.h5"))) {
      Positioned in = Positioned.of(ch);
      for (JsonNode c : Fixtures.filters().get("cases")) {
        if (!c.get("slab").isNull()) {
          continue;
        }
        datasets++;
        Variable v = ScienceFiles.variable(in, "filters.h5", ScienceFiles.Kind.HDF5,
            c.get("variable").asText());
        Variable.Chunks chunks = v.chunks();
        long chunkBytes = (long) v.type().size() * Arrays.stream(v.chunkShape())
            .asLongStream().reduce(1, Math::multiplyExact);
        for (int i = 0; i < Math.min(2, chunks.count()); i++) {
          byte[] stored = new byte[(int) chunks.size(i)];
          in.readFully(chunks.address(i), stored, 0, stored.length);
          assertEquals(chunkBytes, v.filters().decode(stored, chunks.mask(i), chunkBytes).length,
              v + ": chunk " + i);
          for (int k = 0; k < 40; k++) {
            String[] how = new String[1];
            byte[] damaged = Fixtures.damaged(stored, rnd, how);
            long thread = Thread.currentThread().getId();
            long before = THREADS.getThreadAllocatedBytes(thread);
            try {
              v.filters().decode(damaged, chunks.mask(i), chunkBytes);
              decoded++;
            } catch (ScienceFormatException e) {
              refused++;
            } catch (RuntimeException | OutOfMemoryError e) {
              fail(v + ", chunk " + i + " " + how[0] + ": " + e, e);
            }
            long allocated = THREADS.getThreadAllocatedBytes(thread) - before;
            assertTrue(allocated < 8 * chunkBytes + (1 << 20), v + ", chunk " + i + " "
                + how[0] + ": " + allocated + " bytes allocated for a chunk of " + chunkBytes);
          }
        }
      }
    }
    assertEquals(50, datasets, "five filters, five element types, two chunk sizes");
    System.out.println("Hdf5FiltersTest: " + decoded + " damaged chunks decoded, " + refused
        + " refused by name");
    assertTrue(refused > 0, "damage is found");
  }
}
