package org.opass.mrap.write;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.opass.mrap.fs.InParallel;
import org.opass.mrap.fs.Renames;

/**
 * A write's work folder and its one-step publication, as the copy's: tasks write their parts
 * into {@code .<name>.mrap-write/} beside the destination ({@link PartWriter}); {@link #commit}
 * assembles the dataset there and publishes it in one rename; {@link #abort} removes the work
 * folder. A write killed at any step leaves no dataset at the destination (the old one, if it
 * replaced one), and the next write to it clears what the dead one left. NetCDF: the header and
 * coordinates are written, the variables' parts joined after them by HDFS's {@code concat}
 * (keeping every block where its task wrote it; elsewhere streamed), the length checked, and
 * the file renamed over the destination, replacing a file in the same step. Zarr: the parts'
 * chunk rows are moved into a store folder, the metadata written last, {@code .zmetadata} the
 * very last, and the folder renamed to the destination; a store it replaces is moved aside
 * first and removed after.
 */
public final class DatasetCommit {
  private static final int MOVERS = 16;
  private final Configuration conf;
  private final FileSystem fs;
  private final Path dst;
  private final Path work;
  private final boolean overwrite;

  private DatasetCommit(Configuration conf, FileSystem fs, Path dst, Path work,
      boolean overwrite) {
    this.conf = conf;
    this.fs = fs;
    this.dst = dst;
    this.work = work;
    this.overwrite = overwrite;
  }

  /**
   * Starts a write to {@code dst}: clears a dead write's work folder and makes a new one.
   *
   * @param overwrite whether an existing {@code dst} is replaced
   * @throws FileAlreadyExistsException naming {@code dst} if it exists and not {@code
   *     overwrite}
   */
  public static DatasetCommit begin(Configuration conf, Path dst, boolean overwrite)
      throws IOException {
    FileSystem fs = dst.getFileSystem(conf);
    Path d = qualified(fs, dst);
    if (!overwrite && fs.exists(d)) {
      throw new FileAlreadyExistsException(d + " exists: write elsewhere, remove it, or "
          + "replace it (Spark's mode(\"overwrite\"))");
    }
    Path work = workFolder(d);
    fs.delete(work, true);
    if (!fs.mkdirs(work)) {
      throw new IOException("could not make the work folder " + work);
    }
    return new DatasetCommit(conf, fs, d, work, overwrite);
  }

  /**
   * The write to {@code dst} that {@link #begin} started, perhaps in another process: its work
   * folder as it is, for a job whose tasks write parts into it and whose committer commits or
   * aborts it (MapReduce's {@code OutputCommitter}). Nothing is checked or changed here; {@link
   * #commit} names a part that is missing.
   */
  public static DatasetCommit resume(Configuration conf, Path dst, boolean overwrite)
      throws IOException {
    FileSystem fs = dst.getFileSystem(conf);
    Path d = qualified(fs, dst);
    return new DatasetCommit(conf, fs, d, workFolder(d), overwrite);
  }

  private static Path qualified(FileSystem fs, Path dst) {
    // rebuilt from its parts, a URI's trailing "/" (an existing folder's) is dropped: else its
    // name is empty and the work folder would lie inside the destination
    Path d = fs.makeQualified(new Path(dst.toUri().getScheme(), dst.toUri().getAuthority(),
        dst.toUri().getPath()));
    if (d.getParent() == null) {
      throw new IllegalArgumentException("a dataset cannot be written as the root " + d);
    }
    return d;
  }

  /** Where a write to {@code dst} works: a hidden folder beside it. */
  public static Path workFolder(Path dst) {
    return new Path(dst.getParent(), "." + dst.getName() + ".mrap-write");
  }

  /** The destination, qualified. */
  public Path destination() {
    return dst;
  }

  /** The folder tasks write their parts into. */
  public Path work() {
    return work;
  }

  /**
   * Assembles {@code ds} from what its parts' writers wrote ({@link PartWriter#write}'s names,
   * any order) and publishes it.
   *
   * @throws IOException naming a part none wrote, or if the destination appeared meanwhile
   */
  public void commit(OutputDataset ds, List<String> written) throws IOException {
    if (ds.kind() == OutputDataset.Kind.NETCDF) {
      publish(joinNetcdf(ds, written));
    } else {
      publish(assembleZarr(ds, written));
    }
    fs.delete(work, true);
  }

