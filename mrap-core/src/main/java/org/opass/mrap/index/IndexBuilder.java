package org.opass.mrap.index;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.ScienceFormatException;
import org.opass.mrap.fs.InParallel;
import org.opass.mrap.fs.RestructuredFiles;
import org.opass.mrap.science.ScienceFiles;

/**
 * A series index built: each file's header read into its entry ({@link #entry}, what the index
 * job's tasks do), the entries' files joined into the series' reference set and report ({@link
 * #finish}), in a work folder beside the index published in one rename ({@link #publish}), so
 * that a failed or killed build leaves no index half-written. {@link #build} does it all in this
 * process (eight headers at a time), for a program or a test.
 */
public final class IndexBuilder {
  /** Headers read at once by one process. */
  static final int READERS = 8;

  private IndexBuilder() {
  }

  /** What a build indexed. */
  public static final class Summary {
    private final int files;
    private final List<Refusal> refused;
    private final boolean combined;

    Summary(int files, List<Refusal> refused, boolean combined) {
      this.files = files;
      this.refused = List.copyOf(refused);
      this.combined = combined;
    }

    public int files() {
      return files;
    }

    /** Variables left out of a file's set, and the reasons the files do not join. */
    public List<Refusal> refused() {
      return refused;
    }

    /** Whether the series' joined sets ({@value SeriesIndex#COMBINED}, or several) were written. */
    public boolean combined() {
      return combined;
    }
  }

  /**
   * The entry of {@code f}: its header read as {@code kind}, for {@code variables} and their
   * coordinates. A file that cannot be indexed (restructured, not of {@code kind}, damaged) has
   * an entry of no variable whose refusal says why.
   */
  public static FileEntry entry(Configuration conf, FileStatus listed, ScienceFiles.Kind kind,
      List<String> variables) throws IOException {
    FileSystem fs = listed.getPath().getFileSystem(conf);
    // bound to the file as it is when read, and only if it is the same after
    FileStatus f = fs.getFileStatus(listed.getPath());
    FileEntry e = read(conf, f, kind, variables);
    FileStatus after = fs.getFileStatus(f.getPath());
    if (after.getLen() != f.getLen() || after.getModificationTime() != f.getModificationTime()) {
      return refusedFile(f, kind, "changed while it was indexed: index it again");
    }
    return e;
  }

  private static FileEntry read(Configuration conf, FileStatus f, ScienceFiles.Kind kind,
      List<String> variables) throws IOException {
    String path = SeriesIndex.key(f.getPath());
    FileSystem fs = f.getPath().getFileSystem(conf);
    try (FSDataInputStream in = fs.open(f.getPath())) {
      Positioned p = Positioned.of(in, f.getLen());
      byte[] head = p.keepHead(ScienceFiles.HEAD);
      if (RestructuredFiles.inspect(in, f, head).layout() != null) {
        return refusedFile(f, kind, "restructured by mrap-copy: its chunks are not where its "
            + "header says");
      }
      try (ScienceFile sf = ScienceFiles.open(p, f.getPath().toString(), kind)) {
        return FileIndexer.of(sf, p, path).entry(variables, kind.key(), f.getLen(),
            f.getModificationTime());
      } catch (ScienceFormatException e) {
        return refusedFile(f, kind, e.getMessage());
      }
    }
  }

  private static FileEntry refusedFile(FileStatus f, ScienceFiles.Kind kind, String why) {
    String path = SeriesIndex.key(f.getPath());
    return new FileEntry(path, f.getLen(), f.getModificationTime(), kind.key(), Map.of(),
        List.of(new Refusal(path, "*", why)));
  }

  /** The folder a build of {@code index} works in: beside it, hidden, its own. */
  public static Path workDir(Path index) {
    return new Path(index.getParent(), "." + index.getName() + ".mrap-index-"
        + UUID.randomUUID().toString().substring(0, 8));
  }

  /** Files of a series joined into one set at most, by default: a set a client can hold. */
  public static final int SET_FILES = 1000;

  /** As {@link #finish(FileSystem, Path, ScienceFiles.Kind, List, String, int)}, sets of 1000. */
  public static Summary finish(FileSystem fs, Path work, ScienceFiles.Kind kind,
      List<String> variables, String templateUrl) throws IOException {
    return finish(fs, work, kind, variables, templateUrl, SET_FILES);
  }

