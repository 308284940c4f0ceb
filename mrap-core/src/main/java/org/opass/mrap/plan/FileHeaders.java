package org.opass.mrap.plan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.opass.mrap.array.Slab;
import org.opass.mrap.cf.Coordinates;
import org.opass.mrap.cf.Selection;
import org.opass.mrap.format.Attributes;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.ScienceFormatException;
import org.opass.mrap.format.SlabPlan;
import org.opass.mrap.format.Variable;
import org.opass.mrap.format.VariableTiles;
import org.opass.mrap.format.VariableValues;
import org.opass.mrap.fs.HdfsStore;
import org.opass.mrap.fs.HeaderCache;
import org.opass.mrap.fs.InParallel;
import org.opass.mrap.fs.LogicalReads;
import org.opass.mrap.fs.RestructuredFiles;
import org.opass.mrap.index.FileEntry;
import org.opass.mrap.index.IndexedFile;
import org.opass.mrap.index.SeriesIndex;
import org.opass.mrap.layout.Members;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.pattern.TiledPattern;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.settings.VariableSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each file's header read into the plan of its variable ({@link FilePlan}): eight files at a
 * time, each with a few positioned reads (a file planned before in this JVM from {@link
 * HeaderCache}); a restructured file's header through its layout, a container's members one
 * after another; with a selection by value, the coordinates read first and the chunk index only
 * of a file the selection picks something in.
 */
final class FileHeaders {
  private static final Logger LOG = LoggerFactory.getLogger(FileHeaders.class);
  /** Headers read at once. */
  static final int READERS = 8;

  private final Configuration conf;
  private final VariableSettings settings;
  private final String variable;
  private final String slab; // null: the whole variable
  private final String tile; // null: a slab
  private final Selection select; // null: by index
  private final long recordBytes;
  private final List<String> readWith;
  private final AtomicBoolean warned = new AtomicBoolean();
  private final AtomicBoolean warnedIndex = new AtomicBoolean();
  private final AtomicInteger fromIndex = new AtomicInteger();
  private final AtomicInteger fallbacks = new AtomicInteger();
  private SeriesIndex index; // with mrap.science.index, once read
  private volatile SeriesIndex.Reader entries; // the index's, while a read plans
  // files a selection misses by the index's extremes, by path, while a read plans
  private final java.util.Map<String, Coordinates.Axis> missed =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** {@code conf}: the file systems'; {@code settings}: the read's, checked. */
  FileHeaders(Configuration conf, VariableSettings settings) {
    this.conf = conf;
    this.settings = settings;
    this.variable = settings.variable();
    this.slab = settings.slab();
    this.tile = settings.tile();
    this.select = settings.selection();
    this.recordBytes = settings.access().recordBytes();
    this.readWith = settings.readWith();
  }

  /** The plans of each of {@code files}, in order: one, or a container's members'. */
  List<List<FilePlan>> read(List<FileStatus> files) throws IOException {
    if (settings.index() != null && index == null) {
      try {
        index = SeriesIndex.open(conf, new Path(settings.index()));
      } catch (IOException e) {
        throw new InvalidSettingsException(VariableSettings.INDEX + "=" + settings.index()
            + ": " + e.getMessage(), e);
      }
    }
    List<List<FilePlan>> out;
    if (index == null) {
      out = InParallel.map(files, READERS, "headers", this::planFile);
    } else {
      try (SeriesIndex.Reader r = index.reader(conf)) {
        entries = r;
        List<FileStatus> needed = new ArrayList<>(); // the entries this read will parse
        for (FileStatus f : files) {
          Coordinates.Axis extremes = missed(f);
          if (extremes == null) {
            needed.add(f);
          } else {
            missed.put(f.getPath().toString(), extremes);
          }
        }
        r.prefetch(needed);
        out = InParallel.map(files, READERS, "headers", this::planFile);
      } finally {
        entries = null;
        missed.clear();
      }
    }
    if (index != null) {
      LOG.info("{}={}: planned {} files from the index, {} from their own headers",
          VariableSettings.INDEX, settings.index(), fromIndex.get(), fallbacks.get());
    }
    return out;
  }

  /** Files planned from the index by the last {@link #read}. */
  int fromIndex() {
    return fromIndex.get();
  }

  /** Files of the last {@link #read} whose header was read though an index was given. */
  int fallbacks() {
    return fallbacks.get();
  }

