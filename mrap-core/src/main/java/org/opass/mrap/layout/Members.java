package org.opass.mrap.layout;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.ConcatenatedPattern;

/**
 * The files a container holds ({@code mrap-copy -pack}, thesis §4.4.3): their names and
 * lengths, in order. The container's original is the members laid end to end, member {@code i}
 * from {@link #start}{@code (i)}; a {@link PackedLayout} of version {@value PackedLayout#CONTAINER}
 * packs the regions of all of them into shared chunks. Immutable.
 */
public final class Members {
  /** Most members a container holds: a bound on memory and on a damaged count. */
  public static final int MAX = 1 << 20;
  /** Longest member name, in UTF-8 bytes (a file name in HDFS is at most 255). */
  static final int MAX_NAME_BYTES = 255;

  private final String[] names;
  private final long[] starts; // [count] is the total length

  private Members(String[] names, long[] starts) {
    this.names = names;
    this.starts = starts;
  }

  /**
   * @throws IllegalArgumentException naming a bad or repeated name (empty, with a {@code /},
   *     {@code .} or {@code ..}, over 255 bytes), a negative length, or too many members
   */
  public static Members of(List<String> names, long[] lengths) {
    if (names.isEmpty() || names.size() != lengths.length || names.size() > MAX) {
      throw new IllegalArgumentException(names.size() + " names and " + lengths.length
          + " lengths: a container holds 1 to " + MAX + " members, each a name and a length");
    }
    Set<String> seen = new HashSet<>();
    long[] starts = new long[names.size() + 1];
    for (int i = 0; i < names.size(); i++) {
      String n = names.get(i);
      if (n.isEmpty() || n.contains("/") || n.equals(".") || n.equals("..")
          || n.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
        throw new IllegalArgumentException("member " + i + "'s name '" + n + "' is not a file "
            + "name (1 to 255 bytes, no '/')");
      }
      if (!seen.add(n)) {
        throw new IllegalArgumentException("two members are named '" + n + "': a container "
            + "holds each name once");
      }
      if (lengths[i] < 0) {
        throw new IllegalArgumentException("member '" + n + "' has length " + lengths[i]);
      }
      try {
        starts[i + 1] = Math.addExact(starts[i], lengths[i]);
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException("the members add up to more than 2^63 bytes");
      }
    }
    return new Members(names.toArray(new String[0]), starts);
  }

  public int count() {
    return names.length;
  }

  public String name(int i) {
    return names[i];
  }

  /** Where member {@code i} starts in the container's original. */
  public long start(int i) {
    return starts[i];
  }

  public long length(int i) {
    return starts[i + 1] - starts[i];
  }

  /** The members' lengths together: the container's original length. */
  public long totalLength() {
    return starts[names.length];
  }

  void write(DataOutput out) throws IOException {
    Varint.write(out, names.length);
    for (int i = 0; i < names.length; i++) {
      byte[] n = names[i].getBytes(StandardCharsets.UTF_8);
      Varint.write(out, n.length);
      out.write(n);
      Varint.write(out, length(i));
    }
  }

  /** @throws IOException naming {@code source} for a table that is not a container's */
  static Members read(DataInput in, String source) throws IOException {
    long n = Varint.read(in);
    if (n < 1 || n > MAX) {
      throw new IOException(source + ": a damaged MRAP container (" + n + " members)");
    }
    String[] names = new String[(int) n];
    long[] lengths = new long[(int) n];
    for (int i = 0; i < n; i++) {
      long bytes = Varint.read(in);
      if (bytes > MAX_NAME_BYTES) {
        throw new IOException(source + ": a damaged MRAP container (a name of " + bytes
            + " bytes)");
      }
      byte[] b = new byte[(int) bytes];
      in.readFully(b);
      names[i] = new String(b, StandardCharsets.UTF_8);
      lengths[i] = Varint.read(in);
    }
    try {
      return of(Arrays.asList(names), lengths);
    } catch (IllegalArgumentException e) {
      throw new IOException(source + ": a damaged MRAP container (" + e.getMessage() + ")", e);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Members && Arrays.equals(((Members) o).names, names)
        && Arrays.equals(((Members) o).starts, starts);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(names) + Arrays.hashCode(starts);
  }

  @Override
  public String toString() {
    return names.length + (names.length == 1 ? " file (" : " files (") + names[0]
        + (names.length > 1 ? ", ..." : "") + ")";
  }

  /** @throws IllegalArgumentException unless part {@code i} of {@code pattern} is member i's */
  void checkParts(AccessPattern pattern) {
    Members members = this;
    if (!(pattern instanceof ConcatenatedPattern)
        || ((ConcatenatedPattern) pattern).partCount() != members.count()) {
      throw new IllegalArgumentException("a container of " + members + " needs a part of the "
          + "pattern a member, not " + pattern);
    }
    ConcatenatedPattern c = (ConcatenatedPattern) pattern;
    for (int i = 0; i < members.count(); i++) {
      if (c.start(i) != members.start(i) || c.part(i).end() > members.length(i)) {
        throw new IllegalArgumentException("part " + i + " of the pattern (" + c.part(i)
            + " from " + c.start(i) + ") is not within member '" + members.name(i) + "' ("
            + members.length(i) + " bytes from " + members.start(i) + ")");
      }
    }
  }
}
