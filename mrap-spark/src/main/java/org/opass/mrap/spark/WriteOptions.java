package org.opass.mrap.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.util.StringUtils;
import org.opass.mrap.write.OutputDataset;

/**
 * The options of one write ({@code df.write.format("mrap")}), checked on the driver before
 * anything runs; any other option is refused, naming it. Immutable.
 */
final class WriteOptions {
  /** {@code netcdf} or {@code zarr}: what is written, and that this is a write. */
  static final String OUTPUT = "mrap.science.output";
  /** The variable columns; the others are the dimensions, in the DataFrame's order. */
  static final String VARIABLES = ReadOptions.VARIABLES;
  /** Or the dimension columns, outermost first; the others are the variables. */
  static final String DIMENSIONS = "mrap.science.output.dimensions";
  /** Zarr's chunk shape, a length a dimension. */
  static final String CHUNKS = "mrap.science.output.chunks";
  /** Variables packed into int16 with a {@code scale_factor} and {@code add_offset}. */
  static final String PACK = "mrap.science.output.pack";
  /** About how many bytes (of all variables) a task's part holds. */
  static final String PART_BYTES = "mrap.science.output.part.bytes";
  static final long DEFAULT_PART_BYTES = 64L << 20;
  /** The least share of the grid's points the rows must name; fewer is a ragged grid. */
  static final String MIN_FILL = "mrap.science.output.min.fill";
  static final double DEFAULT_MIN_FILL = 0.1;
  /** {@code mrap.science.output.attr.<column>.<attribute>}: a variable's attribute. */
  static final String ATTR = "mrap.science.output.attr.";
  /** {@code mrap.science.output.global.<attribute>}: the dataset's attribute. */
  static final String GLOBAL = "mrap.science.output.global.";

  private static final List<String> KEYS = List.of(OUTPUT, VARIABLES, DIMENSIONS, CHUNKS,
      PACK, PART_BYTES, MIN_FILL);

  final String path;
  final OutputDataset.Kind kind;
  final List<String> variables; // empty: the dimensions say
  final List<String> dimensions; // empty: the variables say
  final int[] chunks; // null: the default
  final List<String> pack;
  final long partBytes;
  final double minFill;
  final Map<String, Map<String, Object>> attributes; // by column
  final Map<String, Object> global;

  private WriteOptions(String path, OutputDataset.Kind kind, List<String> variables,
      List<String> dimensions, int[] chunks, List<String> pack, long partBytes, double minFill,
      Map<String, Map<String, Object>> attributes, Map<String, Object> global) {
    this.path = path;
    this.kind = kind;
    this.variables = variables;
    this.dimensions = dimensions;
    this.chunks = chunks;
    this.pack = pack;
    this.partBytes = partBytes;
    this.minFill = minFill;
    this.attributes = attributes;
    this.global = global;
  }

  /** Whether {@code options} ask for a write (they name {@value #OUTPUT}). */
  static boolean isWrite(Map<String, String> options) {
    for (String k : options.keySet()) {
      if (k.equalsIgnoreCase(OUTPUT)) {
        return true;
      }
    }
    return false;
  }

