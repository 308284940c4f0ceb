package org.opass.mrap.pattern;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.opass.conf.StrictConf;

/**
 * An access pattern described by configuration properties (a Hadoop XML file, {@code -D}), as
 * the MRAP thesis's {@code strided.*} template files describe one. {@link #load} checks every
 * property before any job runs: a missing, malformed or out-of-range value, a property name
 * that is not one of ours, or one that does not apply to the pattern's kind, is a
 * {@link PatternException} that names it.
 *
 * <table>
 *   <caption>Properties</caption>
 *   <tr><td>{@value #KIND}</td><td>{@code strided}, {@code subarray}, {@code tiled} or
 *   {@code indexed}; {@code strided} when unset and {@value #STRIDED_SIZE} is set</td></tr>
 *   <tr><td>{@value #STRIDED_SIZE}</td><td>bytes per region</td></tr>
 *   <tr><td>{@value #STRIDED_SPACING}</td><td>bytes between one region's (or group's) end and
 *   the next one's start; one value per level, innermost first, comma-separated</td></tr>
 *   <tr><td>{@value #STRIDED_STRIDE}</td><td>or bytes from one region's (or group's) start to
 *   the next one's start, as MPI and HDF5 write it; one value per level (not with
 *   {@value #STRIDED_SPACING})</td></tr>
 *   <tr><td>{@value #STRIDED_COUNT}</td><td>regions (groups) per level, innermost first</td></tr>
 *   <tr><td>{@value #STRIDED_NESTING}</td><td>levels (default: as many as counts given)</td></tr>
 *   <tr><td>{@value #STRIDED_START}</td><td>offset of the first region (default 0)</td></tr>
 *   <tr><td>{@value #ARRAY_SHAPE}</td><td>elements per dimension, row-major</td></tr>
 *   <tr><td>{@value #ARRAY_ELEMENT}</td><td>bytes per element</td></tr>
 *   <tr><td>{@value #ARRAY_OFFSET}</td><td>offset of the first element (default 0)</td></tr>
 *   <tr><td>{@value #SUBARRAY_ORIGIN}, {@value #SUBARRAY_EXTENT}</td><td>the block read
 *   (kind {@code subarray}); default the whole array</td></tr>
 *   <tr><td>{@value #TILE_SHAPE}</td><td>elements per tile and dimension (kind
 *   {@code tiled}: one task per tile)</td></tr>
 *   <tr><td>{@value #INDEXED_REGIONS}</td><td>{@code offset:length,...} inline</td></tr>
 *   <tr><td>{@value #INDEXED_FILE}</td><td>or a side file of them, one or more per line</td></tr>
 * </table>
 * Numbers are ASCII digits; byte values take binary suffixes ({@code 64k}, {@code 1m},
 * {@code 2g}, {@code 1t}).
 */
public final class PatternConfig {
  public static final String KIND = "mrap.pattern.kind";
  public static final String STRIDED_NESTING = "strided.nesting_level";
  public static final String STRIDED_SIZE = "strided.region_size";
  public static final String STRIDED_COUNT = "strided.region_count";
  public static final String STRIDED_SPACING = "strided.region_spacing";
  public static final String STRIDED_STRIDE = "strided.region_stride";
  public static final String STRIDED_START = "strided.start";
  public static final String ARRAY_SHAPE = "mrap.pattern.array.shape";
  public static final String ARRAY_ELEMENT = "mrap.pattern.array.element_size";
  public static final String ARRAY_OFFSET = "mrap.pattern.array.offset";
  public static final String SUBARRAY_ORIGIN = "mrap.pattern.subarray.origin";
  public static final String SUBARRAY_EXTENT = "mrap.pattern.subarray.extent";
  public static final String TILE_SHAPE = "mrap.pattern.tile.shape";
  public static final String INDEXED_REGIONS = "mrap.pattern.indexed.regions";
  public static final String INDEXED_FILE = "mrap.pattern.indexed.file";

  /** Prefixes of the properties this class reads; any other name under them is refused. */
  public static final String[] PREFIXES = {"strided.", "mrap.pattern."};

  /** The keys each kind reads ({@value #KIND} aside). */
  private static final Map<String, Set<String>> KINDS = new LinkedHashMap<>();

