package org.opass.mrap.plan;

import java.util.ArrayList;
import java.util.List;
import org.opass.mrap.cf.Selection;
import org.opass.mrap.settings.NothingSelectedException;
import org.opass.mrap.settings.VariableSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A selection by value over a series of files: a value picks the element nearest to it over the
 * whole series, not one a file (as xarray's {@code sel(..., method="nearest")} over the files
 * joined), and the files it picks nothing in are skipped, counted and logged once.
 */
final class SeriesSelection {
  private static final Logger LOG = LoggerFactory.getLogger(SeriesSelection.class);

  private final Selection select; // null: a read by index, which keeps every file
  private int skipped;

  SeriesSelection(Selection select) {
    this.select = select;
  }

  /**
   * The plans of each file, those a selection of one value picks nothing in once the whole
   * series is seen (its nearest element lies in another file) marked so.
   */
  List<List<FilePlan>> nearest(List<List<FilePlan>> byFile) {
    if (select == null) {
      return byFile;
    }
    List<Selection.Resolved> all = new ArrayList<>();
    for (List<FilePlan> one : byFile) {
      for (FilePlan fp : one) {
        all.add(fp.selected());
      }
    }
    boolean[] keep = Selection.nearestOf(all);
    List<List<FilePlan>> out = new ArrayList<>();
    int k = 0;
    for (List<FilePlan> one : byFile) {
      List<FilePlan> marked = new ArrayList<>();
      for (FilePlan fp : one) {
        marked.add(keep[k++] || fp.selectsNothing() ? fp : fp.selectingNothing());
      }
      out.add(marked);
    }
    return out;
  }

  /**
   * {@code byFile} without the files (and members) the selection picks nothing in.
   *
   * @throws NothingSelectedException naming the selection where it picks nothing in any file
   */
  List<List<FilePlan>> kept(List<List<FilePlan>> byFile) throws NothingSelectedException {
    if (select == null) {
      return byFile;
    }
    List<List<FilePlan>> out = new ArrayList<>();
    int members = 0;
    int none = 0;
    for (List<FilePlan> one : byFile) {
      List<FilePlan> kept = new ArrayList<>();
      for (FilePlan fp : one) {
        members++;
        if (fp.selectsNothing()) {
          none++;
        } else {
          kept.add(fp);
        }
      }
      if (!kept.isEmpty()) {
        out.add(kept);
      }
    }
    skipped = none;
    if (out.isEmpty()) {
      throw new NothingSelectedException(VariableSettings.SELECT + "=" + select + " selects "
          + "nothing in any of the " + members + " files (" + byFile.get(0).get(0).name()
          + "'s coordinates: " + byFile.get(0).get(0).coordinates() + ")");
    }
    if (none > 0) {
      LOG.info("{}={}: skipped {} of {} files, in which it selects nothing",
          VariableSettings.SELECT, select, none, members);
    }
    return out;
  }

  /** Files (and members of containers) the last {@link #kept} skipped. */
  int skipped() {
    return skipped;
  }
}
