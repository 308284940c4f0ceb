package org.opass.mrap.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.Variable;
import org.opass.mrap.science.Fixtures;

/**
 * Every chunk index HDF5 writes (layouts/make_layouts.py: single chunk, implicit, fixed array
 * plain and paged, extensible array to its super blocks, version 1 and 2 B-trees, with and
 * without a user block, chunks never written among written ones) read chunk for chunk as HDF5
 * itself lists it (H5Dget_chunk_info): each stored chunk's origin, file offset, stored size and
 * filter mask, none missing, none extra. Layouts whose listing HDF5 1.10.8 gets wrong itself are
 * checked by their values only (SlabPlanTest).
 */
class Hdf5ChunkIndexTest {
  static Stream<Arguments> datasets() throws IOException {
    List<Arguments> out = new ArrayList<>();
    Iterator<Map.Entry<String, JsonNode>> it = Fixtures.layouts().get("chunks").fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      out.add(Arguments.of(e.getKey(), e.getValue()));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("datasets")
  void readsTheChunksHdf5Lists(String key, JsonNode expected) throws IOException {
    String file = key.substring(0, key.indexOf(':'));
    String name = key.substring(key.indexOf(':') + 1);
    Variable v;
    long userBlock;
    try (FileChannel ch = FileChannel.open(Fixtures.folder().resolve(file))) {
      v = Hdf5Header.variable(Positioned.of(ch), file, name);
      try (Hdf5File h = Hdf5File.open(Positioned.of(ch))) {
        userBlock = h.base();
      }
    }
    JsonNode chunks = expected.get("chunks");
    if (expected.get("index").asText().equals("contiguous")) {
      assertTrue(v.chunked() && v.chunks().count() == 0 || !v.chunked(), key);
      return;
    }
    if (chunks.isNull()) { // HDF5 1.10.8 lists these wrong (make_layouts.py): values only
      return;
    }
    Map<String, String> want = new TreeMap<>();
    for (JsonNode c : chunks) {
      // H5Dget_chunk_info counts addresses from the superblock, past any user block
      want.put(c.get(0).toString().replace(" ", ""), (c.get(1).asLong() + userBlock) + " "
          + c.get(2).asLong() + " " + c.get(3).asInt());
    }
    Map<String, String> got = new TreeMap<>();
    Variable.Chunks c = v.chunks();
    for (int i = 0; i < c.count(); i++) {
      StringBuilder o = new StringBuilder("[");
      for (long x : c.origin(i)) {
        o.append(o.length() == 1 ? "" : ",").append(x);
      }
      got.put(o.append(']').toString(), c.address(i) + " " + c.size(i) + " " + c.mask(i));
    }
    assertEquals(want, got, key + " (" + expected.get("index").asText() + ")");
  }
}
