package org.opass.mrap.copy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.opass.mrap.fs.HdfsStore;
import org.opass.mrap.fs.InParallel;
import org.opass.mrap.index.ReferenceStore;

/**
 * A Zarr store copied into a file system, as a store (its objects as they are), or packed: each
 * array's chunk objects in a container ({@code chunks-00000}, ..., thesis §4.4.3's container of
 * small files), none that fits in a block crossing a block's end, written as block-sized parts
 * side by side and joined by HDFS's {@code concat}; and a kerchunk reference set ({@code refs.json})
 * holding the metadata inline and, for each chunk key, its container, offset and length, with
 * each container's length and CRC32C. A store of a million chunk files then costs the NameNode a
 * file an array; MRAP reads the set as the store ({@code mrap.pattern.kind=zarr}), xarray
 * through fsspec's {@code reference://}. Written into a hidden folder beside the destination,
 * checked (lengths; the containers' CRC32C against HDFS's composite CRC), and published in one
 * rename; a copy stopped at any point leaves at most that folder.
 */
public final class ZarrStoreCopy {
  /** What a packed store's containers are named after. */
  static final String CONTAINER = "chunks-";
  private static final ObjectMapper JSON = new ObjectMapper();

  private ZarrStoreCopy() {
  }

  /** What a copy did. */
  public static final class Result {
    final Path destination;
    final long objects;
    final long files;
    final long bytes;

    Result(Path destination, long objects, long files, long bytes) {
      this.destination = destination;
      this.objects = objects;
      this.files = files;
      this.bytes = bytes;
    }

    /** The source store's objects. */
    public long objects() {
      return objects;
    }

    /** Files written at the destination (a packed store's containers and its set). */
    public long files() {
      return files;
    }

    /** Bytes written. */
    public long bytes() {
      return bytes;
    }

    public Path destination() {
      return destination;
    }
  }

  /** Whether {@code src} is a Zarr store's folder. */
  public static boolean isStore(Configuration conf, Path src) throws IOException {
    FileSystem fs = src.getFileSystem(conf);
    FileStatus st;
    try {
      st = fs.getFileStatus(src);
    } catch (java.io.FileNotFoundException e) {
      return false;
    }
    return st.isDirectory() && HdfsStore.isStore(fs, src);
  }

  /**
   * Copies the store {@code src} to {@code dst}, which must not exist, packed or as it is.
   *
   * @throws CopyException (usage) naming an existing destination, and with {@code overwrite}
   *     saying why a store is not replaced
   */
  public static Result copy(Configuration conf, Path src, Path dst, boolean pack,
      boolean overwrite) throws IOException {
    FileSystem srcFs = src.getFileSystem(conf);
    FileSystem dstFs = dst.getFileSystem(conf);
    Path target = dstFs.makeQualified(dst);
    if (dstFs.exists(target)) { // a folder is not replaced in one rename: never neither
      throw new CopyException(true, target + " exists: name a new destination"
          + (overwrite ? "; a store is not overwritten (HDFS renames no folder over another "
          + "in one step): remove it first" : ""));
    }
    CopySettings settings = CopySettings.of(conf, dstFs, target);
    Path work = new Path(target.getParent(), "." + target.getName() + ".mrap-copy");
    dstFs.delete(work, true); // what a stopped copy to this destination left
    try {
      TreeMap<String, FileStatus> objects = list(srcFs, srcFs.makeQualified(src));
      Result r = pack ? pack(conf, srcFs, objects, dstFs, work, target, settings)
          : asItIs(srcFs, objects, dstFs, work, target, settings);
      Publisher.publish(conf, dstFs, work, target, false);
      return r;
    } catch (IOException | RuntimeException e) {
      Publisher.quietDelete(dstFs, work);
      throw e;
    }
  }

  private static TreeMap<String, FileStatus> list(FileSystem fs, Path root) throws IOException {
    TreeMap<String, FileStatus> out = new TreeMap<>();
    String base = root.toUri().getPath();
    for (RemoteIterator<LocatedFileStatus> it = fs.listFiles(root, true); it.hasNext(); ) {
      LocatedFileStatus f = it.next();
      out.put(f.getPath().toUri().getPath().substring(base.length() + 1), f);
    }
    return out;
  }

