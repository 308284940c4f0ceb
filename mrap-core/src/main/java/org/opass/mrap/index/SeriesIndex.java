package org.opass.mrap.index;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.opass.mrap.cf.Coordinates;

/**
 * A series index as a planner reads it: its manifest ({@value #MANIFEST}) and its lookup
 * ({@value #LOOKUP}: gzip'd JSON lines, a line a file, with where its entry's line lies and the least and greatest
 * value of each of its coordinates), then only the entries a read needs ({@link FileEntry}, read
 * by position from the files that hold them, a gzip member each: {@link EntriesFile}). An entry is served only for the file it was read
 * from (its length and modification time). Loaded once a JVM while the manifest is unchanged (a
 * Spark session's queries), the last {@value #CACHED} indexes kept; thread-safe.
 */
public final class SeriesIndex {
  /** The manifest: what was indexed, and the files that hold the entries. */
  public static final String MANIFEST = "index.json";
  /** Where each file's entry lies, and its coordinates' extremes. */
  public static final String LOOKUP = "lookup.jsonl.gz";
  /** The series' combined reference set, where its files combine. */
  public static final String COMBINED = "refs.json";
  /** What was left out, and why. */
  public static final String REPORT = "report.json";
  /** The entries' files begin with this. */
  public static final String ENTRIES = "files";
  static final int CACHED = 4;
  /** Bytes between entries read ahead that are read rather than a read apart. */
  static final long GAP = 16 << 10;
  /** The most bytes one read ahead reads. */
  static final long RUN = 16 << 20;
  /** The most bytes a reader holds read ahead; beyond them, entries are read one by one. */
  static final long AHEAD = 64 << 20;

  private static final Map<String, SeriesIndex> LOADED = new LinkedHashMap<>(8, 0.75f, true);

  private final Path dir;
  private final String kind;
  private final List<String> variables; // empty: all
  private final String templateUrl;
  private final Map<String, Located> files; // by key

  /** Where a file's entry lies, what it binds to, and its coordinates' extremes. */
  static final class Located {
    final String entries;
    final long offset;
    final int bytes;
    final long length;
    final long mtime;
    final Map<String, Coordinates.Axis> extremes; // by dimension

    Located(String entries, long offset, int bytes, long length, long mtime,
        Map<String, Coordinates.Axis> extremes) {
      this.entries = entries;
      this.offset = offset;
      this.bytes = bytes;
      this.length = length;
      this.mtime = mtime;
      this.extremes = extremes;
    }
  }

  private SeriesIndex(Path dir, JsonNode manifest, Map<String, Located> files) {
    this.dir = dir;
    this.kind = manifest.get("kind").asText();
    this.variables = new ArrayList<>();
    for (JsonNode v : manifest.get("variables")) {
      variables.add(v.asText());
    }
    this.templateUrl = manifest.get("templates").get(ReferenceSet.TEMPLATE).asText();
    this.files = files;
  }