  /**
   * Writes, in {@code work} beside the entries' files it holds ({@value SeriesIndex#ENTRIES}
   * ...), the lookup, the series joined where its files join (one set, {@value
   * SeriesIndex#COMBINED}, or for more than {@code setFiles} files a set a run of that many
   * consecutive files, {@code refs-00000.json} ..., so that no set grows with the series), the
   * report, and the manifest last.
   *
   * @param templateUrl what {@code {{u}}} stands for in chunk URLs (a WebHDFS URL)
   */
  public static Summary finish(FileSystem fs, Path work, ScienceFiles.Kind kind,
      List<String> variables, String templateUrl, int setFiles) throws IOException {
    List<FileEntry> entries = new ArrayList<>();
    Map<FileEntry, long[]> at = new java.util.IdentityHashMap<>(); // {task file, offset, bytes}
    List<Path> read = new ArrayList<>();
    List<byte[]> bytes = new ArrayList<>(); // each file read, kept: its members are copied
    for (FileStatus s : fs.listStatus(work)) {
      String n = s.getPath().getName();
      if (s.isFile() && n.startsWith(SeriesIndex.ENTRIES)) {
        read.add(s.getPath());
        try (java.io.InputStream in = fs.open(s.getPath())) {
          bytes.add(in.readAllBytes());
        }
        readEntries(bytes.get(bytes.size() - 1), s.getPath(), read.size() - 1, entries, at);
      } else if (n.equals("_SUCCESS")) {
        fs.delete(s.getPath(), false);
      }
    }
    List<String> names = writeOrdered(fs, work, SeriesCombination.ordered(entries), at, bytes);
    for (Path p : read) {
      fs.delete(p, false);
    }
    names = published(fs, work, names);
    List<Refusal> refused = new ArrayList<>();
    for (FileEntry e : entries) {
      refused.addAll(e.refused());
    }
    List<FileEntry> ordered = SeriesCombination.ordered(entries);
    List<SeriesCombination> runs = new ArrayList<>();
    for (int i = 0; i < ordered.size(); i += Math.max(1, setFiles)) {
      runs.add(SeriesCombination.of(ordered.subList(i, Math.min(ordered.size(),
          i + Math.max(1, setFiles)))));
    }
    SeriesCombination joined = runs.isEmpty() ? SeriesCombination.of(entries) : runs.get(0);
    boolean combined = !runs.isEmpty();
    for (SeriesCombination run : runs) {
      combined &= run.refused().isEmpty() && !run.arrays().isEmpty();
    }
    List<String> sets = new ArrayList<>();
    for (int k = 0; combined && k < runs.size(); k++) {
      String name = runs.size() == 1 ? SeriesIndex.COMBINED : String.format("refs-%05d.json", k);
      try (OutputStream out = fs.create(new Path(work, name), false);
          JsonGenerator g = ReferenceSet.JSON.getFactory().createGenerator(out)) {
        ReferenceSet.write(g, templateUrl, runs.get(k).arrays(), Map.of());
      }
      sets.add(name);
    }
    for (int k = 1; k < runs.size(); k++) {
      refused.addAll(runs.get(k).refused());
    }
    refused.addAll(joined.refused());
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("files", entries.size());
    report.put("combined", combined);
    report.put("sets", sets);
    report.put("dimension", joined.dimension());
    report.put("left_out", joined.leftOut());
    List<Map<String, String>> rows = new ArrayList<>();
    for (Refusal r : refused) {
      Map<String, String> row = new LinkedHashMap<>();
      row.put("file", r.file());
      row.put("variable", r.variable());
      row.put("reason", r.reason());
      rows.add(row);
    }
    report.put("refused", rows);
    writeJson(fs, new Path(work, SeriesIndex.REPORT), report);
    Map<String, Object> manifest = new LinkedHashMap<>();
    manifest.put("version", 1);
    manifest.put("kind", kind.key());
    manifest.put("variables", variables);
    manifest.put("templates", Map.of(ReferenceSet.TEMPLATE, templateUrl));
    manifest.put("files", entries.size());
    manifest.put(SeriesIndex.ENTRIES, names);
    manifest.put("combined", sets);
    manifest.put("lookup", SeriesIndex.LOOKUP);
    manifest.put("report", SeriesIndex.REPORT);
    writeJson(fs, new Path(work, SeriesIndex.MANIFEST), manifest);
    return new Summary(entries.size(), refused, combined);
  }

  /**
   * Reads the entries of {@code file} into {@code into}, and for each a line of the lookup: where
   * its line lies, what it binds to, and its coordinates' extremes.
   */
  /** The entries of {@code file} (the {@code k}-th read) into {@code into}, and where each is. */
  private static void readEntries(byte[] file, Path name, int k, List<FileEntry> into,
      Map<FileEntry, long[]> at) throws IOException {
    EntriesFile.read(new java.io.ByteArrayInputStream(file), name.toString(),
        (line, offset, bytes) -> {
          FileEntry e = FileEntry.parse(line);
          into.add(e);
          at.put(e, new long[] {k, offset, bytes});
        });
  }