  /** Removes the work folder and whatever tasks wrote in it. */
  public void abort() {
    try {
      fs.delete(work, true);
    } catch (IOException e) {
      // the next write to the destination clears it
    }
  }

  private Path joinNetcdf(OutputDataset ds, List<String> written) throws IOException {
    Map<String, String> byPart = new HashMap<>();
    for (String name : written) {
      String[] f = name.split("\\.", 3);
      byPart.put(f[0] + "." + f[1], name);
    }
    List<Path> parts = new ArrayList<>();
    for (int v = 0; v < ds.variables().size(); v++) {
      for (int p = 0; p < ds.parts(); p++) {
        String name = byPart.get("v" + v + ".p" + p);
        if (name == null) {
          throw new IOException("part " + p + " of " + ds.variables().get(v).name()
              + " was not written");
        }
        parts.add(new Path(work, name));
      }
    }
    Netcdf3Writer nc = new Netcdf3Writer(ds);
    Path file = new Path(work, "dataset.nc");
    try (FSDataOutputStream out = fs.create(file, false)) {
      out.write(nc.head());
    }
    try {
      fs.concat(file, parts.toArray(new Path[0]));
    } catch (UnsupportedOperationException e) {
      // a file system without concat: the parts streamed after the head
      Path joined = new Path(work, "joined.nc");
      try (FSDataOutputStream out = fs.create(joined, false)) {
        copy(file, out);
        for (Path p : parts) {
          copy(p, out);
        }
      }
      fs.delete(file, false);
      file = joined;
    }
    long length = fs.getFileStatus(file).getLen();
    if (length != nc.length()) {
      throw new IOException(file + " holds " + length + " bytes, not the " + nc.length()
          + " its header says");
    }
    return file;
  }

  private void copy(Path from, FSDataOutputStream out) throws IOException {
    try (FSDataInputStream in = fs.open(from)) {
      IOUtils.copyBytes(in, out, 1 << 16, false);
    }
  }

  private Path assembleZarr(OutputDataset ds, List<String> written) throws IOException {
    Path store = new Path(work, "store");
    List<String> rows = new ArrayList<>();
    boolean[] whole = new boolean[ds.parts()];
    for (String name : written) {
      if (name.startsWith("part-")) {
        whole[Integer.parseInt(name.substring(5))] = true;
      } else {
        rows.add(name);
      }
    }
    for (int p = 0; p < whole.length; p++) {
      if (!whole[p]) {
        throw new IOException("part " + p + " of " + ds + " was not written");
      }
    }
    for (OutputVariable v : ds.variables()) {
      fs.mkdirs(new Path(store, v.name()));
    }
    InParallel.map(rows, MOVERS, "zarr commit", name -> {
      String inStore = name.substring(name.indexOf('/') + 1);
      Path to = new Path(store, inStore);
      if (!fs.rename(new Path(work, name), to)) {
        throw new IOException("could not move " + name + " to " + to);
      }
      return null;
    });
    for (OutputDimension d : ds.dimensions()) {
      try (FSDataOutputStream out = fs.create(new Path(store, d.name() + "/0"), false)) {
        out.write(ZarrWriter.coordinateChunk(d));
      }
    }
    for (Map.Entry<String, byte[]> m : ZarrWriter.metadata(ds).entrySet()) {
      try (FSDataOutputStream out = fs.create(new Path(store, m.getKey()), false)) {
        out.write(m.getValue());
      }
    }
    return store;
  }

  private void publish(Path from) throws IOException {
    boolean exists = fs.exists(dst);
    if (!exists || !overwrite) {
      rename(from, false);
    } else if (fs.getFileStatus(dst).isFile() && fs.getFileStatus(from).isFile()) {
      rename(from, true);
    } else {
      // a folder cannot be replaced in one rename: the old one moves aside, then goes
      Path old = new Path(work, "replaced");
      if (!fs.rename(dst, old)) {
        throw new IOException("could not move " + dst + " aside to replace it");
      }
      try {
        rename(from, false);
      } catch (IOException e) {
        fs.rename(old, dst);
        throw e;
      }
    }
  }

  private void rename(Path from, boolean replace) throws IOException {
    try {
      Renames.rename(conf, fs, from, dst, replace);
    } catch (FileAlreadyExistsException e) {
      throw new FileAlreadyExistsException("could not publish " + dst + ": it appeared while "
          + "the dataset was written (" + e.getMessage() + ")");
    }
  }
}