  /**
   * @throws IllegalArgumentException naming an unknown option, a bad value, or no path
   */
  static WriteOptions of(Map<String, String> options) {
    Map<String, String> own = new TreeMap<>();
    Map<String, Map<String, Object>> attributes = new LinkedHashMap<>();
    Map<String, Object> global = new LinkedHashMap<>();
    String path = null;
    for (Map.Entry<String, String> e : options.entrySet()) {
      String key = e.getKey();
      String k = key.toLowerCase(Locale.ROOT);
      if (k.equals("path")) {
        path = e.getValue();
      } else if (k.startsWith(ATTR)) {
        String rest = key.substring(ATTR.length());
        int dot = rest.lastIndexOf('.');
        if (dot <= 0 || dot == rest.length() - 1) {
          throw new IllegalArgumentException("mrap: " + key + ": name a column and an "
              + "attribute, " + ATTR + "<column>.<attribute>");
        }
        attributes.computeIfAbsent(rest.substring(0, dot), c -> new LinkedHashMap<>())
            .put(rest.substring(dot + 1), value(e.getValue()));
      } else if (k.startsWith(GLOBAL)) {
        global.put(key.substring(GLOBAL.length()), value(e.getValue()));
      } else if (KEYS.contains(k)) {
        own.put(k, e.getValue());
      } else {
        throw new IllegalArgumentException("mrap: unknown write option '" + key + "': a write "
            + "takes " + String.join(", ", KEYS) + ", " + ATTR + "<column>.<attribute> and "
            + GLOBAL + "<attribute>");
      }
    }
    if (path == null || path.isBlank()) {
      throw new IllegalArgumentException("mrap: name where to write: .save(path)");
    }
    OutputDataset.Kind kind = OutputDataset.Kind.of(OUTPUT, own.get(OUTPUT));
    List<String> variables = list(own.get(VARIABLES));
    List<String> dimensions = list(own.get(DIMENSIONS));
    if (variables.isEmpty() && dimensions.isEmpty()) {
      throw new IllegalArgumentException("mrap: say which columns are the variables ("
          + VARIABLES + "=t2m,tp) or the dimensions (" + DIMENSIONS + "=time,latitude,"
          + "longitude)");
    }
    int[] chunks = null;
    if (own.containsKey(CHUNKS)) {
      if (kind != OutputDataset.Kind.ZARR) {
        throw new IllegalArgumentException("mrap: " + CHUNKS + " shapes a Zarr store's chunks;"
            + " a NetCDF-3 file has none");
      }
      List<String> c = list(own.get(CHUNKS));
      chunks = new int[c.size()];
      for (int i = 0; i < chunks.length; i++) {
        chunks[i] = positive(CHUNKS, c.get(i));
      }
    }
    long partBytes = own.containsKey(PART_BYTES) ? bytes(PART_BYTES, own.get(PART_BYTES))
        : DEFAULT_PART_BYTES;
    double minFill = DEFAULT_MIN_FILL;
    if (own.containsKey(MIN_FILL)) {
      try {
        minFill = Double.parseDouble(own.get(MIN_FILL).trim());
      } catch (NumberFormatException e) {
        minFill = -1;
      }
      if (!(minFill >= 0 && minFill <= 1)) {
        throw new IllegalArgumentException("mrap: " + MIN_FILL + "=" + own.get(MIN_FILL)
            + ": expected a share from 0 to 1");
      }
    }
    return new WriteOptions(path, kind, variables, dimensions, chunks, list(own.get(PACK)),
        partBytes, minFill, attributes, global);
  }

  /** The attributes given for {@code column}, as given. */
  Map<String, Object> attributes(String column) {
    Map<String, Object> a = attributes.get(column);
    return a == null ? Collections.emptyMap() : a;
  }

  /** A number where the text is one, else the text. */
  private static Object value(String text) {
    String t = text.trim();
    try {
      if (!t.isEmpty() && (Character.isDigit(t.charAt(t.length() - 1)) || t.endsWith("."))) {
        return Double.parseDouble(t);
      }
    } catch (NumberFormatException e) {
      // text
    }
    return text;
  }

  private static List<String> list(String value) {
    List<String> out = new ArrayList<>();
    if (value != null) {
      for (String s : value.split(",")) {
        if (!s.trim().isEmpty()) {
          out.add(s.trim());
        }
      }
    }
    return Collections.unmodifiableList(out);
  }

  private static int positive(String key, String text) {
    try {
      int n = Integer.parseInt(text.trim());
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new IllegalArgumentException("mrap: " + key + ": " + text + " is not a positive "
        + "length");
  }

  private static long bytes(String key, String text) {
    try {
      long n = StringUtils.TraditionalBinaryPrefix.string2long(text.trim());
      if (n > 0) {
        return n;
      }
    } catch (IllegalArgumentException e) {
      // refused below
    }
    throw new IllegalArgumentException("mrap: " + key + "=" + text + ": expected a positive "
        + "size such as 64m");
  }

  @Override
  public String toString() {
    return kind.lowerName() + " to " + path + " " + Arrays.toString(chunks);
  }
}
