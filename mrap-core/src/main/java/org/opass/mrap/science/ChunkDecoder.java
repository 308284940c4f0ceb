package org.opass.mrap.science;

import io.jhdf.filter.BitShuffleFilter;
import io.jhdf.filter.ByteShuffleFilter;
import io.jhdf.filter.Filter;
import io.jhdf.filter.FletcherChecksumFilter;
import io.jhdf.filter.Lz4Filter;
import io.jhdf.filter.LzfFilter;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decodes a stored HDF5 chunk through its dataset's filter pipeline, last filter first,
 * skipping those the chunk's filter mask says were not applied to it: deflate here, bounded;
 * the others with jHDF's filters, after checking the sizes their headers give. No stage may
 * give more than the chunk's bytes (and a checksum's or a header's), so a damaged chunk costs
 * memory bounded by the chunk, never by a number read from it.
 */
public final class ChunkDecoder {
  static final int DEFLATE = 1;
  private static final int LZF = 32000;
  private static final int LZ4 = 32004;
  private static final int BITSHUFFLE = 32008;
  /** Bytes a stage may give beyond the chunk: a Fletcher-32 checksum, a filter's header. */
  private static final int SLACK = 1024;
  private static final Map<Integer, Filter> FILTERS = new TreeMap<>();

  static {
    for (Filter f : Arrays.asList(new ByteShuffleFilter(), new FletcherChecksumFilter(),
        new LzfFilter(), new BitShuffleFilter(), new Lz4Filter())) {
      FILTERS.put(f.getId(), f);
    }
  }

  private ChunkDecoder() {
  }

  static boolean supports(int id) {
    return id == DEFLATE || FILTERS.containsKey(id);
  }

  /** The filters read, by name and id. */
  static String supported() {
    StringBuilder b = new StringBuilder("deflate (1)");
    for (Filter f : FILTERS.values()) {
      b.append(", ").append(f.getName()).append(" (").append(f.getId()).append(')');
    }
    return b.toString();
  }

  /**
   * The chunk's bytes as written before filtering.
   *
   * @param mask bit i set: filter i was skipped when this chunk was written
   * @param chunkBytes the chunk's bytes unfiltered
   * @throws ScienceFormatException naming the filter, where the chunk does not decode or would
   *     decode to more than a chunk
   */
  public static byte[] decode(byte[] stored, List<Variable.FilterSpec> filters, int mask,
      long chunkBytes) {
    long bound = chunkBytes + SLACK;
    byte[] data = stored;
    for (int i = filters.size() - 1; i >= 0; i--) {
      if ((mask & (1 << i)) != 0) {
        continue;
      }
      Variable.FilterSpec f = filters.get(i);
      try {
        if (f.id() == DEFLATE) {
          data = inflate(data, bound);
        } else {
          Filter filter = FILTERS.get(f.id());
          if (filter == null) {
            throw new ScienceFormatException("the filter " + f + " is not read");
          }
          checkSizes(f, data, bound);
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

  /** Checks the sizes a filter will allocate from its client data or its header. */
  private static void checkSizes(Variable.FilterSpec f, byte[] data, long bound) {
    int[] d = f.data();
    if (f.id() == LZF && (d.length < 3 || d[2] < 0 || d[2] > bound)) {
      throw new ScienceFormatException("the filter " + f + " says its chunks hold "
          + (d.length < 3 ? "nothing" : d[2] + " bytes") + ", not a chunk's " + (bound - SLACK));
    }
    if (f.id() == BITSHUFFLE) {
      if (d.length < 5 || d[2] < 1 || d[2] > 256 || d[3] < 0 || d[3] > bound) {
        throw new ScienceFormatException("the filter " + f + " has client data "
            + Arrays.toString(d) + ": element size, block size and compression unread");
      }
      if (d[4] == 2) {
        checkLz4Header(f, data, bound);
      }
    }
    if (f.id() == LZ4) {
      checkLz4Header(f, data, bound);
    }
  }

  /** The LZ4 header (HDF5_LZ4.pdf): the decoded size (8 bytes), then the block size (4). */
  private static void checkLz4Header(Variable.FilterSpec f, byte[] data, long bound) {
    if (data.length < 12) {
      throw new ScienceFormatException("the filter " + f + " finds a chunk of " + data.length
          + " bytes, shorter than its header");
    }
    ByteBuffer b = ByteBuffer.wrap(data);
    long total = b.getLong(0);
    long block = b.getInt(8) & 0xFFFFFFFFL;
    if (total < 0 || total > bound || block < 1 || block > bound) {
      throw new ScienceFormatException("the filter " + f + " says a chunk decodes to " + total
          + " bytes in blocks of " + block + ", more than a chunk holds");
    }
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
