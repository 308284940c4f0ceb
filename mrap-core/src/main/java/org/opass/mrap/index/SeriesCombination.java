package org.opass.mrap.index;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.cf.CfDate;
import org.opass.mrap.cf.CfTime;
import org.opass.mrap.format.Attributes;

/**
 * A series' files joined along their first dimension (the record or time dimension) into one
 * reference set, as xarray's {@code open_mfdataset} would join them, or refused with every
 * reason, naming the files: never a join that reads wrong. Arrays along that dimension are
 * joined chunk by chunk (a file's chunks keep their references, renumbered), so every file but
 * the last holds whole chunks along it (the last may end in a partial chunk); their dtype,
 * chunks, fill value, codecs and attributes agree file to file (per-file scale factors or fill
 * values refuse); a time coordinate whose units differ is re-encoded in the first file's units
 * (in the same calendar). Coordinates of the other dimensions are the same in every file;
 * other arrays not along it stay in each file's own set.
 */
final class SeriesCombination {
  private final List<ReferenceSet.Array> arrays = new ArrayList<>();
  private final List<Refusal> refused = new ArrayList<>();
  private final List<String> leftOut = new ArrayList<>();
  private String dimension;

  private SeriesCombination() {
  }

  /** The join of {@code entries} (in any order: sorted here by their first time, else path). */
  static SeriesCombination of(List<FileEntry> entries) {
    SeriesCombination c = new SeriesCombination();
    if (entries.isEmpty()) {
      return c;
    }
    c.join(ordered(entries));
    return c;
  }

  /** The joined arrays; empty where {@link #refused} is not. */
  List<ReferenceSet.Array> arrays() {
    return refused.isEmpty() ? arrays : List.of();
  }

  /** Why the files do not join, naming file and variable; empty where they do. */
  List<Refusal> refused() {
    return refused;
  }

  /** Arrays not along the joined dimension, left in each file's own set. */
  List<String> leftOut() {
    return leftOut;
  }

  /** The dimension joined along, or null. */
  String dimension() {
    return dimension;
  }

  private void join(List<FileEntry> files) {
    FileEntry first = files.get(0);
    for (ArrayEntry a : first.arrays().values()) {
      if (a.inline() == null && !a.zarrDimensions().isEmpty()) {
        dimension = a.zarrDimensions().get(0);
        break;
      }
    }
    if (dimension == null) {
      refused.add(new Refusal(first.path(), "*", "no variable with dimensions to join along"));
      return;
    }
    for (ArrayEntry a : first.arrays().values()) {
      List<ArrayEntry> all = new ArrayList<>();
      for (FileEntry f : files) {
        ArrayEntry other = f.arrays().get(a.key());
        if (other == null) {
          refused.add(new Refusal(f.path(), a.key(), "not in this file's set, but in "
              + first.path() + "'s"));
        } else {
          all.add(other);
        }
      }
      if (all.size() < files.size()) {
        continue;
      }
      boolean along = !a.zarrDimensions().isEmpty() && a.zarrDimensions().get(0)
          .equals(dimension);
      if (!along && a.inline() != null) {
        same(files, all);
        arrays.add(a.inSet(first.url()));
      } else if (!along) {
        leftOut.add(a.key());
      } else if (a.inline() != null) {
        joinValues(files, all);
      } else {
        joinChunks(files, all);
      }
    }
  }

  /** Refuses where an array not along the dimension differs from the first file's. */
  private void same(List<FileEntry> files, List<ArrayEntry> all) {
    ArrayEntry a = all.get(0);
    for (int k = 1; k < all.size(); k++) {
      ArrayEntry b = all.get(k);
      if (!Arrays.equals(a.inline(), b.inline()) || !a.zarr().dtype().equals(b.zarr().dtype())) {
        refused.add(new Refusal(files.get(k).path(), a.key(), "its values differ from "
            + files.get(0).path() + "'s"));
      }
      String why = attributesDiffer(a.attributes(), b.attributes(), false);
      if (why != null) {
        refused.add(new Refusal(files.get(k).path(), a.key(), why + " (" + files.get(0).path()
            + ")"));
      }
    }
  }

  /** A coordinate along the dimension: its values one after another, in the first units. */
  private void joinValues(List<FileEntry> files, List<ArrayEntry> all) {
    ArrayEntry a = all.get(0);
    String units = a.attributes().text("units");
    String calendar = a.attributes().text("calendar");
    boolean time = CfTime.isTime(units);
    List<double[]> parts = new ArrayList<>();
    boolean reencoded = false;
    int n = 0;
    for (int k = 0; k < all.size(); k++) {
      ArrayEntry b = all.get(k);
      double[] v = ReferenceSet.values(b.inline(), b.type(), b.order());
      String u = b.attributes().text("units");
      String why = attributesDiffer(a.attributes(), b.attributes(), time);
      if (why != null) {
        refused.add(new Refusal(files.get(k).path(), a.key(), why + " (" + files.get(0).path()
            + ")"));
        continue;
      }
      if (time && !u.equals(units)) {
        try {
          CfTime from = CfTime.of(u, calendar);
          CfTime to = CfTime.of(units, calendar);
          for (int i = 0; i < v.length; i++) {
            v[i] = to.value(from.date(v[i]));
          }
          reencoded = true;
        } catch (IllegalArgumentException e) {
          refused.add(new Refusal(files.get(k).path(), a.key(), "its times in '" + u
              + "' cannot be given in '" + units + "': " + e.getMessage()));
          continue;
        }
      }
      parts.add(v);
      n += v.length;
    }
    double[] joined = new double[n];
    int at = 0;
    for (double[] p : parts) {
      System.arraycopy(p, 0, joined, at, p.length);
      at += p.length;
    }
    ElementType type = a.type();
    if (reencoded && !type.floating()) {
      for (double d : joined) {
        if (d != Math.rint(d)) {
          type = ElementType.FLOAT64; // the re-encoded times are not whole in the first units
          break;
        }
      }
    }
    ElementType t = type;
    ZarrArray zarr;
    try {
      zarr = new ZarrArray(ZarrArray.dtype(t, a.order()), new long[] {n},
          new int[] {Math.max(1, n)}, a.zarr().fillValue(), List.of());
    } catch (ZarrArray.Unexpressible e) {
      refused.add(new Refusal(files.get(0).path(), a.key(), e.getMessage()));
      return;
    }
    ZarrArray packed = zarr.packedInline(t.size());
    byte[] stored = packed.encode(FileIndexer.raw(joined, t, a.order()));
    arrays.add(a.inSet(packed, key -> stored));
  }