  /** The plans of one file: one, or a container's members'. */
  private List<FilePlan> planFile(FileStatus f) throws IOException {
    long t0 = System.nanoTime();
    String name = f.getPath().toString();
    if (index != null) {
      StringBuilder why = new StringBuilder();
      Coordinates.Axis extremes = missed.get(name);
      if (extremes != null) { // its entry need not be read
        fromIndex.incrementAndGet();
        return List.of(FilePlan.missed(new FilePlan.Source(RestructuredFiles.plain(f), name, 0),
            new Coordinates(List.of(extremes)), System.nanoTime() - t0));
      }
      FileEntry entry = entries.entry(f, why);
      if (entry != null && !entry.kind().equals(settings.kind().key())) {
        why.append("indexed as kind ").append(entry.kind()).append(", read as ")
            .append(settings.kind().key());
        entry = null;
      }
      if (entry != null) {
        try (LazyFile file = new LazyFile(f, conf);
            ScienceFile sf = new IndexedFile(entry, name)) {
          FilePlan p = planVariable(sf, file, new FilePlan.Source(RestructuredFiles.plain(f),
              name, 0), 0, t0);
          fromIndex.incrementAndGet();
          return List.of(p);
        } catch (IndexedFile.NotIndexed e) {
          why.append(e.getMessage());
        }
      }
      fallbacks.incrementAndGet();
      if (warnedIndex.compareAndSet(false, true)) {
        LOG.warn("{}={}: {}: {}; its header is read (said once for this read)",
            VariableSettings.INDEX, settings.index(), name, why);
      }
    }
    if (ScienceFiles.stores(settings.kind())) {
      return List.of(planStore(f, name, t0));
    }
    FileSystem fs = f.getPath().getFileSystem(conf);
    try (FSDataInputStream in = fs.open(f.getPath())) {
      Positioned plain = HeaderCache.of(in, f); // a file planned before: no read again
      // one read of the front tells a restructured file, and holds most headers
      byte[] head = plain.keepHead(ScienceFiles.HEAD);
      RestructuredFiles.Inspected inspected = RestructuredFiles.inspect(in, f, head);
      RestructuredLayout layout = inspected.layout();
      if (layout == null) {
        return List.of(planVariable(plain, new FilePlan.Source(inspected, name, 0), 0, t0));
      }
      // a restructured file's header is read at its original offsets, through its layout
      LogicalReads original = new LogicalReads(in, layout, 64 * 1024);
      Members members = layout.members();
      if (members == null) {
        return List.of(planVariable(Positioned.window(original::read, 0,
            layout.logicalLength()), new FilePlan.Source(inspected, name, 0), plain.reads(),
            t0));
      }
      List<FilePlan> out = new ArrayList<>();
      for (int i = 0; i < members.count(); i++) { // a container: each member's header
        out.add(planVariable(Positioned.window(original::read, members.start(i),
            members.length(i)), new FilePlan.Source(inspected, name + "/" + members.name(i),
            members.start(i)), i == 0 ? plain.reads() : 0, i == 0 ? t0 : System.nanoTime()));
      }
      return out;
    }
  }

  /**
   * The plan of a store's variable (a Zarr store, a folder): its metadata read through the
   * store, the store seen as one file of the variable's chunks at their addresses, with their
   * blocks.
   */
  private FilePlan planStore(FileStatus f, String name, long t0) throws IOException {
    StoreInput in;
    try {
      in = StoreInput.open(conf, f, settings.kind());
    } catch (ScienceFormatException e) {
      throw new InvalidSettingsException(VariableSettings.VARIABLE + "=" + variable + ": "
          + e.getMessage(), e);
    }
    try (StoreInput open = in) {
      FilePlan p = planVariable(open.file(), Positioned.window((pos, b, off, len) -> {
        throw new java.io.EOFException(name + " is a store, not a file");
      }, 0, 0), new FilePlan.Source(RestructuredFiles.plain(f), name, 0), 0, t0);
      HdfsStore files = open.files();
      // the blocks of the chunks read (the slab's), not of every chunk of the array
      Variable.Chunks chunks = p.plan() != null && p.plan().chunks() != null
          ? p.plan().chunks() : Variable.Chunks.none();
      if (!chunks.placed()) {
        return p.inStore(f, new org.apache.hadoop.fs.BlockLocation[0], files.reads());
      }
      return p.inStore(files.asFile(f, chunks), files.blocks(chunks), files.reads());
    }
  }

  /**
   * The extremes of a coordinate of {@code f}, as the index holds them fresh, that the
   * selection misses; null where there are none (or no selection, or no fresh entry).
   */
  private Coordinates.Axis missed(FileStatus f) {
    if (select == null || !index.fresh(f, new StringBuilder())) {
      return null;
    }
    for (String dim : select.dimensions()) {
      Coordinates.Axis extremes = index.extremes(f, dim);
      if (extremes != null && select.misses(extremes)) {
        return extremes;
      }
    }
    return null;
  }

