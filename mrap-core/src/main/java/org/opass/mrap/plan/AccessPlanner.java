package org.opass.mrap.plan;

import static org.opass.mrap.settings.AccessSettings.CHUNKS;
import static org.opass.mrap.settings.AccessSettings.COALESCE_GAP;
import static org.opass.mrap.settings.AccessSettings.COALESCE_GAP_DEFAULT;
import static org.opass.mrap.settings.AccessSettings.KEYS;
import static org.opass.mrap.settings.AccessSettings.RESTRUCTURED;
import static org.opass.mrap.settings.AccessSettings.SPLIT_BYTES;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.opass.mrap.fs.FileBlocks;
import org.opass.mrap.fs.RestructuredFiles;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.locality.SplitLocality;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.pattern.TaskPartition;
import org.opass.mrap.settings.AccessSettings;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.settings.MrapConf;
import org.opass.mrap.task.RegionTask;

/**
 * An access pattern over files, planned into tasks (thesis §4.3.1): a tiled pattern gives a
 * task per tile; the other kinds are cut in file order, by default into a task per block of the
 * file (the regions starting in it), or, with {@value AccessSettings#SPLIT_BYTES}, into tasks of
 * about that many bytes of interest. Cutting looks the cuts up in the pattern; it never walks
 * its regions. With {@value AccessSettings#CHUNKS}{@code =independent} the regions are regrouped
 * into virtual splits, each local to its host; otherwise a task prefers the primary host of
 * Algorithm 4.3.2's weighted set cover. A restructured file gives its packed tasks (read
 * contiguously), or with {@value AccessSettings#RESTRUCTURED}{@code =index} tasks read through
 * its layout. What {@code AccessInputFormat} and the Spark source plan a byte pattern with.
 */
public final class AccessPlanner {
  /** Input files whose misfit a refusal lists one by one. */
  private static final int LISTED = 10;

  private final Configuration conf;
  private final PatternConfig pc;
  private final long splitBytes;
  private final boolean independent;
  private final boolean stored;

  /**
   * Checks the read's settings: the pattern ({@link MrapConf#pattern}) and every {@code
   * mrap.access.*} key.
   *
   * @throws InvalidSettingsException naming the key at fault
   */
  public AccessPlanner(Configuration conf) throws IOException {
    this.conf = conf;
    AccessSettings access = AccessSettings.of(conf); // every key checked now, not in a task
    this.pc = MrapConf.pattern(conf);
    this.splitBytes = access.splitBytes();
    this.independent = access.independentChunks();
    if (independent && pc.tiles() != null) {
      throw new InvalidSettingsException(CHUNKS + "=independent does not apply to tiles (a "
          + "tile is one task's unit): use together");
    }
    this.stored = access.readAsStored();
  }

  /**
   * The tasks of the pattern over {@code listed} (empty files skipped), file by file.
   *
   * @throws InvalidSettingsException naming the files the pattern does not fit, a container,
   *     or a file restructured for another pattern
   */
  public List<RegionTask> plan(List<FileStatus> listed) throws IOException {
    List<RestructuredFiles.Inspected> files = new ArrayList<>();
    List<String> misfits = new ArrayList<>();
    List<String> empty = new ArrayList<>();
    for (RestructuredFiles.Inspected f : RestructuredFiles.inspectAll(conf, listed)) {
      if (f.layout() != null && f.layout().members() != null) {
        throw new InvalidSettingsException(RestructuredFiles.containerRefusal(
            f.status().getPath(), f.layout().members(), "its records would not say which file "
            + "they came from (VariableInputFormat reads its members' variable in place)"));
      }
      if (f.logicalLength() == 0) {
        empty.add(f.status().getPath().toString());
      } else if (pc.end() > f.logicalLength()) {
        misfits.add(f.status().getPath() + " (" + f.logicalLength() + " bytes)");
      } else {
        files.add(f);
      }
    }
    if (!misfits.isEmpty()) {
      throw new InvalidSettingsException(pc.extentProperty() + ": " + pc.misfit(listOf(misfits)));
    }
    if (files.isEmpty() && !empty.isEmpty()) {
      throw new InvalidSettingsException("every input file is empty, so none holds the "
          + "pattern's regions: " + listOf(empty));
    }
    List<RegionTask> out = new ArrayList<>();
    for (RestructuredFiles.Inspected file : files) {
      if (file.layout() != null && stored) {
        if (!(pc.tiles() != null ? file.layout().packs(pc.tiles())
            : file.layout().packs(pc.pattern()))) {
          throw new InvalidSettingsException(RestructuredFiles.otherRegionsRefusal(
              file.status().getPath(), file.layout(), pc.toString(), RESTRUCTURED));
        }
        packed(file, out);
      } else if (file.layout() != null) {
        RestructuredLayout layout = file.layout();
        TaskPartition tasks = partition(pc, splitBytes, chunkStarts(layout));
        for (int t = 0; t < tasks.tasks(); t++) {
          out.add(RegionTask.throughIndex(file, tasks.task(t), tasks.logicalStart(t)));
        }
      } else {
        FileBlocks blocks = new FileBlocks(file.status(), conf);
        if (independent) {
          virtual(pc.pattern(), file.status(), blocks, splitBytes, out);
        } else {
          TaskPartition tasks = partition(pc, splitBytes, blocks.starts());
          for (int t = 0; t < tasks.tasks(); t++) {
            AccessPattern part = tasks.task(t);
            out.add(new RegionTask(file.status().getPath(), file.status().getLen(), part,
                tasks.logicalStart(t), file.status().getBlockSize(), blocks.ranked(part)));
          }
        }
      }
    }
    return out;
  }

