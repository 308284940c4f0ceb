package org.opass.mrap.plan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.opass.mrap.array.Slab;
import org.opass.mrap.format.UnwrittenChunks;
import org.opass.mrap.format.VariableTiles;
import org.opass.mrap.fs.FileBlocks;
import org.opass.mrap.fs.RestructuredFiles;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.settings.AccessSettings;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.settings.VariableSettings;
import org.opass.mrap.task.RegionTask;
import org.opass.mrap.task.VariableTask;

/** A variable read a task a tile ({@value VariableSettings#TILE}), over files. */
final class TileTasks {
  private TileTasks() {
  }

  /**
   * A task a tile of each file, on the hosts of the block it starts in: in place, packed by a
   * copy restructured for these tiles (one read), or through another layout when asked.
   */
  static List<VariableTask> tasks(List<List<FilePlan>> byFile, Configuration conf,
      VariableSettings settings) throws IOException {
    boolean stored = settings.access().readAsStored();
    List<String> readWith = settings.readWith();
    List<VariableTask> out = new ArrayList<>();
    for (List<FilePlan> one : byFile) {
      FilePlan fp = one.get(0);
      FileBlocks blocks = fp.blocks(conf);
      RestructuredLayout layout = fp.file().layout();
      if (!readWith.isEmpty()) {
        throw new InvalidSettingsException(VariableSettings.TILE + "=" + settings.tile()
            + ": tiles are read one variable at a time; read "
            + String.join(", ", readWith) + " apart");
      }
      if (layout != null && layout.members() != null) {
        throw new InvalidSettingsException(VariableSettings.TILE + "=" + settings.tile() + ": "
            + RestructuredFiles.containerRefusal(fp.status().getPath(), layout.members(),
            "tiles are read from files of their own"));
      }
      if (layout != null && !layout.packs(fp.tiles()) && stored) {
        throw new InvalidSettingsException(RestructuredFiles.otherRegionsRefusal(
            fp.status().getPath(), layout, fp.plan().variable().name() + " in the tiles "
            + fp.tiles(), AccessSettings.RESTRUCTURED));
      }
      if (fp.tiles().tileCount() > Integer.MAX_VALUE - 8) {
        throw new InvalidSettingsException(VariableSettings.TILE + "=" + settings.tile() + ": "
            + fp.tiles().tileCount() + " tiles in " + fp.status().getPath() + ", more tasks than "
            + "a job holds");
      }
      for (int t = 0; t < fp.tiles().tileCount(); t++) {
        AccessPattern tile = fp.tiles().tile(t);
        long key = fp.tiles().bytesBeforeTile(t);
        RegionTask regions;
        String[] hosts;
        if (layout != null && layout.packs(fp.tiles())) {
          hosts = blocks.rankedTask(layout, t);
          regions = RegionTask.packed(fp.file(), t, hosts);
        } else if (layout != null) {
          hosts = new String[0];
          regions = RegionTask.throughIndex(fp.file(), tile, key);
        } else {
          hosts = blocks.ranked(tile);
          regions = new RegionTask(fp.status().getPath(), fp.status().getLen(), tile, key,
              fp.status().getBlockSize(), hosts);
        }
        Slab slab = VariableTiles.slab(fp.tiles(), t);
        VariableTask.Member member = new VariableTask.Member(fp.name(), 0, fp.plan().variable(),
            slab, UnwrittenChunks.none(slab.rank()), fp.coordinates().window(slab.bounds()));
        out.add(new VariableTask(List.of(new VariableTask.Part(regions,
            fp.status().getModificationTime(), List.of(member))), hosts));
      }
    }
    return out;
  }
}