  /** The plan of one file's (or member's) variable, its header read through {@code file}. */
  private FilePlan planVariable(Positioned file, FilePlan.Source source, long readsBefore,
      long t0) throws IOException {
    ScienceFile sf;
    try {
      sf = ScienceFiles.open(file, source.name, settings.kind());
    } catch (ScienceFormatException e) {
      throw new InvalidSettingsException(VariableSettings.VARIABLE + "=" + variable + ": "
          + e.getMessage(), e);
    }
    try (ScienceFile open = sf) {
      return planVariable(open, file, source, readsBefore, t0);
    }
  }

  /**
   * The plan of one file's (or member's) variable, from its header {@code sf} (its bytes {@code
   * file}). With a selection by value, the variable's chunk index is read only once the file's
   * coordinates show the selection picks something in it.
   */
  private FilePlan planVariable(ScienceFile sf, Positioned file, FilePlan.Source source,
      long readsBefore, long t0) throws IOException {
    String name = source.name;
    Variable v;
    List<Coordinates.Axis> axes;
    List<Variable> with;
    Slab s;
    Selection.Resolved selected = null;
    try {
      v = select == null ? sf.variable(variable) : sf.describe(variable);
      if (select != null) {
        checkSelected(sf, v, name);
      }
      axes = axes(sf, file, v, name);
      if (select != null) {
        try {
          selected = select.resolve(v.shape(), axes);
        } catch (IllegalArgumentException e) {
          throw new InvalidSettingsException(VariableSettings.SELECT + "=" + select + ": "
              + name + ": " + e.getMessage(), e);
        }
        if (selected.slab() == null) {
          return FilePlan.header(source, v, new Coordinates(axes), selected,
              readsBefore + file.reads(), System.nanoTime() - t0);
        }
        v = sf.variable(variable); // now its chunks
      }
      with = readWith(sf, v, name);
    } catch (IndexedFile.NotIndexed e) {
      throw e;
    } catch (ScienceFormatException e) {
      throw new InvalidSettingsException(VariableSettings.VARIABLE + "=" + variable + ": "
          + e.getMessage(), e);
    }
    if (selected != null) {
      s = selected.slab();
    } else {
      try {
        s = Slab.parse(slab, v.shape());
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw new InvalidSettingsException(VariableSettings.SLAB + "=" + slab + " does not fit "
            + name + "'s " + v + ": " + e.getMessage(), e);
      }
    }
    Coordinates coordinates = new Coordinates(axes).window(s.bounds());
    TiledPattern tiles = null;
    if (tile != null) {
      try {
        tiles = VariableTiles.of(v, tile);
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw new InvalidSettingsException(VariableSettings.TILE + "=" + tile + ": "
            + e.getMessage(), e);
      }
    }
    SlabPlan plan;
    try {
      plan = SlabPlan.of(v, s, recordBytes);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new InvalidSettingsException(VariableSettings.VARIABLE + "=" + variable + ": "
          + name + ": " + v + " cannot be planned: " + e.getMessage(), e);
    }
    return FilePlan.header(source, v, coordinates, selected, readsBefore + file.reads(),
        System.nanoTime() - t0).planned(plan, tiles, with);
  }

  /**
   * The variables read with {@code v}, their chunk indexes read.
   *
   * @throws InvalidSettingsException naming the file and the variable that is missing or lies
   *     on another grid than {@code v}
   */
  private List<Variable> readWith(ScienceFile sf, Variable v, String name) throws IOException {
    List<Variable> out = new ArrayList<>();
    for (String w : readWith) {
      Variable other;
      try {
        other = sf.variable(w);
      } catch (IndexedFile.NotIndexed e) {
        throw e;
      } catch (ScienceFormatException e) {
        throw new InvalidSettingsException(name + ": " + w + ", read with " + v.name() + ": "
            + e.getMessage(), e);
      }
      if (!other.dimensions().equals(v.dimensions())
          || !Arrays.equals(other.shape(), v.shape())) {
        throw new InvalidSettingsException(name + ": " + w + " lies on "
            + grid(other) + ", " + v.name() + " on " + grid(v) + ": variables read together "
            + "share their dimensions; read " + w + " apart");
      }
      out.add(other);
    }
    return out;
  }

