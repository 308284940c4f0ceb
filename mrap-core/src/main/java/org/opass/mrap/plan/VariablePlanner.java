package org.opass.mrap.plan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.opass.mrap.locality.SplitLocality;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.settings.AccessSettings;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.settings.NothingSelectedException;
import org.opass.mrap.settings.VariableSettings;
import org.opass.mrap.task.VariableTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A variable's slab (or tiles) over files, planned: each file's header read ({@link
 * FileHeaders}), a selection by value resolved over the series ({@link SeriesSelection}), and
 * the files' regions laid out as tasks ({@link TaskLayout}, {@link TileTasks}). What every
 * engine plans a read of scientific variables with: {@code VariableInputFormat}, {@code
 * mrap-copy} and the Spark source, each handing it the read's {@link VariableSettings}.
 */
public final class VariablePlanner {
  private static final Logger LOG = LoggerFactory.getLogger(VariablePlanner.class);

  private final Configuration conf;
  private final VariableSettings settings;
  private final SeriesSelection series;
  private FileHeaders headers; // the last read's

  /**
   * A planner of the read {@code conf}'s keys describe.
   *
   * @throws InvalidSettingsException naming the setting at fault, before any file is read
   */
  public VariablePlanner(Configuration conf) throws InvalidSettingsException {
    this(conf, VariableSettings.of(conf));
  }

  /**
   * A planner of the read {@code settings} describe (checked), its files read through {@code
   * conf}'s file systems.
   */
  public VariablePlanner(Configuration conf, VariableSettings settings) {
    this.conf = conf;
    this.settings = settings;
    this.series = new SeriesSelection(settings.selection());
  }

  /**
   * The plans of {@code files}: a plan a file, or a container's members' in order.
   *
   * @throws InvalidSettingsException naming the key, the file and why, for a variable or slab
   *     that a file cannot serve
   */
  public static List<FilePlan> plan(Configuration conf, List<FileStatus> files)
      throws IOException {
    List<FilePlan> all = new ArrayList<>();
    for (List<FilePlan> one : new VariablePlanner(conf).planByFile(files)) {
      all.addAll(one);
    }
    return all;
  }

  /**
   * The plans of each of {@code files}, in order: one, or a container's members'. With a
   * selection by value, a file (or member) it picks nothing in has a plan that {@link
   * FilePlan#selectsNothing selects nothing}.
   */
  public List<List<FilePlan>> planByFile(List<FileStatus> files) throws IOException {
    headers = new FileHeaders(conf, settings);
    return series.nearest(headers.read(files));
  }

  /** Files the last plan read from the series index ({@value VariableSettings#INDEX}). */
  public int filesFromIndex() {
    return headers == null ? 0 : headers.fromIndex();
  }

  /**
   * Files of the last plan whose own header was read though an index was given: missing from
   * it, changed since it was built, or holding the variable in a way it does not describe.
   */
  public int indexFallbacks() {
    return headers == null ? 0 : headers.fallbacks();
  }

  /**
   * The plans of the files (and members) of {@code files} that the selection by value picks
   * something in; all of them without one.
   *
   * @throws NothingSelectedException where the selection picks nothing in any file
   */
  public List<FilePlan> selectedPlans(List<FileStatus> files) throws IOException {
    List<FilePlan> out = new ArrayList<>();
    for (List<FilePlan> one : series.kept(planByFile(files))) {
      out.addAll(one);
    }
    return out;
  }

  /**
   * Files (and members of containers) the last {@link #tasks} skipped: a selection by value
   * picks nothing in them.
   */
  public int skippedFiles() {
    return series.skipped();
  }

  /**
   * The tasks of the read over {@code listed} (files of no bytes skipped): each file's regions
   * cut by block and the pieces of all files shared out over the hosts that hold them ({@link
   * SplitLocality#virtualSplits}), {@value AccessSettings#SPLIT_BYTES} bytes a task (default: at
   * most a block, and tasks enough for every host holding the data to have one); a task a tile
   * of a file with {@value VariableSettings#TILE}; a restructured file's packed tasks, each read
   * contiguously; a task of fill values for each file whose slab selects nothing stored.
   *
   * @throws InvalidSettingsException naming the key, the file and why, for a variable, slab or
   *     tile that a file cannot serve, or a file restructured for another slab
   */
  public List<VariableTask> tasks(List<FileStatus> listed) throws IOException {
    List<FileStatus> files = new ArrayList<>();
    for (FileStatus f : listed) {
      // a folder is a store of objects where the kind reads stores; else a subfolder listed
      // (whose length a local file system gives as its own)
      if (f.isDirectory() ? ScienceFiles.stores(settings.kind()) : f.getLen() > 0) {
        files.add(f);
      }
    }
    if (files.isEmpty()) {
      throw new InvalidSettingsException("no input file holds any bytes, so none holds "
          + settings.variable());
    }
    long t0 = System.nanoTime();
    List<List<FilePlan>> all = planByFile(files);
    long reads = 0;
    int headers = 0;
    for (List<FilePlan> one : all) {
      for (FilePlan p : one) {
        reads += p.headerReads();
        headers++;
      }
    }
    LOG.info("read {} headers in {} ms, {} positioned reads", headers,
        (System.nanoTime() - t0) / 1_000_000, reads);
    List<List<FilePlan>> byFile = series.kept(all);
    if (byFile.get(0).get(0).tiles() != null) {
      return TileTasks.tasks(byFile, conf, settings);
    }
    return new TaskLayout(conf, settings.access(), settings.readWith()).tasks(byFile);
  }
}
