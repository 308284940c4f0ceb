package org.opass.mrap.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.opass.mrap.array.Slab;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.science.Fixtures;
import org.opass.mrap.science.ScienceFiles;

/**
 * Every case of the fixtures, read as a task would (the plan's regions read from the local
 * file, cut into records, turned into pieces), equals what netCDF-C, HDF5 or scipy read.
 */
class SlabPlanTest {
  @TempDir
  static Path scratch;

  static Stream<Arguments> cases() throws IOException {
    return Fixtures.cases().stream().flatMap(c -> Stream.of(Arguments.of(c, 64L << 20),
        Arguments.of(c, 64L)));
  }

  @ParameterizedTest(name = "{0}, records of {1} bytes")
  @MethodSource("cases")
  void readsWhatTheReferenceLibraryReads(Fixtures.Case c, long recordBytes) throws IOException {
    try (FileChannel ch = FileChannel.open(Fixtures.file(c.file, scratch))) {
      Positioned in = Positioned.of(ch);
      Variable v = ScienceFiles.variable(in, c.file, c.kind(), c.variable);
      Slab slab = Slab.parse(c.slab, v.shape());
      assertArrayEquals(c.shape, slab.selectedShape(), "shape of " + c);
      // one read of the front (64 KiB) holds a NetCDF-3 header; HDF5's B-trees may lie beyond
      long headerReads = in.reads();
      boolean hdf5 = v.chunked() || c.file.endsWith(".h5") || c.file.endsWith("nc4.nc");
      long pages = Files.size(Fixtures.file(c.file, scratch)) / (64 << 10) + 1;
      assertTrue(headerReads <= (hdf5 ? Math.max(3, pages) : 1), c + ": the header took "
          + headerReads + " reads");
      long maxRegion = v.chunked() ? Long.MAX_VALUE : recordBytes;
      SlabPlan plan = SlabPlan.of(v, slab, maxRegion);
      Fixtures.Assembled out = new Fixtures.Assembled(slab, v.type());
      long[] fill = {0};
      RegionCursor r = plan.pattern() == null ? null : plan.pattern().cursor();
      while (r != null && r.next()) {
        // a record holds whole elements: the reader cuts a long region as the task would
        long cut = v.chunked() ? r.length() : Math.max(v.type().size(),
            recordBytes / v.type().size() * v.type().size());
        for (long at = 0; at < r.length(); at += cut) {
          int len = (int) Math.min(cut, r.length() - at);
          byte[] b = new byte[len];
          in.readFully(r.offset() + at, b, 0, len);
          fill[0] += plan.pieces(r.offset() + at, b, len,
              (origin, shape, step, bytes, off, n) ->
                  out.put(origin, shape, step, bytes, off, v.type(), v.order()));
        }
      }
      if (v.chunked()) {
        plan.unwritten().forEach(v.chunkShape(), origin -> // never written: the fill value
            fill[0] += SlabPlan.fillPieces(v, slab, origin, (o, shape, step, bytes, off, n) ->
                out.put(o, shape, step, bytes, off, v.type(), v.order())));
      }
      assertEquals(slab.elements(), out.filled(), c + ": elements filled");
      if (c.fill >= 0) {
        assertEquals(c.fill, fill[0], c + ": elements that are the fill value");
      }
      assertEquals(c.sum, out.sum(), Math.abs(c.sum) * 1e-12 + 1e-9, c + ": sum");
      assertEquals(c.sha256, out.sha256(), c + ": values");
      if (!v.chunked()) {
        assertEquals(plan.bytesOfInterest(), plan.pattern().totalBytes(), c + ": bytes read");
      }
    }
  }
}