  /** Entries a file of the index holds at most. */
  static final int ENTRIES_A_FILE = 10_000;

  /**
   * The entries written again in series order ({@code ordered}), {@value #ENTRIES_A_FILE} a file,
   * each member copied as it is from the files read ({@code read}), and the lookup of where each
   * now lies. In series order, a query's entries lie side by side: a plan reads them in one read.
   * Gives the new files' names, as written (to be {@link #published}).
   */
  private static List<String> writeOrdered(FileSystem fs, Path work, List<FileEntry> ordered,
      Map<FileEntry, long[]> at, List<byte[]> read) throws IOException {
    List<String> names = new ArrayList<>();
    java.util.Set<String> same = unvarying(ordered);
    try (Writer lookup = new OutputStreamWriter(new java.util.zip.GZIPOutputStream(fs.create(
        new Path(work, SeriesIndex.LOOKUP), false)), StandardCharsets.UTF_8)) {
      OutputStream out = null;
      long offset = 0;
      try {
        for (int i = 0; i < ordered.size(); i++) {
          if (i % ENTRIES_A_FILE == 0) {
            if (out != null) {
              out.close();
            }
            names.add(String.format("%s-%05d%s", SeriesIndex.ENTRIES, i / ENTRIES_A_FILE,
                EntriesFile.SUFFIX) + ".next");
            out = fs.create(new Path(work, names.get(names.size() - 1)), false);
            offset = 0;
          }
          FileEntry e = ordered.get(i);
          long[] where = at.get(e);
          out.write(read.get((int) where[0]), (int) where[1], (int) where[2]);
          Map<String, Object> row = new LinkedHashMap<>();
          row.put("path", e.path());
          row.put("length", e.length());
          row.put("mtime", e.modificationTime());
          row.put("entries", names.get(names.size() - 1).replace(".next", ""));
          row.put("offset", offset);
          row.put("bytes", (int) where[2]);
          Map<String, List<Object>> extremes = e.extremes();
          extremes.keySet().removeAll(same); // the same in every file: they tell no file apart
          row.put("extremes", extremes);
          lookup.write(ReferenceSet.JSON.writeValueAsString(row));
          lookup.write('\n');
          offset += where[2];
        }
      } finally {
        if (out != null) {
          out.close();
        }
      }
    }
    return names;
  }

  /** The entries' files written under their final names. */
  private static List<String> published(FileSystem fs, Path work, List<String> names)
      throws IOException {
    List<String> out = new ArrayList<>();
    for (String n : names) {
      String done = n.replace(".next", "");
      if (!fs.rename(new Path(work, n), new Path(work, done))) {
        throw new IOException("could not rename " + n + " to " + done + " in " + work);
      }
      out.add(done);
    }
    return out;
  }

  /** The coordinates whose extremes are the same in every entry (at least two entries). */
  private static java.util.Set<String> unvarying(List<FileEntry> entries) {
    java.util.Set<String> out = new java.util.HashSet<>();
    if (entries.size() < 2) {
      return out;
    }
    Map<String, List<Object>> first = entries.get(0).extremes();
    out.addAll(first.keySet());
    for (FileEntry e : entries) {
      Map<String, List<Object>> x = e.extremes();
      out.removeIf(k -> !first.get(k).equals(x.get(k)));
    }
    return out;
  }

  private static void writeJson(FileSystem fs, Path p, Object value) throws IOException {
    try (OutputStream out = fs.create(p, false)) {
      ReferenceSet.JSON.writerWithDefaultPrettyPrinter().writeValue(out, value);
    }
  }

  /**
   * Publishes {@code work} as {@code index} in one rename.
   *
   * @throws IOException naming the index where it exists (a build never replaces one) or the
   *     rename fails; {@code work} is removed then
   */
  public static void publish(FileSystem fs, Path work, Path index) throws IOException {
    try {
      if (fs.exists(index)) {
        throw new IOException(index + " exists: name a new index, or remove it first");
      }
      if (!fs.rename(work, index)) {
        throw new IOException("could not rename " + work + " to " + index);
      }
    } catch (IOException e) {
      fs.delete(work, true);
      throw e;
    }
  }

