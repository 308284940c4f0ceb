package org.opass.mrap.format;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;

/**
 * A file of one {@link FileFormat}, opened once to describe several of its variables: a variable
 * by name, and the coordinate variable of a variable's dimension, each from the header reads
 * already made (the pages of metadata read are kept while it is open and not read again). Not
 * for use by several threads at once.
 */
public interface ScienceFile extends Closeable {
  /**
   * The variable {@code name}, its chunk index read, with its dimensions' names and the
   * attributes CF uses ({@link Variable#attributes}).
   *
   * @throws ScienceFormatException naming the file and the variable where the file has no such
   *     variable or holds it in a way this reader does not read
   */
  Variable variable(String name) throws IOException;

  /**
   * The variable {@code name} as {@link #variable} gives it, but for its chunks: a chunked
   * variable's chunk index is not read (its chunks none), so that its shape, dimensions and
   * attributes cost only the reads of its own header. {@link #variable} reads the index after
   * it without reading again what this read.
   */
  Variable describe(String name) throws IOException;

  /** The names of the file's variables (an HDF5 file's datasets, by path), in file order. */
  List<String> variableNames() throws IOException;

  /**
   * The coordinate variable of dimension {@code d} of {@code v} (a variable of this file), a
   * one-dimensional variable with its own dimensions' names and attributes, or null where that
   * dimension has none.
   *
   * @throws ScienceFormatException naming the file where the coordinate is a variable this reader
   *     does not read, or the metadata is damaged
   */
  Variable coordinate(Variable v, int d) throws IOException;

  /**
   * The values of {@code coordinate} (a variable {@link #coordinate} gave), read through {@code
   * in}, this file's bytes.
   *
   * @throws ScienceFormatException naming the variable where it holds more than {@link
   *     VariableValues#MAX_ELEMENTS} elements
   */
  default double[] values(Positioned in, Variable coordinate) throws IOException {
    return VariableValues.read(in, coordinate);
  }

  /** The file's name, as given when it was opened. */
  String file();

  @Override
  void close();
}