  /**
   * The tasks of one file: a tile each, about {@code splitBytes} of interest each, or the
   * regions starting in each block.
   *
   * @throws InvalidSettingsException naming the key when that makes more tasks than a job holds
   */
  private static TaskPartition partition(PatternConfig pc, long splitBytes, long[] blockStarts)
      throws InvalidSettingsException {
    try {
      return pc.tiles() != null ? TaskPartition.ofTiles(pc.tiles())
          : splitBytes > 0 ? TaskPartition.byBytes(pc.pattern(), splitBytes)
          : TaskPartition.byBlocks(pc.pattern(), blockStarts);
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingsException((pc.tiles() != null ? PatternConfig.TILE_SHAPE
          : SPLIT_BYTES) + ": " + e.getMessage());
    }
  }

  private static String listOf(List<String> items) {
    String s = String.join(", ", items.subList(0, Math.min(LISTED, items.size())));
    return items.size() > LISTED ? s + " and " + (items.size() - LISTED) + " more" : s;
  }

  /** The chunk boundaries of a restructured file's original, to cut its logical view by. */
  private static long[] chunkStarts(RestructuredLayout layout) {
    long n = (layout.logicalLength() - 1) / layout.chunkSize() + 1;
    long[] starts = new long[(int) Math.min(n, Integer.MAX_VALUE - 8)];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = i * layout.chunkSize();
    }
    return starts;
  }

  /** One split per task of a restructured file, each reading its packed chunks. */
  private void packed(RestructuredFiles.Inspected file, List<RegionTask> out)
      throws IOException {
    RestructuredLayout layout = file.layout();
    FileBlocks blocks = new FileBlocks(file.status(), conf);
    for (int t = 0; t < layout.tasks().tasks(); t++) {
      out.add(RegionTask.packed(file, t, blocks.rankedTask(layout, t)));
    }
  }

  /**
   * Virtual splits: the regions grouped by the block their first byte is in (chunk), chunks
   * regrouped by a host that holds them ({@link SplitLocality#virtualSplits}); each group is a
   * split of that host's chunks, adjacent chunks joined into one part.
   */
  private static void virtual(AccessPattern p, FileStatus file, FileBlocks blocks, long perSplit,
      List<RegionTask> out) throws IOException {
    TaskPartition byBlock = TaskPartition.byBlocks(p, blocks.starts());
    List<SplitLocality.Piece> pieces = new ArrayList<>(byBlock.tasks());
    for (int k = 0; k < byBlock.tasks(); k++) {
      AccessPattern chunk = byBlock.task(k);
      pieces.add(new SplitLocality.Piece(chunk.totalBytes(),
          blocks.hosts(blocks.indexOf(chunk.offsetOf(0)))));
    }
    long target = perSplit > 0 ? perSplit : Math.max(1, file.getBlockSize());
    for (SplitLocality.Group g : SplitLocality.virtualSplits(pieces, target)) {
      List<AccessPattern> parts = new ArrayList<>();
      List<Long> starts = new ArrayList<>();
      int[] ks = g.chunks();
      for (int i = 0; i < ks.length; i++) {
        int first = ks[i];
        while (i + 1 < ks.length && ks[i + 1] == ks[i] + 1) {
          i++; // adjacent chunks: one part
        }
        long to = ks[i] + 1 < byBlock.tasks() ? byBlock.regionFrom(ks[i] + 1)
            : p.regionCount();
        parts.add(p.slice(byBlock.regionFrom(first), to));
        starts.add(byBlock.logicalStart(first));
      }
      long[] logicalStarts = new long[starts.size()];
      for (int k = 0; k < logicalStarts.length; k++) {
        logicalStarts[k] = starts.get(k);
      }
      out.add(new RegionTask(file.getPath(), file.getLen(), parts, logicalStarts,
          file.getBlockSize(), g.host() == null ? new String[0] : new String[] {g.host()}));
    }
  }
}
