package org.opass.mrap.copy;

import org.apache.hadoop.fs.Path;
import org.opass.mrap.layout.RestructuredLayout;

/**
 * One copy as it is written: its source, the destination's layout (null: a plain copy) and
 * length, the destination, the work files it is written into before it is published (the file
 * and the part files of its chunks), and what was asked of it. An immutable value the ways of
 * writing (one stream, {@link ThreadedCopy}, {@link ParallelCopy}) share.
 */
final class CopyWork {
  final SourceFile source;
  final RestructuredLayout layout;
  final long physicalLength;
  final Path dst;
  final CopySettings settings;
  final CopyOptions options;
  final Path temp; // the copy before it is published; null until placed
  final Path parts; // the folder of its chunks' part files

  /** The copy of {@code source} to {@code dst} as {@code layout} (null: plainly). */
  CopyWork(SourceFile source, RestructuredLayout layout, Path dst, CopySettings settings,
      CopyOptions options) {
    this.source = source;
    this.layout = layout;
    this.physicalLength = layout != null ? layout.physicalLength() : source.length();
    this.dst = dst;
    this.settings = settings;
    this.options = options;
    this.temp = null;
    this.parts = null;
  }

  private CopyWork(CopyWork w, Path dst, Path temp, Path parts) {
    this.source = w.source;
    this.layout = w.layout;
    this.physicalLength = w.physicalLength;
    this.dst = dst;
    this.settings = w.settings;
    this.options = w.options;
    this.temp = temp;
    this.parts = parts;
  }

  /** This copy to {@code dst} (qualified), written into {@code temp} and {@code parts}. */
  CopyWork placed(Path qualified, Path temp, Path parts) {
    return new CopyWork(this, qualified, temp, parts);
  }
}
