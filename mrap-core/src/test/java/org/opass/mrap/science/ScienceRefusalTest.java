package org.opass.mrap.science;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.mrap.array.Slab;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFormatException;
import org.opass.mrap.format.SlabPlan;
import org.opass.mrap.format.Variable;

/** What cannot be read is refused at once, naming the file, the variable and why. */
class ScienceRefusalTest {
  @TempDir
  Path scratch;

  private static Variable open(Path p, ScienceFiles.Kind kind, String name) throws IOException {
    try (FileChannel ch = FileChannel.open(p)) {
      return ScienceFiles.variable(Positioned.of(ch), p.getFileName().toString(), kind, name);
    }
  }

  private static String refusal(String file, ScienceFiles.Kind kind, String name) {
    return assertThrows(ScienceFormatException.class,
        () -> open(Fixtures.folder().resolve(file), kind, name)).getMessage();
  }

  /** A refusal of a plan: the variable opens, its slab cannot be served. */
  private static String refusal(String file, ScienceFiles.Kind kind, String name, String slab)
      throws IOException {
    Variable v = open(Fixtures.folder().resolve(file), kind, name);
    return assertThrows(ScienceFormatException.class,
        () -> SlabPlan.of(v, Slab.parse(slab, v.shape()), Long.MAX_VALUE)).getMessage();
  }

  private static void says(String message, String... parts) {
    for (String p : parts) {
      assertTrue(message.contains(p), "'" + message + "' should say '" + p + "'");
    }
  }

  @Test
  void unknownVariablesAreNamedWithWhatTheFileHas() {
    says(refusal("classic.nc", ScienceFiles.Kind.NETCDF, "temprature"), "classic.nc",
        "no variable temprature", "temperature", "pressure");
    says(refusal("snapshot.h5", ScienceFiles.Kind.HDF5, "/PartType0/Coordinates"), "snapshot.h5",
        "/PartType0/Coordinates", "/PartType1/Coordinates");
    says(refusal("snapshot.h5", ScienceFiles.Kind.HDF5, "/PartType1"), "is a group");
  }

  @Test
  void typesAndLayoutsNotReadAreRefused() {
    says(refusal("snapshot.h5", ScienceFiles.Kind.HDF5, "/compound"), "/compound", "compound");
    says(refusal("snapshot.h5", ScienceFiles.Kind.HDF5, "/names"), "/names", "variable-length");
    says(refusal("snapshot.h5", ScienceFiles.Kind.HDF5, "/scaled"), "/scaled", "scaleoffset",
        "deflate");
    says(refusal("nc4.nc", ScienceFiles.Kind.NETCDF, "lat"), "nc4.nc", "/lat",
        "a netCDF dimension", "not a variable");
    says(refusal("hdf5v2.h5", ScienceFiles.Kind.HDF5, "values"), "hdf5v2.h5",
        "data layout message version 5");
    says(refusal("classic.nc", ScienceFiles.Kind.HDF5, "temperature"), "classic.nc",
        "NetCDF-3", "kind netcdf");
    says(refusal("make_fixtures.py", ScienceFiles.Kind.NETCDF, "x"), "make_fixtures.py",
        "neither NetCDF-3");
  }

  /**
   * A virtual or external dataset, or an external link, is refused by name when asked for; its
   * siblings read (SlabPlanTest reads them against h5py), in compact, dense and old-style groups.
   */
  @Test
  void oneUnsupportedObjectRefusesOnlyItself() {
    for (String path : new String[] {"layouts/mixed.h5", "layouts/mixed_old.h5"}) {
      String f = path.substring("layouts/".length());
      says(refusal(path, ScienceFiles.Kind.HDF5, "/a/b/c/virtual"), f, "/a/b/c/virtual",
          "virtual dataset");
      says(refusal(path, ScienceFiles.Kind.HDF5, "/a/b/c/external"), f, "/a/b/c/external",
          "external files");
      says(refusal(path, ScienceFiles.Kind.HDF5, "/many/external"), f, "/many/external",
          "external files");
      says(refusal(path, ScienceFiles.Kind.HDF5, "/a/b/c/elink"), f, "elink",
          "external link to indexes.h5:/fixed");
      says(refusal(path, ScienceFiles.Kind.HDF5, "/a/b/c/nothing"), f, "no dataset /a/b/c/nothing",
          "/a/b/c/contig", "/many/d00");
    }
  }

