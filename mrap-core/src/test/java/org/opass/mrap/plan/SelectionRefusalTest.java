package org.opass.mrap.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.opass.mrap.cf.Selection;
import org.opass.mrap.read.PieceReader;
import org.opass.mrap.read.ReadCounters;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.settings.VariableSettings;
import org.opass.mrap.task.VariableTask;

/**
 * Selections by value that cannot be served are refused before anything is read, naming the
 * key, the file and why: an unknown dimension (the variable's listed), a coordinate that is not
 * monotonic, a 2-D (curvilinear) coordinate, a date that does not parse or does not exist in
 * the file's calendar, an unknown calendar, a date on a coordinate that is not a time, a
 * selection beside a slab, a selection that picks nothing in any file, text that does not
 * parse.
 */
class SelectionRefusalTest {
  private static String refusal(String select, String variable, String... files)
      throws IOException {
    Configuration conf = new Configuration(false);
    conf.set(VariableSettings.KIND, "netcdf");
    conf.set(VariableSettings.VARIABLE, variable);
    conf.set(VariableSettings.SELECT, select);
    InvalidSettingsException e = assertThrows(InvalidSettingsException.class,
        () -> new VariablePlanner(conf).tasks(statuses(files)));
    assertTrue(e.getMessage().startsWith(VariableSettings.SELECT + "="), e.getMessage());
    return e.getMessage();
  }

  static List<FileStatus> statuses(String... files) throws IOException {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    List<FileStatus> out = new ArrayList<>();
    for (String f : files) {
      out.add(fs.getFileStatus(new org.apache.hadoop.fs.Path(CfOracleTest.folder().resolve(f)
          .toUri())));
    }
    return out;
  }

  private static void contains(String message, String... parts) {
    for (String p : parts) {
      assertTrue(message.contains(p), "'" + p + "' in: " + message);
    }
  }

  @Test
  void anUnknownDimensionListsTheVariables() throws IOException {
    contains(refusal("depth=0:10", "t2m", "era5.nc"), "era5.nc", "t2m has no dimension depth",
        "its dimensions: time, latitude, longitude");
  }

  @Test
  void aCoordinateThatIsNotMonotonic() throws IOException {
    contains(refusal("x=0:10", "sst", "bad_coords.nc"), "bad_coords.nc",
        "the coordinate x is not monotonic", "element 2 is 5.0 after 10.0");
  }

  @Test
  void aCurvilinearCoordinate() throws IOException {
    contains(refusal("lat2d=40:41", "sst", "bad_coords.nc"),
        "lat2d is a 2-D (curvilinear) coordinate [y, x]", VariableSettings.SLAB);
  }

  @Test
  void anUnknownCalendarWhereTheTimeIsSelected() throws IOException {
    contains(refusal("time=2000-01-01:2000-01-02", "sst", "bad_coords.nc"), "the coordinate time",
        "lunar");
  }

  @Test
  void anUnknownCalendarElsewhereIsReadAsNumbers() throws IOException {
    Configuration conf = new Configuration(false);
    conf.set(VariableSettings.KIND, "netcdf");
    conf.set(VariableSettings.VARIABLE, "sst");
    conf.set(VariableSettings.SELECT, "y=1000:2000");
    long elements = 0;
    for (VariableTask t : new VariablePlanner(conf).tasks(statuses("bad_coords.nc"))) {
      PieceReader r = new PieceReader(conf, t, ReadCounters.NONE);
      while (r.next()) {
        elements += r.value().elements();
        assertEquals(Double.class, r.value().coordinate(0, 0).getClass());
      }
    }
    assertEquals(3 * 2 * 5, elements);
  }

  @Test
  void datesThatDoNotParseOrDoNotExist() throws IOException {
    contains(refusal("time=2020-13-01:2020-14-01", "t2m", "era5.nc"), "era5.nc", "2020-13-01");
    contains(refusal("time=2015-02-29", "tas", "cmip_0.nc", "cmip_1.nc"), "2015-02-29",
        "noleap");
    contains(refusal("latitude=2020-01-01:2020-02-01", "t2m", "era5.nc"),
        "latitude is not a CF time");
  }

  @Test
  void aSelectionThatPicksNothingAnywhere() throws IOException {
    contains(refusal("time=1990-01-01:1990-12-31", "tas", "cmip_0.nc", "cmip_1.nc"),
        "selects nothing in any of the 2 files", "cmip_0.nc");
  }

  @Test
  void aSelectionBesideASlabOrTiles() {
    for (String other : new String[] {VariableSettings.SLAB, VariableSettings.TILE}) {
      Configuration conf = new Configuration(false);
      conf.set(VariableSettings.KIND, "netcdf");
      conf.set(VariableSettings.VARIABLE, "t2m");
      conf.set(VariableSettings.SELECT, "latitude=30:45");
      conf.set(other, "0:1, :, :");
      InvalidSettingsException e = assertThrows(InvalidSettingsException.class,
          () -> VariableSettings.check(conf));
      contains(e.getMessage(), VariableSettings.SELECT + " and " + other + " are both set");
    }
  }

  @Test
  void textThatDoesNotParse() {
    for (String[] bad : new String[][] {{"latitude", "is not dimension=lo:hi"},
        {"latitude=north", "'north' is neither a value"}, {"latitude=1:2:3", "neither"},
        {"latitude=1:2, latitude=3:4", "dimension latitude is selected twice"}, {" ",
        "an empty selection"}}) {
      Configuration conf = new Configuration(false);
      conf.set(VariableSettings.KIND, "netcdf");
      conf.set(VariableSettings.VARIABLE, "t2m");
      conf.set(VariableSettings.SELECT, bad[0]);
      InvalidSettingsException e = assertThrows(InvalidSettingsException.class,
          () -> VariableSettings.check(conf));
      contains(e.getMessage(), VariableSettings.SELECT, bad[1]);
    }
    conf("latitude=30:45, time=2020-06-01T12:00, longitude=350:10");
  }

  private static void conf(String text) {
    assertEquals(List.of("latitude", "time", "longitude"), Selection.parse(text).dimensions());
  }
}
