package org.opass.mrap.index;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
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

/**
 * A series index as a planner reads it: its manifest ({@value #MANIFEST}) and the entries of
 * its files ({@link FileEntry}, a line each in the files the manifest names), looked up by a
 * file's path and served only for the file they were read from (its length and modification
 * time). The few reads of the index replace every file's header reads. Loaded once a JVM while
 * the manifest is unchanged (a Spark session's queries), the last {@value #CACHED} indexes kept.
 */
public final class SeriesIndex {
  /** The manifest: what was indexed, and the files that hold the entries. */
  public static final String MANIFEST = "index.json";
  /** The series' combined reference set, where its files combine. */
  public static final String COMBINED = "refs.json";
  /** What was left out, and why. */
  public static final String REPORT = "report.json";
  /** The entries' files begin with this. */
  public static final String ENTRIES = "files";
  static final int CACHED = 4;

  private static final Map<String, SeriesIndex> LOADED = new LinkedHashMap<>(8, 0.75f, true);

  private final Path dir;
  private final String kind;
  private final List<String> variables; // empty: all
  private final String templateUrl;
  private final Map<String, String> lines; // path -> its entry's line, parsed when looked up
  private final Map<String, FileEntry> parsed = new HashMap<>();

  private SeriesIndex(Path dir, JsonNode manifest, Map<String, String> lines) {
    this.dir = dir;
    this.kind = manifest.get("kind").asText();
    this.variables = new ArrayList<>();
    for (JsonNode v : manifest.get("variables")) {
      variables.add(v.asText());
    }
    this.templateUrl = manifest.get("templates").get(ReferenceSet.TEMPLATE).asText();
    this.lines = lines;
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
    if (m.get("version") == null || m.get("version").asInt() != 1 || !m.has(ENTRIES)) {
      throw new IOException(manifest + " is not a series index manifest of version 1");
    }
    Map<String, String> lines = new HashMap<>();
    for (JsonNode f : m.get(ENTRIES)) {
      read(fs, new Path(dir, f.asText()), lines);
    }
    SeriesIndex index = new SeriesIndex(fs.makeQualified(dir), m, lines);
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

  private static void read(FileSystem fs, Path file, Map<String, String> into)
      throws IOException {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(file),
        StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (!line.isEmpty()) {
          into.put(pathOf(line), line);
        }
      }
    }
  }

  /** The path an entry's line is of, without parsing the line whole. */
  private static String pathOf(String line) throws IOException {
    int at = line.lastIndexOf("\"mrap\":{\"path\":");
    if (at < 0) {
      throw new IOException("not an index entry: " + line.substring(0, Math.min(80,
          line.length())));
    }
    return ReferenceSet.JSON.readTree(line.substring(at + 15, line.indexOf(",\"length\"", at)))
        .asText();
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

  /** The line of {@code file}'s entry where it is fresh (the file unchanged since); else null. */
  public String line(FileStatus file) throws IOException {
    return entry(file, new StringBuilder()) == null ? null : lines.get(key(file.getPath()));
  }

  /** Files indexed. */
  public int size() {
    return lines.size();
  }

  /** The paths indexed. */
  public List<String> paths() {
    return new ArrayList<>(lines.keySet());
  }

  /**
   * The entry of {@code file} if the index holds one read from it as it is now; else null, and
   * {@code why} says why (no entry, or the file changed since).
   */
  public FileEntry entry(FileStatus file, StringBuilder why) throws IOException {
    String key = key(file.getPath());
    FileEntry e;
    synchronized (parsed) {
      e = parsed.get(key);
      if (e == null) {
        String line = lines.get(key);
        if (line == null) {
          why.append("not in the index");
          return null;
        }
        e = FileEntry.parse(line);
        parsed.put(key, e);
      }
    }
    if (!e.binds(file.getLen(), file.getModificationTime())) {
      why.append("changed since it was indexed (").append(e.length()).append(" bytes modified ")
          .append(e.modificationTime()).append(", now ").append(file.getLen())
          .append(" modified ").append(file.getModificationTime()).append(')');
      return null;
    }
    return e;
  }
}
