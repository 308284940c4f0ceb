package org.opass.mrap.fs;

import java.io.Closeable;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.opass.mrap.format.ObjectStore;
import org.opass.mrap.format.ScienceFormatException;
import org.opass.mrap.format.Variable;

/**
 * A folder of a Hadoop file system as an {@link ObjectStore}: a key is a path under the folder,
 * an object a file; a listing is one recursive listing with the files' blocks, kept for {@link
 * #blocks}; objects are opened once while the store is (at most {@value #OPEN} at a time). An
 * object named by a URI or an absolute path (a reference set's) is that file. Counts its reads.
 */
public final class HdfsStore implements ObjectStore, Closeable {
  /**
   * A store packed by {@code mrap-copy -pack}: the reference set in its folder, beside its
   * containers, that stands for it.
   */
  public static final String PACKED_SET = "refs.json";
  /** Streams kept open at once. */
  static final int OPEN = 16;

  private final Configuration conf;
  private final FileSystem fs;
  private final Path root;
  private final Map<String, BlockLocation[]> located = new HashMap<>();
  private final Map<String, FSDataInputStream> open =
      new LinkedHashMap<String, FSDataInputStream>(OPEN, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, FSDataInputStream> e) {
          if (size() > OPEN) {
            quietly(e.getValue());
            return true;
          }
          return false;
        }
      };
  private long reads;

  /** The store at {@code root}, read through {@code conf}'s file systems. */
  public HdfsStore(Configuration conf, Path root) throws IOException {
    this.conf = conf;
    this.fs = root.getFileSystem(conf);
    this.root = fs.makeQualified(root);
  }

  @Override
  public String name() {
    return root.toString();
  }

  /** The file an object names: a key under the folder, or a URI / absolute path. */
  public Path path(String object) {
    return object.startsWith("/") || object.matches("[A-Za-z][A-Za-z0-9+.-]*:.*")
        ? new Path(object) : new Path(root, object);
  }

  @Override
  public byte[] get(String key, int max) throws IOException {
    FSDataInputStream in;
    try {
      in = stream(key);
    } catch (FileNotFoundException e) {
      return null;
    }
    reads++;
    byte[] buf = new byte[8192];
    int n = 0;
    in.seek(0);
    while (true) {
      if (n == buf.length) {
        if (n > max) {
          throw new ScienceFormatException(name() + ": " + key + " holds more than " + max
              + " bytes, more than metadata may");
        }
        buf = Arrays.copyOf(buf, Math.min(2 * n, max + 1));
      }
      int r = in.read(buf, n, buf.length - n);
      if (r < 0) {
        break;
      }
      n += r;
    }
    if (n > max) {
      throw new ScienceFormatException(name() + ": " + key + " holds more than " + max
          + " bytes, more than metadata may");
    }
    return Arrays.copyOf(buf, n);
  }

  @Override
  public SortedMap<String, Place> list(String prefix) throws IOException {
    int slash = prefix.lastIndexOf('/');
    String folder = slash < 0 ? "" : prefix.substring(0, slash);
    SortedMap<String, Place> out = new TreeMap<>();
    Path dir = folder.isEmpty() ? root : new Path(root, folder);
    reads++;
    String base = root.toUri().getPath();
    try {
      listInto(fs.listFiles(dir, true), base, prefix, out);
    } catch (FileNotFoundException e) {
      return out; // no such folder: no keys (HDFS says so at the first page, or before)
    }
    return out;
  }

  private void listInto(RemoteIterator<LocatedFileStatus> it, String base, String prefix,
      SortedMap<String, Place> out) throws IOException {
    while (it.hasNext()) {
      LocatedFileStatus f = it.next();
      String p = f.getPath().toUri().getPath();
      if (!p.startsWith(base + "/")) {
        continue;
      }
      String key = p.substring(base.length() + 1);
      if (key.startsWith(prefix)) {
        out.put(key, new Place(key, 0, f.getLen()));
        located.put(key, f.getBlockLocations());
      }
    }
  }

  @Override
  public void readFully(String object, long pos, byte[] b, int off, int len)
      throws IOException {
    FSDataInputStream in = stream(object);
    reads++;
    try {
      in.readFully(pos, b, off, len);
    } catch (EOFException e) {
      EOFException named = new EOFException(path(object) + " ends before byte " + (pos + len)
          + " (" + len + " bytes at " + pos + "): it is shorter than when its store was "
          + "planned");
      named.initCause(e);
      throw named;
    }
  }

  private FSDataInputStream stream(String object) throws IOException {
    if (object.startsWith(INLINE)) {
      throw new ScienceFormatException(name() + ": " + object.substring(INLINE.length())
          + " is a chunk of values held inline in a reference set; a task reads chunks from "
          + "files: write the set with references for its variables' chunks");
    }
    FSDataInputStream in = open.get(object);
    if (in == null) {
      Path p = path(object);
      in = p.getFileSystem(conf).open(p);
      open.put(object, in);
    }
    return in;
  }

  /** Reads and listings made so far. */
  public long reads() {
    return reads;
  }

  /**
   * The blocks of {@code chunks} (placed in this store's objects) at their addresses: each
   * chunk's run of the blocks of its object that hold it, hosts as HDFS gives them; chunks one
   * after another on the same hosts joined into one block. A listing's files cost no call; any
   * other object one, once.
   */
  public BlockLocation[] blocks(Variable.Chunks chunks) throws IOException {
    List<BlockLocation> out = new ArrayList<>();
    for (int i = 0; i < chunks.count(); i++) {
      String o = chunks.object(i);
      BlockLocation[] bl = located.get(o);
      if (bl == null) {
        Path p = path(o);
        FileSystem ofs = p.getFileSystem(conf);
        FileStatus st = ofs.getFileStatus(p);
        bl = ofs.getFileBlockLocations(st, 0, st.getLen());
        located.put(o, bl);
        reads++;
      }
      long from = chunks.objectOffset(i);
      long to = from + chunks.size(i);
      for (BlockLocation b : bl) {
        long lo = Math.max(from, b.getOffset());
        long hi = Math.min(to, b.getOffset() + b.getLength());
        if (hi <= lo && !(chunks.size(i) == 0 && lo == from)) {
          continue;
        }
        long at = chunks.address(i) + (lo - from);
        BlockLocation last = out.isEmpty() ? null : out.get(out.size() - 1);
        if (last != null && last.getOffset() + last.getLength() == at
            && Arrays.equals(last.getHosts(), b.getHosts())) {
          last.setLength(last.getLength() + (hi - lo));
        } else {
          out.add(new BlockLocation(b.getNames(), b.getHosts(), b.getTopologyPaths(), at,
              hi - lo));
        }
      }
    }
    return out.toArray(new BlockLocation[0]);
  }

  /**
   * The store seen as one file of {@code chunks}' addresses, as a plan's tasks record it: the
   * folder's path and modification time, the chunks' bytes, and a block size of the file
   * system's.
   */
  public FileStatus asFile(FileStatus folder, Variable.Chunks chunks) {
    long end = 0;
    for (int i = 0; i < chunks.count(); i++) {
      end = Math.max(end, chunks.address(i) + chunks.size(i));
    }
    return new FileStatus(end, false, 1, fs.getDefaultBlockSize(root),
        folder.getModificationTime(), folder.getPath());
  }

  /** What a Zarr store's root holds, one of which tells a store from another folder. */
  private static final List<String> MARKERS = List.of("zarr.json", ".zgroup", ".zarray",
      ".zmetadata");

  /**
   * The stores {@code inputs} name (globs allowed): each a folder holding a store's metadata at
   * its root, or a folder of such folders (a series of stores), in path order.
   *
   * @throws FileNotFoundException naming an input that matches nothing
   */
  public static List<FileStatus> stores(Configuration conf, Path... inputs) throws IOException {
    List<FileStatus> out = new ArrayList<>();
    for (Path in : inputs) {
      FileSystem fs = in.getFileSystem(conf);
      FileStatus[] matched = fs.globStatus(in);
      if (matched == null || matched.length == 0) {
        throw new FileNotFoundException("input " + in + " matches no store");
      }
      Arrays.sort(matched);
      for (FileStatus m : matched) {
        if (!m.isDirectory() || isStore(fs, m.getPath())) {
          out.add(m); // a file: refused by name when its metadata is read
          continue;
        }
        Path packed = new Path(m.getPath(), PACKED_SET);
        if (fs.exists(packed)) { // packed by mrap-copy: its set stands for it
          out.add(fs.getFileStatus(packed));
          continue;
        }
        FileStatus[] children = fs.listStatus(m.getPath());
        Arrays.sort(children);
        int before = out.size();
        for (FileStatus c : children) {
          if (c.isDirectory() && isStore(fs, c.getPath())) {
            out.add(c);
          } else if (c.isDirectory() && fs.exists(new Path(c.getPath(),
              PACKED_SET))) {
            out.add(fs.getFileStatus(new Path(c.getPath(), PACKED_SET)));
          }
        }
        if (out.size() == before) {
          throw new FileNotFoundException(m.getPath() + " is no store: it holds none of "
              + String.join(", ", MARKERS) + ", nor folders that do");
        }
      }
    }
    return out;
  }

  /** Whether {@code folder} holds a Zarr store's metadata at its root. */
  public static boolean isStore(FileSystem fs, Path folder) throws IOException {
    for (String m : MARKERS) {
      if (fs.exists(new Path(folder, m))) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() {
    for (FSDataInputStream in : open.values()) {
      quietly(in);
    }
    open.clear();
  }

  private static void quietly(Closeable c) {
    try {
      c.close();
    } catch (IOException e) {
      // a stream only read
    }
  }
}