  static {
    KINDS.put("strided", keys(STRIDED_NESTING, STRIDED_SIZE, STRIDED_COUNT, STRIDED_SPACING,
        STRIDED_STRIDE, STRIDED_START));
    KINDS.put("subarray", keys(ARRAY_SHAPE, ARRAY_ELEMENT, ARRAY_OFFSET, SUBARRAY_ORIGIN,
        SUBARRAY_EXTENT));
    KINDS.put("tiled", keys(ARRAY_SHAPE, ARRAY_ELEMENT, ARRAY_OFFSET, TILE_SHAPE));
    KINDS.put("indexed", keys(INDEXED_REGIONS, INDEXED_FILE));
  }

  private static final Set<String> KEYS = new TreeSet<>();

  static {
    KEYS.add(KIND);
    KINDS.values().forEach(KEYS::addAll);
  }

  private static Set<String> keys(String... k) {
    return Collections.unmodifiableSet(new TreeSet<>(Arrays.asList(k)));
  }

  /** Opens an indexed pattern's side file. */
  public interface SideFiles {
    Reader open(String path) throws IOException;
  }

  private final Map<String, String> props;
  private final String kind;
  private final AccessPattern pattern;
  private final TiledPattern tiles;
  private final String extentProperty;

  private PatternConfig(Map<String, String> props, String kind, AccessPattern pattern,
      TiledPattern tiles, String extentProperty) {
    this.props = props;
    this.kind = kind;
    this.pattern = pattern;
    this.tiles = tiles;
    this.extentProperty = extentProperty;
  }

  /**
   * A pattern planned elsewhere (a NetCDF or HDF5 variable's slab, from a file's header),
   * named by the property that chose it and what it was set to.
   */
  public static PatternConfig planned(AccessPattern pattern, String property, String value) {
    Map<String, String> props = new java.util.TreeMap<>();
    props.put(property, value);
    return new PatternConfig(props, "planned", pattern, null, property);
  }

  /** Tiles planned elsewhere (a NetCDF or HDF5 variable's array), named as {@link #planned}. */
  public static PatternConfig plannedTiles(TiledPattern tiles, String property, String value) {
    Map<String, String> props = new java.util.TreeMap<>();
    props.put(property, value);
    return new PatternConfig(props, "planned", null, tiles, property);
  }

  /** Every property name a pattern may use. */
  public static Set<String> keys() {
    return Collections.unmodifiableSet(KEYS);
  }

