package org.opass.mrap.format;

import java.util.Arrays;

/**
 * One filter of a chunked variable's pipeline as its file names it: an id, a name and the
 * filter's own numbers (HDF5's client data). An immutable value; what a split carries of a
 * variable's filters, to decode its chunks in the task ({@link FileFormat#filters}).
 */
public final class FilterSpec {
  private final int id;
  private final String name;
  private final int[] data;

  public FilterSpec(int id, String name, int[] data) {
    this.id = id;
    this.name = java.util.Objects.requireNonNull(name, "name");
    this.data = data.clone();
  }

  public int id() {
    return id;
  }

  public String name() {
    return name;
  }

  /** The filter's own numbers (HDF5's client data), a copy. */
  public int[] data() {
    return data.clone();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof FilterSpec)) {
      return false;
    }
    FilterSpec f = (FilterSpec) o;
    return id == f.id && name.equals(f.name) && Arrays.equals(data, f.data);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * id + name.hashCode()) + Arrays.hashCode(data);
  }

  @Override
  public String toString() {
    return name + " (id " + id + ")";
  }
}