  /** The store's objects copied one a file, {@code threads} at a time, lengths checked. */
  private static Result asItIs(FileSystem srcFs, TreeMap<String, FileStatus> objects,
      FileSystem dstFs, Path work, Path target, CopySettings s) throws IOException {
    List<Map.Entry<String, FileStatus>> all = new ArrayList<>(objects.entrySet());
    long bytes = 0;
    for (FileStatus f : objects.values()) {
      bytes += f.getLen();
    }
    InParallel.map(all, s.threads, "zarr objects", e -> {
      Path to = new Path(work, e.getKey());
      try (InputStream in = srcFs.open(e.getValue().getPath());
          OutputStream out = dstFs.create(to, false)) {
        in.transferTo(out);
      }
      if (dstFs.getFileStatus(to).getLen() != e.getValue().getLen()) {
        throw new CopyException(false, "the copy of " + e.getKey() + " does not hold its "
            + e.getValue().getLen() + " bytes; nothing was published");
      }
      return null;
    });
    return new Result(target, objects.size(), objects.size(), bytes);
  }

  private static boolean isMetadata(String key) {
    String name = key.substring(key.lastIndexOf('/') + 1);
    return name.equals(".zarray") || name.equals(".zattrs") || name.equals(".zgroup")
        || name.equals(".zmetadata") || name.equals("zarr.json");
  }

  /**
   * An array's container: its chunk objects in key order, each at an offset such that none
   * that fits in a block crosses a block's end (the rest of a block is left zero), written as
   * block-sized parts side by side and joined by HDFS's {@code concat}.
   */
  private static final class Container {
    final String name;
    final List<String> keys = new ArrayList<>();
    final List<Long> starts = new ArrayList<>();
    long length;
    int[] partCrcs;
    int crc;

    Container(String name) {
      this.name = name;
    }

    /** Places an object of {@code len} bytes after the others, within a block if it fits. */
    void add(String key, long len, long block) {
      long at = length;
      if (len <= block && at % block + len > block) {
        at = (at / block + 1) * block;
      }
      keys.add(key);
      starts.add(at);
      length = at + len;
    }

    int parts(long block) {
      return (int) Math.max(1, (length + block - 1) / block);
    }
  }