  /** A variable along the dimension: each file's chunks, renumbered along it. */
  private void joinChunks(List<FileEntry> files, List<ArrayEntry> all) {
    ArrayEntry a = all.get(0);
    int c0 = a.zarr().chunks()[0];
    long[] starts = new long[all.size()]; // each file's first chunk along the dimension
    long rows = 0;
    for (int k = 0; k < all.size(); k++) {
      ArrayEntry b = all.get(k);
      String path = files.get(k).path();
      String why = a.zarr().differenceFrom(b.zarr());
      if (why == null) {
        why = attributesDiffer(a.attributes(), b.attributes(), false);
      }
      if (why != null) {
        refused.add(new Refusal(path, a.key(), why + " (" + files.get(0).path() + ")"));
        continue;
      }
      long n = b.zarr().shape()[0];
      if (rows % c0 != 0) {
        refused.add(new Refusal(files.get(k - 1).path(), a.key(), "it holds "
            + (rows - (starts[k - 1] * c0)) + " records along " + dimension + ", not whole "
            + "chunks of " + c0 + ", and a file follows it"));
      }
      starts[k] = rows / c0;
      rows += n;
    }
    long[] shape = a.zarr().shape();
    shape[0] = rows;
    ZarrArray zarr = a.zarr().withShape(shape);
    List<String> urls = new ArrayList<>();
    for (FileEntry f : files) {
      urls.add(f.url());
    }
    arrays.add(a.inSet(zarr, key -> {
      int dot = key.indexOf('.');
      long i = Long.parseLong(dot < 0 ? key : key.substring(0, dot));
      int k = Arrays.binarySearch(starts, i);
      if (k < 0) {
        k = -k - 2;
      }
      while (k + 1 < starts.length && starts[k + 1] == i) {
        k++; // a file of no records starts where the next does
      }
      String inner = (i - starts[k]) + (dot < 0 ? "" : key.substring(dot));
      long[] r = all.get(k).refs().get(inner);
      return r == null ? null : new ReferenceSet.Ref(urls.get(k), r[0], r[1]);
    }));
  }

  /**
   * Why attributes {@code b} are not {@code a}'s, naming the first that differs (a time's units
   * aside, which are re-encoded); null where they agree.
   */
  private static String attributesDiffer(Attributes a, Attributes b, boolean time) {
    for (String n : a.names()) {
      if (time && n.equals("units")) {
        continue;
      }
      if (!a.get(n).equals(b.get(n))) {
        return "its " + n + " is " + b.get(n) + ", not " + a.get(n);
      }
    }
    for (String n : b.names()) {
      if (a.get(n) == null) {
        return "it has " + n + " " + b.get(n) + ", which the first file's has not";
      }
    }
    return null;
  }

  /** The files in time order (their first time along the dimension), else by path. */
  static List<FileEntry> ordered(List<FileEntry> entries) {
    List<FileEntry> out = new ArrayList<>(entries);
    out.sort(Comparator.comparing(FileEntry::path));
    Map<FileEntry, Double> firsts = new LinkedHashMap<>();
    for (FileEntry f : out) {
      Double first = firstTime(f);
      if (first == null) {
        return out;
      }
      firsts.put(f, first);
    }
    out.sort(Comparator.comparing(firsts::get));
    return out;
  }

  /** The first value of a file's coordinate along its first dimension (a time in seconds since 1970). */
  private static Double firstTime(FileEntry f) {
    for (ArrayEntry a : f.arrays().values()) {
      if (a.inline() == null && !a.zarrDimensions().isEmpty()) {
        String c = a.coordinates().get(0);
        ArrayEntry coordinate = c == null ? null : f.arrays().get(c);
        if (coordinate == null || coordinate.inline() == null
            || coordinate.inline().length == 0) {
          return null;
        }
        double v = ReferenceSet.values(coordinate.inline(), coordinate.type(),
            coordinate.order())[0];
        String units = coordinate.attributes().text("units");
        if (!CfTime.isTime(units)) {
          return v;
        }
        try {
          String calendar = coordinate.attributes().text("calendar");
          CfDate d = CfTime.of(units, calendar).date(v);
          return CfTime.of("seconds since 1970-01-01", calendar).value(d);
        } catch (IllegalArgumentException e) {
          return null;
        }
      }
    }
    return null;
  }
}
