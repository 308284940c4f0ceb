package org.opass.mrap.science;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.array.Elements;
import org.opass.mrap.array.Slab;

/**
 * The fixtures of src/test/resources/science (written by netCDF-C, HDF5 and scipy through
 * make_fixtures.py) and what those libraries read from them (expected.json), and the slab
 * assembled from pieces in the libraries' canonical form, to compare.
 */
public final class Fixtures {
  private Fixtures() {
  }

  public static Path folder() {
    try {
      return Paths.get(Fixtures.class.getResource("/science/expected.json").toURI()).getParent();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The fixture's file: a committed file, or for {@code big.json} the sparse file of over 4 GiB
   * it describes, written into {@code scratch} (a few KiB on disk).
   */
  public static Path file(String name, Path scratch) throws IOException {
    if (!name.equals("big.json")) {
      return folder().resolve(name);
    }
    Path big = scratch.resolve("big.nc");
    if (!java.nio.file.Files.exists(big)) {
      JsonNode d;
      try (InputStream in = Fixtures.class.getResourceAsStream("/science/big.json")) {
        d = new ObjectMapper().readTree(in);
      }
      try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
        f.setLength(d.get("length").asLong());
        f.seek(0);
        f.write(HexFormat.of().parseHex(d.get("header").asText()));
        f.seek(d.get("tail_offset").asLong());
        f.write(HexFormat.of().parseHex(d.get("tail").asText()));
      }
    }
    return big;
  }

  /** A fixture's bytes (from the classpath: this folder or a test jar). */
  public static byte[] bytes(String name) throws IOException {
    try (InputStream in = Fixtures.class.getResourceAsStream("/science/" + name)) {
      if (in == null) {
        throw new java.io.FileNotFoundException("/science/" + name + " on the classpath");
      }
      return in.readAllBytes();
    }
  }

  public static JsonNode expected() throws IOException {
    try (InputStream in = Fixtures.class.getResourceAsStream("/science/expected.json")) {
      return new ObjectMapper().readTree(in);
    }
  }

  /** One case: a file, a variable, a slab, and the reference library's reading of it. */
  public static final class Case {
    public final String file;
    public final String variable;
    public final String slab;
    public final long[] shape;
    public final double sum;
    public final String sha256;
    /** Elements that are the fill value (never written, or past the stored extent); -1: unknown. */
    public final long fill;

    Case(JsonNode n) {
      file = n.get("file").asText();
      variable = n.get("variable").asText();
      slab = n.get("slab").isNull() ? null : n.get("slab").asText();
      JsonNode s = n.get("shape");
      shape = new long[s.size()];
      for (int i = 0; i < shape.length; i++) {
        shape[i] = s.get(i).asLong();
      }
      sum = n.get("sum").asDouble();
      sha256 = n.get("sha256").asText();
      fill = n.has("fill") ? n.get("fill").asLong() : -1;
    }

    public ScienceFiles.Kind kind() {
      return file.endsWith(".h5") ? ScienceFiles.Kind.HDF5 : ScienceFiles.Kind.NETCDF;
    }

    @Override
    public String toString() {
      return file + " " + variable + (slab == null ? "" : "[" + slab + "]");
    }
  }

  /** What make_layouts.py wrote: the chunk indexes, NetCDF-4 shapes and fill values. */
  public static JsonNode layouts() throws IOException {
    try (InputStream in = Fixtures.class.getResourceAsStream("/science/layouts/expected.json")) {
      return new ObjectMapper().readTree(in);
    }
  }

  /** What filters/make_filters.py wrote: datasets through HDF5's filter plugins. */
  public static JsonNode filters() throws IOException {
    try (InputStream in = Fixtures.class.getResourceAsStream("/science/filters/expected.json")) {
      return new ObjectMapper().readTree(in);
    }
  }

  /** The cases of make_fixtures.py, layouts/make_layouts.py and filters/make_filters.py. */
  public static List<Case> cases() throws IOException {
    List<Case> out = new ArrayList<>();
    for (JsonNode doc : List.of(expected(), layouts(), filters())) {
      for (JsonNode n : doc.get("cases")) {
        out.add(new Case(n));
      }
    }
    return out;
  }

  /**
   * A slab's values in the reference libraries' canonical form (C order; int64 for integers,
   * float64 for floating point, little-endian), filled in from pieces.
   */
  public static final class Assembled {
    private final Slab slab;
    private final boolean floating;
    private final ByteBuffer values;
    private long filled;

    public Assembled(Slab slab, ElementType type) {
      this.slab = slab;
      this.floating = type.floating();
      this.values = ByteBuffer.allocate((int) slab.elements() * 8).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Puts a piece: {@code origin}, {@code shape}, {@code step} in array indices. */
    public void put(long[] origin, int[] shape, long[] step, byte[] bytes, int offset,
        ElementType type, ByteOrder order) {
      int n = shape.length;
      int[] idx = new int[n];
      int at = offset;
      long total = 1;
      for (int s : shape) {
        total *= s;
      }
      for (long k = 0; k < total; k++) {
        long flat = 0;
        for (int d = 0; d < n; d++) {
          long a = origin[d] + idx[d] * step[d] - slab.start(d);
          long p = a / slab.stride(d) * slab.block(d) + a % slab.stride(d);
          if (a < 0 || a % slab.stride(d) >= slab.block(d) || p >= slab.extent(d)) {
            throw new AssertionError("element at " + java.util.Arrays.toString(idx)
                + " of a piece at " + java.util.Arrays.toString(origin) + " is outside the slab");
          }
          flat = flat * slab.extent(d) + p;
        }
        if (floating) {
          values.putDouble((int) flat * 8, Elements.asDouble(bytes, at, type, order));
        } else {
          values.putLong((int) flat * 8, Elements.asLong(bytes, at, type, order));
        }
        filled++;
        at += type.size();
        for (int d = n - 1; d >= 0 && ++idx[d] == shape[d]; d--) {
          idx[d] = 0;
        }
      }
    }

    public long filled() {
      return filled;
    }

    public double sum() {
      double s = 0;
      for (int i = 0; i < values.capacity(); i += 8) {
        s += floating ? values.getDouble(i) : values.getLong(i);
      }
      return s;
    }

    public String sha256() {
      try {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
            .digest(values.array()));
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** A damaged copy: cut short, bits flipped, or fields overwritten; {@code how} says which. */
  public static byte[] damaged(byte[] original, Random rnd, String[] how) {
    int kind = rnd.nextInt(4);
    if (kind == 0) {
      int len = rnd.nextInt(original.length);
      how[0] = "cut to " + len + " bytes";
      return Arrays.copyOf(original, len);
    }
    byte[] b = original.clone();
    StringBuilder h = new StringBuilder();
    int n = 1 + rnd.nextInt(8);
    for (int k = 0; k < n; k++) {
      // metadata lies mostly at the front of these files; damage it more often
      int at = rnd.nextBoolean() ? rnd.nextInt(Math.min(b.length, 4096)) : rnd.nextInt(b.length);
      if (kind == 1) {
        int bit = rnd.nextInt(8);
        b[at] ^= (byte) (1 << bit);
        h.append(h.length() == 0 ? "bits flipped at " : ", ").append(at).append('.').append(bit);
      } else {
        long[] extremes = {0, -1, Integer.MAX_VALUE, 0xFFFFFFFFL, 1L << 31, 1L << 40,
            Long.MAX_VALUE, original.length, original.length + 1L, rnd.nextLong()};
        long v = extremes[rnd.nextInt(extremes.length)];
        int width = kind == 2 ? 8 : 4;
        at = Math.max(0, Math.min(b.length - width, at - at % width));
        for (int j = 0; j < width && at + j < b.length; j++) {
          b[at + j] = (byte) (v >>> (8 * j));
        }
        h.append(h.length() == 0 ? "fields of " + width + " bytes set at " : ", ").append(at)
            .append('=').append(v);
      }
    }
    how[0] = h.toString();
    return b;
  }
}
