package org.opass.mrap.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataOutputBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.mrap.index.IndexBuilder;
import org.opass.mrap.science.Fixtures;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.settings.VariableSettings;
import org.opass.mrap.task.VariableTask;

/**
 * A read planned from a series index ({@value VariableSettings#INDEX}) is the read planned from
 * the files' headers, task for task and byte for byte, with no header read; a file changed or
 * added since the index was built is planned from its own header, counted, never from its stale
 * entry.
 */
class IndexedPlanTest {
  @TempDir
  java.nio.file.Path tmp;

  private final Configuration conf = new Configuration();

  private List<FileStatus> statuses(String... fixtures) throws IOException {
    FileSystem fs = FileSystem.getLocal(conf);
    List<FileStatus> out = new ArrayList<>();
    for (String f : fixtures) {
      java.nio.file.Path copy = tmp.resolve("data").resolve(f.replace('/', '_'));
      Files.createDirectories(copy.getParent());
      if (!Files.exists(copy)) {
        Files.copy(Fixtures.folder().resolve(f), copy);
      }
      out.add(fs.getFileStatus(new Path(copy.toUri())));
    }
    return out;
  }

  private Path index(List<FileStatus> files, String name, String... variables)
      throws IOException {
    Path index = new Path(tmp.resolve(name).toUri());
    IndexBuilder.build(conf, files, ScienceFiles.Kind.NETCDF, List.of(variables), "file://",
        index);
    return index;
  }

  private static List<byte[]> bytes(List<VariableTask> tasks) throws IOException {
    List<byte[]> out = new ArrayList<>();
    for (VariableTask t : tasks) {
      DataOutputBuffer b = new DataOutputBuffer();
      t.write(b);
      out.add(java.util.Arrays.copyOf(b.getData(), b.getLength()));
    }
    return out;
  }

  /** Plans with and without the index; returns the planner that used it. */
  private VariablePlanner same(List<FileStatus> files, Path index, String variable,
      String key, String value) throws IOException {
    Configuration c = new Configuration(conf);
    c.set(VariableSettings.KIND, "netcdf");
    c.set(VariableSettings.VARIABLE, variable);
    if (key != null) {
      c.set(key, value);
    }
    List<byte[]> fromHeaders = bytes(new VariablePlanner(c).tasks(files));
    c.set(VariableSettings.INDEX, index.toString());
    VariablePlanner indexed = new VariablePlanner(c);
    List<byte[]> fromIndex = bytes(indexed.tasks(files));
    assertEquals(fromHeaders.size(), fromIndex.size(), variable);
    for (int i = 0; i < fromHeaders.size(); i++) {
      assertArrayEquals(fromHeaders.get(i), fromIndex.get(i), variable + " task " + i);
    }
    return indexed;
  }

  @Test
  void aReadPlannedFromTheIndexIsTheReadPlannedFromHeaders() throws IOException {
    List<FileStatus> era = statuses("index/joins/era_0.nc", "index/joins/era_1.nc",
        "index/joins/era_2.nc");
    Path eraIndex = index(era, "era", "t2m");
    VariablePlanner p = same(era, eraIndex, "t2m", VariableSettings.SELECT,
        "time=2020-01-01T06:00:00:2020-01-01T20:00:00, latitude=30:45");
    assertEquals(3, p.filesFromIndex());
    assertEquals(0, p.indexFallbacks());
    assertEquals(1, p.skippedFiles(), "era_2, of 2020-01-02, skipped");
    same(era, eraIndex, "t2m", null, null);
    same(era, eraIndex, "t2m", VariableSettings.SLAB, "2:7, 1:4, 3:11");

    List<FileStatus> runs = statuses("series/run_00.nc", "series/run_01.nc",
        "series/run_02.nc", "series/run_03.nc");
    Path runIndex = index(runs, "runs", "temperature", "salinity");
    assertEquals(4, same(runs, runIndex, "temperature", VariableSettings.SLAB, ":, 2:5, 3:7")
        .filesFromIndex());
    same(runs, runIndex, "salinity", null, null);

    List<FileStatus> layouts = statuses("layouts/btree1.h5", "layouts/appended.nc",
        "classic.nc", "cdf5.nc");
    Path layoutIndex = index(layouts, "layouts", "btree1_unwritten", "b", "temperature",
        "elevation");
    assertEquals(1, same(layouts.subList(0, 1), layoutIndex, "btree1_unwritten", null, null)
        .filesFromIndex());
    same(layouts.subList(1, 2), layoutIndex, "b", null, null);
    same(layouts.subList(2, 4), layoutIndex, "temperature", VariableSettings.SLAB, "1, :, :");
    same(layouts.subList(2, 4), layoutIndex, "elevation", VariableSettings.TILE, "2, *");
  }

  @Test
  void aFileChangedOrAddedSinceIsPlannedFromItsOwnHeader() throws IOException {
    List<FileStatus> era = statuses("index/joins/era_0.nc", "index/joins/era_1.nc");
    Path index = index(era, "era", "t2m");
    // era_1 replaced by another file's bytes (as hdfs dfs -put -f does), and era_2 added
    java.nio.file.Path one = java.nio.file.Paths.get(era.get(1).getPath().toUri());
    Files.copy(Fixtures.folder().resolve("index/refuse/scale_1.nc"), one,
        StandardCopyOption.REPLACE_EXISTING);
    List<FileStatus> now = statuses("index/joins/era_0.nc", "index/joins/era_1.nc",
        "index/joins/era_2.nc");
    VariablePlanner p = same(now, index, "t2m", null, null);
    assertEquals(1, p.filesFromIndex());
    assertEquals(2, p.indexFallbacks());
    // a variable the index does not hold: every file from its header
    p = same(now.subList(0, 1), index, "time", null, null);
    assertEquals(0, p.filesFromIndex());
    assertTrue(p.indexFallbacks() == 1);
  }
}
