package org.opass.mrap.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.mrap.science.Fixtures;
import org.opass.mrap.science.ReferenceLibraries;
import org.opass.mrap.science.ScienceFiles;

/**
 * The index's kerchunk reference sets read by xarray (zarr engine, fsspec's {@code reference://}
 * over local files) against xarray's read of the originals through netCDF4-python: every layout
 * of the science fixtures a set can express, per file and joined along time, and the joins
 * refused with the files and reasons named. The oracle runs at test time (Debian's Python).
 */
class ReferenceSetsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Configuration conf = new Configuration();

  @TempDir
  java.nio.file.Path tmp;

  /** Fixture, the variables indexed. */
  private static final Map<String, List<String>> LAYOUTS = new LinkedHashMap<>();

  static {
    LAYOUTS.put("classic.nc", List.of("temperature", "pressure", "elevation"));
    LAYOUTS.put("offset64.nc", List.of("temperature", "pressure"));
    LAYOUTS.put("cdf5.nc", List.of("temperature", "counts", "flags", "elevation"));
    LAYOUTS.put("nc4.nc", List.of("temperature", "elevation"));
    LAYOUTS.put("scipy.nc", List.of("code"));
    LAYOUTS.put("cf/era5.nc", List.of("t2m", "tp"));
    LAYOUTS.put("cf/day360.nc", List.of("pr", "hurs"));
    LAYOUTS.put("cf/unsigned.nc", List.of("ub", "us"));
    LAYOUTS.put("cf/cmip_0.nc", List.of("time_bnds"));
    LAYOUTS.put("layouts/appended.nc", List.of("a", "b", "c", "never"));
    LAYOUTS.put("layouts/appended_nofill.nc", List.of("long", "short"));
    LAYOUTS.put("layouts/btree1.h5", List.of("btree1", "btree1_gzip", "btree1_unwritten"));
    LAYOUTS.put("layouts/indexes.h5", List.of("btree2_gzip", "earray", "earray_appended",
        "earray_first_gap_gzip"));
    LAYOUTS.put("layouts/random_v18.h5", List.of("btree1_0", "btree1_3"));
    LAYOUTS.put("series/run_02.nc", List.of("temperature", "salinity"));
  }

  private FileStatus status(String fixture) throws IOException {
    return FileSystem.getLocal(conf).getFileStatus(new Path(Fixtures.folder().resolve(fixture)
        .toUri()));
  }

  @Test
  void everyLayoutReadsAsXarrayReadsTheOriginal() throws IOException {
    List<Map<String, Object>> cases = new ArrayList<>();
    Map<String, String> refused = new TreeMap<>();
    for (Map.Entry<String, List<String>> e : LAYOUTS.entrySet()) {
      FileEntry entry = IndexBuilder.entry(conf, status(e.getKey()), ScienceFiles.Kind.NETCDF,
          e.getValue());
      List<String> kept = new ArrayList<>(e.getValue());
      for (Refusal r : entry.refused()) {
        refused.put(e.getKey() + ":" + r.variable(), r.reason());
        kept.remove(r.variable());
      }
      java.nio.file.Path refs = tmp.resolve(cases.size() + ".json");
      Files.writeString(refs, entry.line("file://"), StandardCharsets.UTF_8);
      // the line parses back into the entry it was written from
      assertEquals(entry.line("file://"), FileEntry.parse(entry.line("file://"))
          .line("file://"), e.getKey());
      cases.add(Map.of("name", e.getKey(), "refs", refs.toString(), "originals",
          List.of(Fixtures.folder().resolve(e.getKey()).toString()), "variables", kept));
    }
    assertEquals(Map.of(), refused, "variables left out");
    // a control the oracle must catch: one run's set against another run's file
    FileEntry other = IndexBuilder.entry(conf, status("series/run_00.nc"),
        ScienceFiles.Kind.NETCDF, List.of("temperature"));
    java.nio.file.Path refs = tmp.resolve("control.json");
    Files.writeString(refs, other.line("file://"), StandardCharsets.UTF_8);
    cases.add(Map.of("name", "control", "refs", refs.toString(), "originals",
        List.of(Fixtures.folder().resolve("series/run_03.nc").toString()), "variables",
        List.of("temperature")));
    Map<String, String> problems = problems(cases);
    assertEquals(List.of("control"), new ArrayList<>(problems.keySet()), problems.toString());
    assertTrue(problems.get("control").contains("values differ"), problems.toString());
  }

  @Test
  void aSeriesJoinsAlongTimeAsXarrayConcatenatesIt() throws IOException {
    List<Map<String, Object>> cases = new ArrayList<>();
    for (String[] series : new String[][] {{"era", "t2m"}, {"rec", "sst"}}) {
      List<FileStatus> files = new ArrayList<>();
      List<String> originals = new ArrayList<>();
      for (int i = 0; i < (series[0].equals("era") ? 3 : 2); i++) {
        String f = "index/joins/" + series[0] + "_" + i + ".nc";
        files.add(status(f));
        originals.add(Fixtures.folder().resolve(f).toString());
      }
      java.util.Collections.reverse(files); // joined in time order, whatever the order listed
      Path index = new Path(tmp.resolve(series[0]).toUri());
      IndexBuilder.Summary s = IndexBuilder.build(conf, files, ScienceFiles.Kind.NETCDF,
          List.of(series[1]), "file://", index);
      assertTrue(s.combined(), series[0] + ": " + s.refused());
      assertEquals(List.of(), s.refused());
      cases.add(Map.of("name", series[0], "refs", tmp.resolve(series[0]).resolve(
          SeriesIndex.COMBINED).toString(), "originals", originals, "variables",
          List.of(series[1]), "concat", "time"));
    }
    assertNoProblems(cases);
  }

  @Test
  void filesThatDoNotJoinAreNamedWithWhy() throws IOException {
    Map<String, String> expected = Map.of(
        "scale", "scale_1.nc: t2m: its scale_factor is 0.003 (float64), not 0.002 (float64)",
        "chunk", "chunk_1.nc: t2m: chunks of [3, 5, 6], not [6, 5, 6]",
        "mid", "mid_0.nc: t2m: it holds 5 records along time, not whole chunks of 2, and a "
            + "file follows it");
    for (Map.Entry<String, String> e : expected.entrySet()) {
      List<FileStatus> files = List.of(status("index/refuse/" + e.getKey() + "_0.nc"),
          status("index/refuse/" + e.getKey() + "_1.nc"));
      Path index = new Path(tmp.resolve(e.getKey()).toUri());
      IndexBuilder.Summary s = IndexBuilder.build(conf, files, ScienceFiles.Kind.NETCDF,
          List.of("t2m"), "file://", index);
      assertFalse(s.combined(), e.getKey());
      assertEquals(1, s.refused().size(), e.getKey() + ": " + s.refused());
      Refusal r = s.refused().get(0);
      String said = new Path(r.file()).getName() + ": " + r.variable() + ": " + r.reason();
      assertTrue(said.startsWith(e.getValue()), said);
      assertFalse(Files.exists(tmp.resolve(e.getKey()).resolve(SeriesIndex.COMBINED)));
      JsonNode report = JSON.readTree(tmp.resolve(e.getKey()).resolve(SeriesIndex.REPORT)
          .toFile());
      assertEquals(r.reason(), report.get("refused").get(0).get("reason").asText());
      assertEquals(r.file(), report.get("refused").get(0).get("file").asText());
    }
  }

  private void assertNoProblems(List<Map<String, Object>> cases) throws IOException {
    assertEquals(Map.of(), problems(cases));
  }

  /** By case, what the oracle found wrong. */
  private Map<String, String> problems(List<Map<String, Object>> cases) throws IOException {
    java.nio.file.Path list = tmp.resolve("cases.json");
    JSON.writeValue(list.toFile(), cases);
    String out = ReferenceLibraries.run(Fixtures.folder().resolve("index/check_refs.py"),
        list.toString());
    JsonNode results = JSON.readTree(out);
    assertEquals(cases.size(), results.size(), out);
    Map<String, String> problems = new TreeMap<>();
    for (JsonNode r : results) {
      if (r.get("problems").size() > 0) {
        problems.put(r.get("name").asText(), r.get("problems").toString());
      }
    }
    return problems;
  }
}