  private static String grid(Variable v) {
    StringBuilder b = new StringBuilder("(");
    for (int d = 0; d < v.rank(); d++) {
      b.append(d == 0 ? "" : ", ").append(v.dimensions().size() > d ? v.dimensions().get(d)
          : "?").append('=').append(v.shape()[d]);
    }
    return b.append(')').toString();
  }

  /**
   * Refuses, naming them, the dimensions of the selection that {@code v} does not have: a 2-D
   * (curvilinear) coordinate, or a name that is no dimension of it.
   */
  private void checkSelected(ScienceFile sf, Variable v, String name) throws IOException {
    for (String dim : select.dimensions()) {
      if (v.dimensions().contains(dim)) {
        continue;
      }
      Variable other = null;
      try {
        other = sf.variable(dim);
      } catch (ScienceFormatException e) {
        // no variable of that name either
      }
      if (other != null && other.rank() > 1) {
        throw new InvalidSettingsException(VariableSettings.SELECT + "=" + select + ": " + name
            + ": " + dim + " is a " + other.rank() + "-D (curvilinear) coordinate "
            + other.dimensions() + "; selection by value reads 1-D coordinates only (select its "
            + "grid's dimensions by index with " + VariableSettings.SLAB + ")");
      }
      throw new InvalidSettingsException(VariableSettings.SELECT + "=" + select + ": " + name
          + ": " + v.name() + " has no dimension " + dim + "; its dimensions: "
          + String.join(", ", v.dimensions()));
    }
  }

  /**
   * Each dimension's coordinate values, read whole: those of its 1-D coordinate variable, none
   * where it has none. A coordinate that cannot be carried (over {@link
   * VariableValues#MAX_ELEMENTS} elements, or a time in a calendar not read) is refused where
   * the selection names it, else left out (too long) or carried as plain numbers, logged once.
   */
  private List<Coordinates.Axis> axes(ScienceFile sf, Positioned file, Variable v, String name)
      throws IOException {
    List<Coordinates.Axis> out = new ArrayList<>();
    for (int d = 0; d < v.rank(); d++) {
      String dim = v.dimensions().get(d);
      boolean selected = select != null && select.dimensions().contains(dim);
      Variable c = dim.isEmpty() ? null : sf.coordinate(v, d);
      if (c == null || c.rank() != 1) {
        out.add(Coordinates.Axis.none(dim));
        continue;
      }
      if (c.shape()[0] > VariableValues.MAX_ELEMENTS) {
        String why = "the coordinate " + dim + " has " + c.shape()[0] + " values, more than "
            + VariableValues.MAX_ELEMENTS + " a read carries";
        if (selected) {
          throw new InvalidSettingsException(VariableSettings.SELECT + "=" + select + ": "
              + name + ": " + why);
        }
        warnOnce(name, why + ": records give its indices");
        out.add(Coordinates.Axis.none(dim));
        continue;
      }
      double[] values = sf.values(file, c);
      Attributes a = c.attributes();
      try {
        out.add(new Coordinates.Axis(dim, 0, values, a.text("units"), a.text("calendar"),
            a.text("standard_name")));
      } catch (IllegalArgumentException e) {
        if (selected) {
          throw new InvalidSettingsException(VariableSettings.SELECT + "=" + select + ": "
              + name + ": " + e.getMessage(), e);
        }
        warnOnce(name, e.getMessage() + ": its values are carried as plain numbers");
        out.add(new Coordinates.Axis(dim, 0, values, null, null, a.text("standard_name")));
      }
    }
    return out;
  }

  /**
   * A file opened at its first read, for what an index does not hold inline (a coordinate too
   * long): an indexed file costs no read unless it needs one.
   */
  private static final class LazyFile extends Positioned implements java.io.Closeable {
    private final FileStatus status;
    private final Configuration conf;
    private FSDataInputStream in;

    LazyFile(FileStatus status, Configuration conf) {
      this.status = status;
      this.conf = conf;
    }

    @Override
    public long length() {
      return status.getLen();
    }

    @Override
    protected int readAt(long pos, byte[] b, int off, int len) throws IOException {
      if (in == null) {
        in = status.getPath().getFileSystem(conf).open(status.getPath());
      }
      return in.read(pos, b, off, len);
    }

    @Override
    public void close() throws IOException {
      if (in != null) {
        in.close();
      }
    }
  }

  /** Logs the first of a read's warnings about its coordinates (a series has many files). */
  private void warnOnce(String file, String what) {
    if (warned.compareAndSet(false, true)) {
      LOG.warn("{}: {} (said once for this read)", file, what);
    }
  }
}