  private static Result pack(Configuration conf, FileSystem srcFs,
      TreeMap<String, FileStatus> objects, FileSystem dstFs, Path work, Path target,
      CopySettings s) throws IOException {
    ObjectNode refs = JSON.createObjectNode();
    java.util.TreeSet<String> arrays = new java.util.TreeSet<>();
    for (String key : objects.keySet()) {
      String name = key.substring(key.lastIndexOf('/') + 1);
      if (name.equals(".zarray") || name.equals("zarr.json")) {
        arrays.add(key.contains("/") ? key.substring(0, key.lastIndexOf('/')) : "");
      }
    }
    // a container an array, its chunks in key order
    Map<String, Container> byArray = new TreeMap<>();
    List<Container> containers = new ArrayList<>();
    for (Map.Entry<String, FileStatus> e : objects.entrySet()) {
      String key = e.getKey();
      if (isMetadata(key)) {
        byte[] b;
        try (InputStream in = srcFs.open(e.getValue().getPath())) {
          b = in.readAllBytes();
        }
        refs.put(key, new String(b, StandardCharsets.UTF_8));
        continue;
      }
      String array = "";
      for (String a : arrays) { // the longest array path the key lies under
        if (key.startsWith(a + "/") && a.length() >= array.length()) {
          array = a;
        }
      }
      Container c = byArray.get(array);
      if (c == null) {
        c = new Container(String.format(java.util.Locale.ROOT, CONTAINER + "%05d",
            containers.size()));
        byArray.put(array, c);
        containers.add(c);
      }
      c.add(key, e.getValue().getLen(), s.blockSize);
    }
    boolean concat = dstFs instanceof org.apache.hadoop.hdfs.DistributedFileSystem;
    List<int[]> parts = new ArrayList<>(); // (container, part) pairs, written side by side
    long bytes = 0;
    for (int i = 0; i < containers.size(); i++) {
      Container c = containers.get(i);
      int n = concat ? c.parts(s.blockSize) : 1;
      c.partCrcs = new int[n];
      for (int k = 0; k < n; k++) {
        parts.add(new int[] {i, k});
      }
      bytes += c.length;
    }
    List<Integer> crcs = InParallel.map(parts, s.threads, "zarr parts", part -> {
      Container c = containers.get(part[0]);
      int k = part[1];
      long lo = concat ? k * s.blockSize : 0;
      long hi = concat ? Math.min(c.length, lo + s.blockSize) : c.length;
      Path to = concat ? Parts.part(new Path(work, ".parts-" + c.name), k)
          : new Path(work, c.name);
      return writeRange(srcFs, objects, c, lo, hi, dstFs, to, s);
    });
    for (int j = 0; j < parts.size(); j++) {
      containers.get(parts.get(j)[0]).partCrcs[parts.get(j)[1]] = crcs.get(j);
    }
    for (Container c : containers) {
      Path file = new Path(work, c.name);
      if (concat) {
        c.crc = Parts.join(dstFs, new Path(work, ".parts-" + c.name), file, s.blockSize,
            c.length, c.partCrcs);
        dstFs.delete(new Path(work, ".parts-" + c.name), true);
      } else {
        c.crc = c.partCrcs[0];
      }
      Publisher.verifyWritten(conf, dstFs, file, c.length, c.crc, target);
    }
    String url = "{{u}}/";
    ObjectNode packed = JSON.createObjectNode();
    for (Container k : containers) {
      for (int j = 0; j < k.keys.size(); j++) {
        String key = k.keys.get(j);
        refs.putArray(key).add(url + k.name).add(k.starts.get(j))
            .add(objects.get(key).getLen());
      }
      packed.putArray(k.name).add(k.length).add(Integer.toHexString(k.crc));
    }
    ObjectNode root = JSON.createObjectNode();
    root.put("version", 1);
    root.putObject("templates").put("u", target.toString());
    root.set("refs", refs);
    root.putObject(ReferenceStore.MRAP).set(ReferenceStore.PACKED, packed);
    try (OutputStream out = dstFs.create(new Path(work, HdfsStore.PACKED_SET), false)) {
      JSON.writeValue(out, root);
    }
    return new Result(target, objects.size(), containers.size() + 1L, bytes);
  }

  /**
   * Writes bytes {@code [lo, hi)} of container {@code c} into {@code to}: the parts of its
   * objects there, zeros between them; their CRC32C.
   *
   * @throws CopyException where an object holds other bytes than it was listed with
   */
  private static int writeRange(FileSystem srcFs, Map<String, FileStatus> objects, Container c,
      long lo, long hi, FileSystem dstFs, Path to, CopySettings s) throws IOException {
    CRC32C crc = new CRC32C();
    byte[] buf = new byte[1 << 16];
    long at = lo;
    try (FSDataOutputStream out = dstFs.create(to, s.permission, false, 1 << 16,
        s.replication, s.blockSize, null)) {
      for (int j = 0; j < c.keys.size() && at < hi; j++) {
        FileStatus f = objects.get(c.keys.get(j));
        long start = c.starts.get(j);
        long end = start + f.getLen();
        if (end <= at) {
          continue;
        }
        for (long zeros = Math.min(start, hi) - at; zeros > 0; ) { // a block's unused end
          int n = (int) Math.min(zeros, buf.length);
          java.util.Arrays.fill(buf, 0, n, (byte) 0);
          out.write(buf, 0, n);
          crc.update(buf, 0, n);
          zeros -= n;
          at += n;
        }
        if (at >= hi) {
          break;
        }
        long from = at - start;
        long to2 = Math.min(end, hi) - start;
        try (org.apache.hadoop.fs.FSDataInputStream in = srcFs.open(f.getPath())) {
          in.seek(from);
          for (long left = to2 - from; left > 0; ) {
            int r = in.read(buf, 0, (int) Math.min(buf.length, left));
            if (r < 0) {
              throw new CopyException(false, c.keys.get(j) + " ended at " + (to2 - left)
                  + " bytes when read, " + f.getLen() + " when listed: was the store changed "
                  + "during the copy?");
            }
            out.write(buf, 0, r);
            crc.update(buf, 0, r);
            left -= r;
          }
        }
        at = start + to2;
      }
    }
    return (int) crc.getValue();
  }
}
