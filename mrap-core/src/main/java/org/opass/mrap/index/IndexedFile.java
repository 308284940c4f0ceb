package org.opass.mrap.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.ScienceFormatException;
import org.opass.mrap.format.Variable;

/**
 * A file as its index entry describes it, read without a byte of the file: its variables with
 * their chunk index, the coordinate variables of their dimensions and those's values, held
 * inline. What a planner opens in place of the file's header where the index serves the file.
 * A variable the entry does not hold for reading (left out, or a coordinate held only by its
 * values) is {@link NotIndexed}: the planner reads that file's header instead.
 */
public final class IndexedFile implements ScienceFile {
  private final FileEntry entry;
  private final String name;
  private final Map<String, Variable> described = new HashMap<>();

  /** {@code entry}'s file, named {@code name} as the planner names it. */
  public IndexedFile(FileEntry entry, String name) {
    this.entry = entry;
    this.name = name;
  }

  /** A variable the entry does not hold so that it can be read. */
  public static final class NotIndexed extends ScienceFormatException {
    private static final long serialVersionUID = 1L;

    NotIndexed(String message) {
      super(message);
    }
  }

  @Override
  public Variable variable(String v) throws NotIndexed {
    return array(v, true).variable(name, true);
  }

  @Override
  public Variable describe(String v) throws NotIndexed {
    return described.computeIfAbsent(v, k -> array(k, true).variable(name, false));
  }

  private ArrayEntry array(String v, boolean toRead) {
    ArrayEntry a = entry.arrays().get(ArrayEntry.key(v));
    if (a == null || (toRead && a.inline() != null)) {
      throw new NotIndexed(name + ": the index holds no " + v + (a == null ? ""
          : " to read (its values only, as a coordinate)"));
    }
    return a;
  }

  /** The variables the entry holds for reading (coordinates held by their values aside). */
  @Override
  public List<String> variableNames() {
    List<String> out = new ArrayList<>();
    for (ArrayEntry a : entry.arrays().values()) {
      if (a.inline() == null) {
        out.add(a.name());
      }
    }
    return out;
  }

  @Override
  public Variable coordinate(Variable v, int d) {
    ArrayEntry a = entry.arrays().get(ArrayEntry.key(v.name()));
    String c = a == null ? null : a.coordinates().get(d);
    ArrayEntry coordinate = c == null ? null : entry.arrays().get(c);
    return coordinate == null ? null : coordinate.variable(name, false);
  }

  /** The values of an inline coordinate, from the entry; another read through {@code in}. */
  @Override
  public double[] values(Positioned in, Variable coordinate) throws IOException {
    ArrayEntry a = entry.arrays().get(ArrayEntry.key(coordinate.name()));
    if (a == null || a.inline() == null) {
      return ScienceFile.super.values(in, coordinate);
    }
    return ReferenceSet.values(a.inline(), a.type(), a.order());
  }

  @Override
  public String file() {
    return name;
  }

  @Override
  public void close() {
    // nothing held
  }
}