  @Test
  void aFileCutShortIsRefused() throws IOException {
    byte[] whole = Files.readAllBytes(Fixtures.folder().resolve("classic.nc"));
    Path cut = scratch.resolve("cut.nc");
    Files.write(cut, java.util.Arrays.copyOf(whole, whole.length - 100));
    says(assertThrows(ScienceFormatException.class,
        () -> open(cut, ScienceFiles.Kind.NETCDF, "temperature")).getMessage(), "cut.nc",
        "cut short");
    Path header = scratch.resolve("header.nc");
    Files.write(header, java.util.Arrays.copyOf(whole, 40));
    says(assertThrows(ScienceFormatException.class,
        () -> open(header, ScienceFiles.Kind.NETCDF, "temperature")).getMessage(), "header.nc",
        "runs past the end");
  }

  @Test
  void badSlabsNameTheDimension() {
    long[] shape = {5, 6, 8};
    String m = assertThrows(IllegalArgumentException.class, () -> Slab.parse("0:5, 0:7", shape))
        .getMessage();
    says(m, "2 dimensions", "has 3");
    says(assertThrows(IllegalArgumentException.class,
        () -> Slab.parse("0:5, 0:6, 2:9", shape)).getMessage(), "dimension 2", "stop 9", "8");
    says(assertThrows(IllegalArgumentException.class,
        () -> Slab.parse("0:5, x, 1", shape)).getMessage(), "dimension 1", "'x'");
    says(assertThrows(IllegalArgumentException.class,
        () -> Slab.parse("3:1, :, :", shape)).getMessage(), "dimension 0", "selects nothing");
    says(assertThrows(IllegalArgumentException.class,
        () -> Slab.parse("-1, :, :", shape)).getMessage(), "dimension 0", "'-1'");
    says(assertThrows(IllegalArgumentException.class,
        () -> Slab.parse("0/2/3/3, :, :", shape)).getMessage(), "dimension 0", "overlap");
    says(assertThrows(IllegalArgumentException.class,
        () -> Slab.parse("1/2/3/1, :, :", shape)).getMessage(), "dimension 0", "index 5", "5");
    assertEquals("1/3/2/1, 0/1/6/1, 7/1/1/1", Slab.parse("1:5:3, :, 7", shape).toString());
    assertEquals(Slab.parse("1:5:3, :, 7", shape), Slab.parse("1/3/2/1, 0/1/6/1, 7/1/1/1", shape));
  }

  @Test
  void chunksNeverWrittenAreFillValuesAndSoIsADatasetNeverWritten() throws IOException {
    Variable v = open(Fixtures.folder().resolve("snapshot.h5"), ScienceFiles.Kind.HDF5,
        "/grid/mask");
    Variable.Chunks c = v.chunks();
    int[] keep = new int[c.count() - 1];
    for (int i = 0; i < keep.length; i++) {
      keep[i] = i + 1;
    }
    SlabPlan holed = SlabPlan.of(v.withChunks(c.subset(keep)), Slab.whole(v.shape()),
        Long.MAX_VALUE);
    assertEquals(1, holed.unwritten().chunks());
    java.util.List<long[]> origins = new java.util.ArrayList<>();
    holed.unwritten().forEach(v.chunkShape(), origins::add);
    assertEquals(java.util.Arrays.toString(c.origin(0)),
        java.util.Arrays.toString(origins.get(0)));
    Variable untouched = open(Fixtures.folder().resolve("snapshot.h5"), ScienceFiles.Kind.HDF5,
        "/grid/untouched");
    SlabPlan none = SlabPlan.of(untouched, Slab.whole(untouched.shape()), Long.MAX_VALUE);
    assertEquals(null, none.pattern(), "nothing stored, nothing to read");
    assertEquals(4, none.unwritten().chunks(), "8 x 8 in chunks of 4 x 4, none written");
  }

}
