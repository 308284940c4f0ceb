package org.opass.mrap.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.mrap.fs.HdfsStore;
import org.opass.mrap.science.Fixtures;
import org.opass.mrap.settings.VariableSettings;
import org.opass.mrap.task.VariableTask;

/**
 * Inputs as a listing gives them to the planner, on the local file system: a Zarr store's folder
 * planned into tasks of its chunk files (placed in their objects, none lost), and a folder
 * listed beside NetCDF files left out of a NetCDF read, as it always was.
 */
class StoreInputsTest {
  private final Configuration conf = new Configuration();

  @TempDir
  Path dir;

  @Test
  void aStoreFolderIsPlannedIntoTasksOfItsChunkFiles() throws Exception {
    FileSystem fs = FileSystem.getLocal(conf);
    Path store = Fixtures.folder().resolve("zarr/v2/era5.zarr");
    conf.set(VariableSettings.KIND, "zarr");
    conf.set(VariableSettings.VARIABLE, "t2m");
    List<FileStatus> inputs = HdfsStore.stores(conf,
        new org.apache.hadoop.fs.Path(store.toUri()));
    assertEquals(1, inputs.size());
    List<VariableTask> tasks = new VariablePlanner(conf).tasks(inputs);
    long chunks = 0;
    for (VariableTask t : tasks) {
      for (VariableTask.Part p : t.parts()) {
        for (VariableTask.Member m : p.members()) {
          assertTrue(m.variable().chunks().placed(), m.variable().toString());
          chunks += m.variable().chunks().count();
        }
      }
    }
    long files;
    try (java.util.stream.Stream<Path> s = Files.list(store.resolve("t2m"))) {
      files = s.filter(p -> !p.getFileName().toString().startsWith(".")).count();
    }
    assertEquals(files, chunks, "every chunk file of t2m in one task");
    assertTrue(fs.exists(new org.apache.hadoop.fs.Path(store.toUri())));
  }

  @Test
  void aFolderBesideNetcdfFilesIsLeftOutOfTheirRead() throws Exception {
    FileSystem fs = FileSystem.getLocal(conf);
    Files.copy(Fixtures.folder().resolve("classic.nc"), dir.resolve("classic.nc"));
    Files.createDirectories(dir.resolve("sub"));
    conf.set(VariableSettings.KIND, "netcdf");
    conf.set(VariableSettings.VARIABLE, "temperature");
    List<FileStatus> listed = List.of(fs.listStatus(new org.apache.hadoop.fs.Path(
        dir.toUri())));
    assertEquals(2, listed.size());
    List<VariableTask> tasks = new VariablePlanner(conf).tasks(listed);
    assertTrue(!tasks.isEmpty());
    for (VariableTask t : tasks) {
      for (VariableTask.Part p : t.parts()) {
        assertTrue(p.path().getName().equals("classic.nc"), p.path().toString());
      }
    }
  }
}
