package org.opass.mrap.format.hdf5;

import io.jhdf.filter.ByteShuffleFilter;
import io.jhdf.filter.Filter;
import io.jhdf.filter.FletcherChecksumFilter;
import io.jhdf.filter.LzfFilter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.opass.mrap.format.ChunkFilters;
import org.opass.mrap.format.FilterSpec;
import org.opass.mrap.format.ScienceFormatException;

/**
 * An HDF5 dataset's filter pipeline (its Filter Pipeline message), decoding a stored chunk last
 * filter first,
 * skipping those the chunk's filter mask says were not applied to it: deflate, LZ4 and
 * bitshuffle here, bounded; shuffle, Fletcher-32 and LZF with jHDF's filters, after checking the
 * sizes their client data give. No stage may give more than the chunk's bytes (and a checksum's
 * or a header's), so a damaged chunk costs memory bounded by the chunk, never by a number read
 * from it.
 */
final class Hdf5Filters implements ChunkFilters {
  static final int DEFLATE = 1;
  private static final int LZF = 32000;
  private static final int LZ4 = 32004;
  private static final int BITSHUFFLE = 32008;
  /** Bytes a stage may give beyond the chunk: a Fletcher-32 checksum, a filter's header. */
  private static final int SLACK = 1024;
  /** The most bytes a Java array holds: a chunk of more is refused, whatever it says. */
  private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;
  private static final Map<Integer, Filter> FILTERS = new TreeMap<>();

  static {
    for (Filter f : Arrays.asList(new ByteShuffleFilter(), new FletcherChecksumFilter(),
        new LzfFilter())) {
      FILTERS.put(f.getId(), f);
    }
  }

  /** The filters decoded here, by id: their names as HDF5's registry gives them. */
  private static final Map<Integer, String> OWN = new TreeMap<>(Map.of(DEFLATE, "deflate",
      LZ4, "lz4", BITSHUFFLE, "bitshuffle"));

  private final List<FilterSpec> specs;

  /**
   * @throws ScienceFormatException naming the first filter of {@code specs} that is not read,
   *     and those that are
   */
  Hdf5Filters(List<FilterSpec> specs) {
    for (FilterSpec f : specs) {
      if (!supports(f.id())) {
        throw new ScienceFormatException("the filter " + f + " is not read; the filters read "
            + "are " + supported());
      }
    }
    this.specs = List.copyOf(specs);
  }

  @Override
  public String format() {
    return Hdf5Format.NAME;
  }

  @Override
  public List<FilterSpec> specs() {
    return specs;
  }

  @Override
  public String toString() {
    return specs.toString();
  }

  static boolean supports(int id) {
    return OWN.containsKey(id) || FILTERS.containsKey(id);
  }

  /** The filters read, by name and id. */
  static String supported() {
    Map<Integer, String> all = new TreeMap<>(OWN);
    FILTERS.forEach((id, f) -> all.put(id, f.getName()));
    StringBuilder b = new StringBuilder();
    all.forEach((id, name) -> b.append(b.length() == 0 ? "" : ", ").append(name).append(" (")
        .append(id).append(')'));
    return b.toString();
  }

  @Override
  public byte[] decode(byte[] stored, int mask, long chunkBytes) {
    List<FilterSpec> filters = specs;
    long bound = Math.min(chunkBytes + SLACK, MAX_ARRAY);
    byte[] data = stored;
    for (int i = filters.size() - 1; i >= 0; i--) {
      if ((mask & (1 << i)) != 0) {
        continue;
      }
      FilterSpec f = filters.get(i);
      try {
        if (f.id() == DEFLATE) {
          data = inflate(data, bound);
        } else if (f.id() == LZ4) {
          data = lz4(data, bound);
        } else if (f.id() == BITSHUFFLE) {
          data = Bitshuffle.decode(data, f.data(), bound);
        } else {
          Filter filter = FILTERS.get(f.id());
          if (filter == null) {
            throw new ScienceFormatException("the filter " + f + " is not read");
          }
          checkSizes(f, bound);
          data = filter.decode(data, f.data());
        }
      } catch (ScienceFormatException e) {
        throw e;
      } catch (RuntimeException e) { // the filters' own (jHDF's HdfFilterException and others)
        throw new ScienceFormatException("the filter " + f + " fails on " + data.length
            + " bytes: " + e, e);
      }
      if (data.length > bound) {
        throw new ScienceFormatException("the filter " + f + " gives " + data.length
            + " bytes, more than a chunk of " + chunkBytes);
      }
    }
    return data;
  }

  /** Checks the sizes a filter will allocate from its client data. */
  private static void checkSizes(FilterSpec f, long bound) {
    int[] d = f.data();
    if (f.id() == LZF && (d.length < 3 || d[2] < 0 || d[2] > bound)) {
      throw new ScienceFormatException("the filter " + f + " says its chunks hold "
          + (d.length < 3 ? "nothing" : d[2] + " bytes") + ", not a chunk's " + (bound - SLACK));
    }
  }

  /**
   * HDF5's LZ4 filter (HDF5_LZ4.pdf): the bytes decoded (8, big-endian) and the block size (4),
   * then the blocks, each of the block size but the last; a block LZ4 would not shrink is stored
   * as it is.
   */
  private static byte[] lz4(byte[] stored, long bound) {
    if (stored.length < 12) {
      throw new ScienceFormatException("a chunk of " + stored.length + " bytes is shorter than "
          + "the LZ4 filter's header");
    }
    long total = Lz4Blocks.bigEndian(stored, 0, 8);
    long block = Math.min(Lz4Blocks.bigEndian(stored, 8, 4), total);
    if (total < 0 || total > bound || (block < 1 && total > 0)) {
      throw new ScienceFormatException("the LZ4 filter's header says the chunk decodes to "
          + Long.toUnsignedString(total) + " bytes in blocks of " + block + ", not at most a "
          + "chunk's " + bound);
    }
    byte[] out = new byte[(int) total];
    Lz4Blocks blocks = new Lz4Blocks(stored, 12);
    for (long done = 0; done < total; done += block) {
      blocks.next(out, (int) done, (int) Math.min(block, total - done), true);
    }
    return out;
  }

  /** zlib's inflate, giving at most {@code bound} bytes. */
  static byte[] inflate(byte[] in, long bound) {
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(in);
      byte[] out = new byte[(int) Math.min(bound, Math.max(64, 4L * in.length))];
      int n = 0;
      while (!inflater.finished()) {
        if (n == out.length) {
          if (out.length >= bound) {
            throw new ScienceFormatException("the filter deflate (id 1) gives more than a "
                + "chunk's " + (bound - SLACK) + " bytes");
          }
          out = Arrays.copyOf(out, (int) Math.min(bound, 2L * out.length));
        }
        int r = inflater.inflate(out, n, out.length - n);
        if (r == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          throw new ScienceFormatException("the filter deflate (id 1) finds the chunk's "
              + "stream cut short after " + n + " bytes");
        }
        n += r;
      }
      return n == out.length ? out : Arrays.copyOf(out, n);
    } catch (DataFormatException e) {
      throw new ScienceFormatException("the filter deflate (id 1) finds a damaged stream: "
          + e.getMessage(), e);
    } finally {
      inflater.end();
    }
  }
}