  /** Whether {@code key} is under one of {@link #PREFIXES}. */
  public static boolean hasOurPrefix(String key) {
    for (String p : PREFIXES) {
      if (key.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Loads the pattern that {@code props} (every property under {@link #PREFIXES}) describe.
   *
   * @throws PatternException naming the first property at fault
   * @throws IOException if a side file exists but cannot be read
   */
  public static PatternConfig load(Map<String, String> props, SideFiles sideFiles)
      throws IOException {
    for (String key : new TreeSet<>(props.keySet())) {
      if (!KEYS.contains(key) && hasOurPrefix(key)) {
        throw new PatternException(key, "is not a pattern property; the properties are "
            + String.join(", ", KEYS));
      }
    }
    String kind = props.get(KIND);
    if (kind == null) {
      if (props.get(STRIDED_SIZE) == null) {
        throw new PatternException(KIND, "is not set: strided, subarray, tiled or indexed "
            + "(or set " + STRIDED_SIZE + " for a strided pattern)");
      }
      kind = "strided";
    }
    kind = kind.trim().toLowerCase(Locale.ROOT);
    if (kind.equals("netcdf") || kind.equals("hdf5")) {
      throw new PatternException(KIND, "=" + kind + " names a variable, not byte regions: read "
          + "it with VariableInputFormat (mrap.science.variable, mrap.science.slab)");
    }
    if (!KINDS.containsKey(kind)) {
      throw new PatternException(KIND, "=" + shorten(kind) + " is not strided, subarray, "
          + "tiled or indexed");
    }
    for (String key : new TreeSet<>(props.keySet())) {
      if (!key.equals(KIND) && KEYS.contains(key) && !KINDS.get(kind).contains(key)) {
        throw new PatternException(key, "does not apply to a " + kind + " pattern (" + KIND
            + "=" + kind + "); it reads " + String.join(", ", KINDS.get(kind)));
      }
    }
    Values v = new Values(props);
    switch (kind) {
      case "strided":
        return new PatternConfig(props, kind, strided(v), null, STRIDED_COUNT);
      case "subarray": {
        long[] shape = v.longs(ARRAY_SHAPE, 1, -1);
        long element = v.bytes(ARRAY_ELEMENT, 1);
        long base = v.bytesOr(ARRAY_OFFSET, 0, 0);
        long[] origin = v.longsOr(SUBARRAY_ORIGIN, 0, shape.length, new long[shape.length]);
        long[] extent = v.longsOr(SUBARRAY_EXTENT, 1, shape.length, shape);
        for (int d = 0; d < shape.length; d++) {
          if (origin[d] >= shape[d]) {
            throw new PatternException(SUBARRAY_ORIGIN, "=" + shorten(props.get(SUBARRAY_ORIGIN))
                + ": dimension " + d + " starts at " + origin[d] + ", past the array's "
                + shape[d] + " (" + ARRAY_SHAPE + ")");
          }
          if (extent[d] > shape[d] - origin[d]) {
            throw new PatternException(SUBARRAY_EXTENT, "=" + shorten(String.valueOf(
                props.get(SUBARRAY_EXTENT))) + ": dimension " + d + " runs from " + origin[d]
                + " for " + extent[d] + ", past the array's " + shape[d] + " (" + ARRAY_SHAPE
                + ")");
          }
        }
        return new PatternConfig(props, kind, v.check(ARRAY_SHAPE,
            () -> SubarrayPattern.of(base, shape, element, origin, extent)), null, ARRAY_SHAPE);
      }
      case "tiled": {
        long[] shape = v.longs(ARRAY_SHAPE, 1, -1);
        long element = v.bytes(ARRAY_ELEMENT, 1);
        long base = v.bytesOr(ARRAY_OFFSET, 0, 0);
        v.check(ARRAY_SHAPE, () -> SubarrayPattern.whole(base, shape, element));
        long[] tile = v.longs(TILE_SHAPE, 1, shape.length);
        TiledPattern tiles = v.check(TILE_SHAPE, () -> TiledPattern.of(base, shape, element, tile));
        return new PatternConfig(props, kind, null, tiles, ARRAY_SHAPE);
      }
      default: { // indexed
        String inline = props.get(INDEXED_REGIONS);
        String file = props.get(INDEXED_FILE);
        if (inline != null && file != null) {
          throw new PatternException(INDEXED_FILE, "is set and so is " + INDEXED_REGIONS
              + ": give the regions one way");
        }
        if (inline == null && file == null) {
          throw new PatternException(INDEXED_REGIONS, "is not set: give the regions inline, "
              + "or in a file named by " + INDEXED_FILE);
        }
        String key = inline != null ? INDEXED_REGIONS : INDEXED_FILE;
        String source = inline != null ? INDEXED_REGIONS : INDEXED_FILE + "=" + file;
        IndexedPattern p;
        if (inline == null && file.trim().isEmpty()) {
          throw new PatternException(INDEXED_FILE, "is empty: name the file of regions");
        }
        Reader r;
        try {
          r = inline != null ? new StringReader(inline) : sideFiles.open(file.trim());
        } catch (FileNotFoundException e) {
          throw new PatternException(INDEXED_FILE, "=" + shorten(file) + ": no such file");
        }
        try (Reader in = r) {
          p = IndexedPattern.parse(in, source);
        } catch (IllegalArgumentException e) {
          throw new PatternException(key, e.getMessage());
        }
        return new PatternConfig(props, kind, p, null, key);
      }
    }
  }

  private static StridedPattern strided(Values v) {
    long size = v.bytes(STRIDED_SIZE, 1);
    long start = v.bytesOr(STRIDED_START, 0, 0);
    int levels = -1;
    if (v.props.get(STRIDED_NESTING) != null) {
      levels = (int) v.longValue(STRIDED_NESTING, v.required(STRIDED_NESTING), 1, 64);
    }
    long[] counts = v.longs(STRIDED_COUNT, 1, levels);
    boolean bySpacing = v.props.get(STRIDED_SPACING) != null;
    if (bySpacing && v.props.get(STRIDED_STRIDE) != null) {
      throw new PatternException(STRIDED_STRIDE, "is set and so is " + STRIDED_SPACING
          + ": give the gaps (spacing, end to start) or the strides (start to start), not both");
    }
    if (!bySpacing && v.props.get(STRIDED_STRIDE) == null) {
      throw new PatternException(STRIDED_SPACING, "is not set: give the bytes between regions ("
          + STRIDED_SPACING + ", end to start) or " + STRIDED_STRIDE + " (start to start)");
    }
    if (bySpacing) {
      long[] spacings = v.byteList(STRIDED_SPACING, 0, counts.length);
      return v.check(STRIDED_COUNT, () -> StridedPattern.nested(start, size, spacings,
          counts));
    }
    long[] strides = v.byteList(STRIDED_STRIDE, 0, counts.length);
    try {
      return StridedPattern.byStride(start, size, strides, counts);
    } catch (IllegalArgumentException e) { // a stride shorter than its element, or an overflow
      throw new PatternException(e.getMessage().startsWith("stride[") ? STRIDED_STRIDE
          : STRIDED_COUNT, e.getMessage());
    }
  }

  /** {@code strided}, {@code subarray}, {@code tiled} or {@code indexed}. */
  public String kind() {
    return kind;
  }

  /** The pattern, or null for {@code tiled} (see {@link #tiles()}). */
  public AccessPattern pattern() {
    return pattern;
  }

  /** The tiling, or null unless the kind is {@code tiled}. */
  public TiledPattern tiles() {
    return tiles;
  }

  /** One past the last byte the pattern reads. */
  public long end() {
    return tiles != null ? tiles.array().end() : pattern.end();
  }

  /** The property that sets where the pattern ends, to name when it does not fit a file. */
  public String extentProperty() {
    return extentProperty;
  }

  /**
   * Checks that the pattern lies within a file of {@code length} bytes.
   *
   * @throws PatternException naming the property that sets the pattern's end
   */
  public void checkWithin(long length, String file) {
    if (end() <= length) {
      return;
    }
    throw new PatternException(extentProperty, misfit(file + " (" + length + " bytes)"));
  }

  /** Why the pattern does not fit {@code files} (named, with their lengths). */
  public String misfit(String files) {
    String value = props.get(extentProperty);
    return (value == null ? "" : "=" + shorten(value) + ": ") + "the pattern "
        + (pattern != null ? pattern : tiles) + " reads up to byte " + end() + ", past the end "
        + "of " + files;
  }

  /** At most 80 characters of {@code s}, for a message. */
  public static String shorten(String s) {
    return StrictConf.shorten(s);
  }

  @Override
  public String toString() {
    return pattern != null ? pattern.toString() : tiles.toString();
  }

  /** Reads typed property values, each error naming the property. */
  private static final class Values {
    final Map<String, String> props;

    Values(Map<String, String> props) {
      this.props = props;
    }

    interface Build<T> {
      T build();
    }

    /** Builds, turning a model's IllegalArgumentException into one naming {@code key}. */
    <T> T check(String key, Build<T> b) {
      try {
        return b.build();
      } catch (PatternException e) {
        throw e;
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw new PatternException(key, e.getMessage());
      }
    }

    String required(String key) {
      String s = props.get(key);
      if (s == null || s.trim().isEmpty()) {
        throw new PatternException(key, s == null ? "is not set" : "is empty");
      }
      return s.trim();
    }

    long bytes(String key, long min) {
      return bytesValue(key, required(key), min);
    }

    long bytesOr(String key, long min, long dflt) {
      return props.get(key) == null ? dflt : bytesValue(key, required(key), min);
    }

    long bytesValue(String key, String s, long min) {
      try {
        return StrictConf.parseBytes(key, s, min);
      } catch (IllegalArgumentException e) { // its message begins with key=value
        throw new PatternException(key, e.getMessage().substring(key.length()));
      }
    }

    long longValue(String key, String s, long min, long max) {
      try {
        return StrictConf.parseNumber(key, s, min, max);
      } catch (IllegalArgumentException e) { // its message begins with key=value
        throw new PatternException(key, e.getMessage().substring(key.length()));
      }
    }

    /** A comma list of {@code n} values (any number if n < 0), each >= min. */
    long[] longs(String key, long min, int n) {
      return list(key, required(key), min, n, false);
    }

    long[] longsOr(String key, long min, int n, long[] dflt) {
      return props.get(key) == null ? dflt.clone() : list(key, required(key), min, n, false);
    }

    long[] byteList(String key, long min, int n) {
      return list(key, required(key), min, n, true);
    }

    private long[] list(String key, String s, long min, int n, boolean bytes) {
      String[] parts = s.split(",", -1);
      if (n >= 0 && parts.length != n) {
        throw new PatternException(key, "=" + shorten(s) + " has " + parts.length
            + " values; " + n + " expected (one per " + (key.startsWith("strided.")
            ? "level, innermost first" : "dimension") + ")");
      }
      long[] out = new long[parts.length];
      for (int i = 0; i < parts.length; i++) {
        String part = parts[i].trim();
        if (part.isEmpty()) {
          throw new PatternException(key, "=" + shorten(s) + " has an empty value (number "
              + (i + 1) + ")");
        }
        out[i] = bytes ? bytesValue(key, part, min) : longValue(key, part, min, Long.MAX_VALUE);
      }
      return out;
    }
  }
}