  /**
   * The index in folder {@code dir}.
   *
   * @throws FileNotFoundException naming the folder where it holds no index
   * @throws IOException naming the file where the index cannot be read
   */
  public static SeriesIndex open(Configuration conf, Path dir) throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    Path manifest = new Path(dir, MANIFEST);
    FileStatus st;
    try {
      st = fs.getFileStatus(manifest);
    } catch (FileNotFoundException e) {
      throw new FileNotFoundException(dir + " holds no series index (no " + MANIFEST + "); build "
          + "one with bin/mrap index");
    }
    String key = fs.makeQualified(manifest) + "|" + st.getLen() + "|" + st.getModificationTime();
    synchronized (LOADED) {
      SeriesIndex cached = LOADED.get(key);
      if (cached != null) {
        return cached;
      }
    }
    JsonNode m;
    try (FSDataInputStream in = fs.open(manifest)) {
      m = ReferenceSet.JSON.readTree(in);
    }
    if (m.get("version") == null || m.get("version").asInt() != 1 || !m.has(ENTRIES)
        || !m.has("lookup")) {
      throw new IOException(manifest + " is not a series index manifest of version 1");
    }
    Map<String, Located> files = new HashMap<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        new java.util.zip.GZIPInputStream(fs.open(new Path(dir, m.get("lookup").asText()))),
        StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (!line.isEmpty()) {
          JsonNode n = ReferenceSet.JSON.readTree(line);
          files.put(n.get("path").asText(), located(n));
        }
      }
    }
    SeriesIndex index = new SeriesIndex(fs.makeQualified(dir), m, files);
    synchronized (LOADED) {
      LOADED.put(key, index);
      Iterator<String> it = LOADED.keySet().iterator();
      while (LOADED.size() > CACHED && it.hasNext()) {
        it.next();
        it.remove();
      }
    }
    return index;
  }

  private static Located located(JsonNode n) {
    Map<String, Coordinates.Axis> extremes = new HashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = n.get("extremes").fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode x = e.getValue();
      try {
        extremes.put(e.getKey(), new Coordinates.Axis(e.getKey(), 0, new double[] {
            x.get(0).asDouble(), x.get(1).asDouble()}, text(x.get(2)), text(x.get(3)),
            text(x.get(4))));
      } catch (IllegalArgumentException bad) {
        // units not read as a time: the file's own coordinates decide
      }
    }
    return new Located(n.get("entries").asText(), n.get("offset").asLong(),
        n.get("bytes").asInt(), n.get("length").asLong(), n.get("mtime").asLong(), extremes);
  }

  private static String text(JsonNode n) {
    return n == null || n.isNull() ? null : n.asText();
  }

  /** The key of a file in an index: its path without scheme or authority. */
  public static String key(Path file) {
    return Path.getPathWithoutSchemeAndAuthority(file).toString();
  }

  public Path dir() {
    return dir;
  }

  /** The kind the index read its files as. */
  public String kind() {
    return kind;
  }

  /** The variables indexed; empty: every variable of each file. */
  public List<String> variables() {
    return List.copyOf(variables);
  }

  /** What {@code {{u}}} stands for in the sets' chunk URLs. */
  public String templateUrl() {
    return templateUrl;
  }

  /** Files indexed. */
  public int size() {
    return files.size();
  }

  /** The paths indexed. */
  public List<String> paths() {
    return new ArrayList<>(files.keySet());
  }

  /**
   * Whether the index holds an entry read from {@code file} as it is now; else false, and
   * {@code why} says why (no entry, or the file changed since).
   */
  public boolean fresh(FileStatus file, StringBuilder why) {
    Located at = files.get(key(file.getPath()));
    if (at == null) {
      why.append("not in the index");
      return false;
    }
    if (at.length != file.getLen() || at.mtime != file.getModificationTime()) {
      why.append("changed since it was indexed (").append(at.length).append(" bytes modified ")
          .append(at.mtime).append(", now ").append(file.getLen()).append(" modified ")
          .append(file.getModificationTime()).append(')');
      return false;
    }
    return true;
  }

  /**
   * The least and greatest coordinate values of dimension {@code dim} in {@code file} (an
   * axis of two values, with the coordinate's units), or null where the index has none.
   */
  public Coordinates.Axis extremes(FileStatus file, String dim) {
    Located at = files.get(key(file.getPath()));
    return at == null ? null : at.extremes.get(dim);
  }

  /** Reads entries by position; close it when done with them. */
  public Reader reader(Configuration conf) throws IOException {
    return new Reader(dir.getFileSystem(conf));
  }

  /** Entries read from the index's files, which it keeps open until closed; thread-safe. */
  public final class Reader implements Closeable {
    private final FileSystem fs;
    private final Map<String, FSDataInputStream> open = new HashMap<>();
    private final Map<String, byte[]> fetched = new HashMap<>(); // by key: members read ahead

    private Reader(FileSystem fs) {
      this.fs = fs;
    }

    /**
     * Reads ahead the entries of those of {@code files} the index holds fresh, a read for each
     * run of them side by side in a file of the index (the entries lie in series order, so a
     * query's are a run): what {@link #line} then serves without a read of its own.
     */
    public void prefetch(List<FileStatus> files) throws IOException {
      Map<String, List<Map.Entry<String, Located>>> byFile = new HashMap<>();
      for (FileStatus f : files) {
        if (fresh(f, new StringBuilder())) {
          String key = key(f.getPath());
          Located at = SeriesIndex.this.files.get(key);
          byFile.computeIfAbsent(at.entries, k -> new ArrayList<>()).add(Map.entry(key, at));
        }
      }
      long held = 0;
      for (Map.Entry<String, List<Map.Entry<String, Located>>> e : byFile.entrySet()) {
        List<Map.Entry<String, Located>> all = e.getValue();
        all.sort((a, b) -> Long.compare(a.getValue().offset, b.getValue().offset));
        int i = 0;
        while (i < all.size() && held < AHEAD) {
          long start = all.get(i).getValue().offset;
          long end = start + all.get(i).getValue().bytes;
          int j = i + 1;
          while (j < all.size() && all.get(j).getValue().offset - end <= GAP
              && all.get(j).getValue().offset + all.get(j).getValue().bytes - start <= RUN) {
            end = all.get(j).getValue().offset + all.get(j).getValue().bytes;
            j++;
          }
          byte[] run = new byte[(int) (end - start)];
          stream(e.getKey()).readFully(start, run, 0, run.length);
          held += run.length;
          synchronized (fetched) {
            for (int k = i; k < j; k++) {
              Located at = all.get(k).getValue();
              int from = (int) (at.offset - start);
              fetched.put(all.get(k).getKey(), java.util.Arrays.copyOfRange(run, from,
                  from + at.bytes));
            }
          }
          i = j;
        }
      }
    }

    private FSDataInputStream stream(String entries) throws IOException {
      synchronized (open) {
        FSDataInputStream in = open.get(entries);
        if (in == null) {
          in = fs.open(new Path(dir, entries));
          open.put(entries, in);
        }
        return in;
      }
    }

    /** The line of {@code file}'s entry if it is fresh ({@link #fresh}); else null. */
    public String line(FileStatus file) throws IOException {
      return fresh(file, new StringBuilder()) ? read(key(file.getPath())) : null;
    }

    /**
     * The entry of {@code file} if the index holds one read from it as it is now; else null,
     * and {@code why} says why.
     */
    public FileEntry entry(FileStatus file, StringBuilder why) throws IOException {
      return fresh(file, why) ? FileEntry.parse(read(key(file.getPath()))) : null;
    }

    /** The line of entry {@code key}: read ahead, else read by position now. */
    private String read(String key) throws IOException {
      Located at = files.get(key);
      byte[] b;
      synchronized (fetched) {
        b = fetched.remove(key);
      }
      if (b == null) {
        b = new byte[at.bytes];
        stream(at.entries).readFully(at.offset, b, 0, b.length);
      }
      return EntriesFile.line(b, at.entries + " at byte " + at.offset);
    }

    @Override
    public void close() throws IOException {
      synchronized (open) {
        for (FSDataInputStream in : open.values()) {
          in.close();
        }
        open.clear();
      }
    }
  }
}