  /**
   * Replaces the index {@code index} by the one built in {@code work}, in place: the new entries
   * and lookup move in under names of their own, the combined set and the report replace theirs
   * (each in one rename), then the manifest replaces the old one in one rename, which is the
   * switch: a planner reads the old generation or the new one, never a mix, and a crash at any
   * point leaves an index (the old or the new). The old generation's files go last.
   */
  public static void replace(FileSystem fs, Path work, Path index) throws IOException {
    FileContext fc = FileContext.getFileContext(fs.getUri(), fs.getConf());
    String gen = UUID.randomUUID().toString().substring(0, 8);
    JsonNode old = ReferenceSet.JSON.readTree(fs.open(new Path(index, SeriesIndex.MANIFEST)));
    com.fasterxml.jackson.databind.node.ObjectNode m = (com.fasterxml.jackson.databind.node
        .ObjectNode) ReferenceSet.JSON.readTree(fs.open(new Path(work, SeriesIndex.MANIFEST)));
    com.fasterxml.jackson.databind.node.ArrayNode names = m.putArray(SeriesIndex.ENTRIES);
    for (FileStatus f : fs.listStatus(work)) {
      String n = f.getPath().getName();
      if (n.startsWith(SeriesIndex.ENTRIES)) {
        String moved = SeriesIndex.ENTRIES + "-" + gen + n.substring(SeriesIndex.ENTRIES
            .length());
        rename(fs, f.getPath(), new Path(index, moved));
        names.add(moved);
      }
    }
    String lookup = "lookup-" + gen + ".jsonl.gz";
    try (java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(
        new java.util.zip.GZIPInputStream(fs.open(new Path(work, SeriesIndex.LOOKUP))),
        StandardCharsets.UTF_8));
        Writer w = new OutputStreamWriter(new java.util.zip.GZIPOutputStream(fs.create(
            new Path(index, lookup), false)), StandardCharsets.UTF_8)) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        com.fasterxml.jackson.databind.node.ObjectNode row =
            (com.fasterxml.jackson.databind.node.ObjectNode) ReferenceSet.JSON.readTree(line);
        String n = row.get("entries").asText(); // under its new name
        row.put("entries", SeriesIndex.ENTRIES + "-" + gen + n.substring(SeriesIndex.ENTRIES
            .length()));
        w.write(ReferenceSet.JSON.writeValueAsString(row));
        w.write('\n');
      }
    }
    m.put("lookup", lookup);
    for (JsonNode set : m.get("combined")) {
      fc.rename(new Path(work, set.asText()), new Path(index, set.asText()),
          Options.Rename.OVERWRITE);
    }
    fc.rename(new Path(work, SeriesIndex.REPORT), new Path(index, SeriesIndex.REPORT),
        Options.Rename.OVERWRITE);
    Path next = new Path(work, SeriesIndex.MANIFEST + ".next");
    try (OutputStream out = fs.create(next, false)) {
      ReferenceSet.JSON.writerWithDefaultPrettyPrinter().writeValue(out, m);
    }
    fc.rename(next, new Path(index, SeriesIndex.MANIFEST), Options.Rename.OVERWRITE); // the switch
    List<String> now = new ArrayList<>();
    for (JsonNode set : m.get("combined")) {
      now.add(set.asText());
    }
    for (JsonNode set : old.get("combined")) {
      if (!now.contains(set.asText())) {
        fs.delete(new Path(index, set.asText()), false); // the files no longer join so
      }
    }
    for (JsonNode n : old.get(SeriesIndex.ENTRIES)) {
      fs.delete(new Path(index, n.asText()), false);
    }
    if (!old.get("lookup").asText().equals(lookup)) {
      fs.delete(new Path(index, old.get("lookup").asText()), false);
    }
    fs.delete(work, true);
  }

  private static void rename(FileSystem fs, Path from, Path to) throws IOException {
    if (!fs.rename(from, to)) {
      throw new IOException("could not rename " + from + " to " + to);
    }
  }

  /**
   * Builds the index of {@code files} in this process, {@value #READERS} headers at a time,
   * into {@code index} (which must not exist).
   */
  public static Summary build(Configuration conf, List<FileStatus> files,
      ScienceFiles.Kind kind, List<String> variables, String templateUrl, Path index)
      throws IOException {
    FileSystem fs = index.getFileSystem(conf);
    if (fs.exists(index)) {
      throw new IOException(index + " exists: name a new index, or remove it first");
    }
    Path work = workDir(index);
    try {
      List<FileEntry> entries = InParallel.map(files, READERS, "index",
          f -> entry(conf, f, kind, variables));
      try (OutputStream w = fs.create(new Path(work, SeriesIndex.ENTRIES + "-00000"
          + EntriesFile.SUFFIX), false)) {
        for (FileEntry e : entries) {
          EntriesFile.write(w, e.line(templateUrl));
        }
      }
      Summary s = finish(fs, work, kind, variables, templateUrl);
      publish(fs, work, index);
      return s;
    } catch (IOException | RuntimeException e) {
      fs.delete(work, true);
      throw e;
    }
  }
}
