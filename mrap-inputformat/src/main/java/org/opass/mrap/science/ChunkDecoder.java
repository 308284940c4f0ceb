package org.opass.mrap.science;

import io.jhdf.filter.BitShuffleFilter;
import io.jhdf.filter.ByteShuffleFilter;
import io.jhdf.filter.DeflatePipelineFilter;
import io.jhdf.filter.Filter;
import io.jhdf.filter.FletcherChecksumFilter;
import io.jhdf.filter.Lz4Filter;
import io.jhdf.filter.LzfFilter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Decodes a stored HDF5 chunk through its dataset's filter pipeline, last filter first, with
 * jHDF's filters, skipping those the chunk's filter mask says were not applied to it.
 */
public final class ChunkDecoder {
  private static final Map<Integer, Filter> FILTERS = new TreeMap<>();

  static {
    for (Filter f : Arrays.asList(new DeflatePipelineFilter(), new ByteShuffleFilter(),
        new FletcherChecksumFilter(), new LzfFilter(), new BitShuffleFilter(), new Lz4Filter())) {
      FILTERS.put(f.getId(), f);
    }
  }

  private ChunkDecoder() {
  }

  static boolean supports(int id) {
    return FILTERS.containsKey(id);
  }

  /** The filters read, by name and id. */
  static String supported() {
    StringBuilder b = new StringBuilder();
    for (Filter f : FILTERS.values()) {
      b.append(b.length() == 0 ? "" : ", ").append(f.getName()).append(" (").append(f.getId())
          .append(')');
    }
    return b.toString();
  }

  /**
   * The chunk's bytes as written before filtering.
   *
   * @param mask bit i set: filter i was skipped when this chunk was written
   */
  public static byte[] decode(byte[] stored, List<Variable.FilterSpec> filters, int mask) {
    byte[] data = stored;
    for (int i = filters.size() - 1; i >= 0; i--) {
      if ((mask & (1 << i)) != 0) {
        continue;
      }
      Variable.FilterSpec f = filters.get(i);
      Filter filter = FILTERS.get(f.id());
      if (filter == null) {
        throw new ScienceFormatException("the filter " + f + " is not read");
      }
      data = filter.decode(data, f.data());
    }
    return data;
  }
}
