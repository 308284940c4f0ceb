package org.opass.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.junit.jupiter.api.Test;
import org.opass.heatmap.nn.HeatmapKeys;
import org.opass.placement.HmLruKeys;
import org.opass.read.nn.ReadBalanceKeys;
import org.opass.read.nn.ReadPlanTable;
import org.opass.tools.cluster.Release;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The docs against the tree, as {@link ReadmeCommandsTest} holds their commands to the release:
 * every key of the NameNode fragments ({@code conf/hdfs-site-opass-*.xml}) is in the key tables
 * of {@code docs/operating.md} with the fragment's value as its default, and that default is the
 * code's ({@code HmLruKeys}, {@code HeatmapKeys}, {@code ReadBalanceKeys}); every key documented
 * there exists; every {@code opass.*} key the code defines is in some page's key table; the
 * public API list of {@code docs/architecture.md} is the classes marked
 * {@code @InterfaceAudience.Public}; every relative link between the pages resolves, anchors
 * included; the README keeps its two set-up commands, which {@code .ci/run} runs; and no page
 * names an issue of this project. Reads files only: no cluster.
 */
class DocsKeysTest {
  private static final Path ROOT = Release.ROOT;
  private static final String OPERATING = "docs/operating.md";
  /** The classes that define the NameNode plugins' keys and their defaults. */
  private static final List<Class<?>> KEY_CLASSES =
      List.of(HmLruKeys.class, HeatmapKeys.class, ReadBalanceKeys.class);
  /** Defaults the code computes instead of holding in a constant. */
  private static final Map<String, Supplier<Object>> COMPUTED_DEFAULTS = Map.of(
      ReadBalanceKeys.PLAN_MAX_READS_PER_USER,
      () -> ReadPlanTable.Limits.builder().build().maxReadsPerUser());
  /** Modules whose main code defines {@code opass.*} keys. */
  private static final List<String> KEY_MODULES =
      List.of("common", "heatmap", "opass-placement", "opass-read", "opass-client");
  /** {@code "opass.*"} strings of that code that are no configuration key, and what they are. */
  private static final Map<String, String> NOT_KEYS = Map.of(
      "opass.read.plan.service", "a servlet context attribute (ReadPlanServlet)",
      "opass.read.plan.refusal", "a servlet context attribute (ReadPlanServlet)");
  private static final Pattern KEY = Pattern.compile("(opass|dfs|mrap|strided|mapreduce)\\.[\\w.-]+");

  /** A row of a key table: the page, the default cell and the meaning cell. */
  private static final class Row {
    final String page;
    final String defaultCell;
    final String meaning;

    Row(String page, String defaultCell, String meaning) {
      this.page = page;
      this.defaultCell = defaultCell;
      this.meaning = meaning;
    }

    /** The documented default: the first {@code `value`} of its cell, or null. */
    String value() {
      Matcher m = Pattern.compile("`([^`]*)`").matcher(defaultCell);
      return m.find() ? m.group(1) : null;
    }
  }

  @Test
  void everyFragmentKeyIsDocumentedWithItsValueAsTheDefault() throws Exception {
    Map<String, Row> documented = keyTables(OPERATING);
    List<String> problems = new ArrayList<>();
    Map<String, String> fragments = fragments();
    assertTrue(fragments.size() >= 15, "the fragments' keys: " + fragments.keySet());
    for (Map.Entry<String, String> e : fragments.entrySet()) {
      String key = e.getKey();
      String value = e.getValue();
      Row row = documented.get(key);
      if (row == null) {
        problems.add(key + " (set to " + value + " in conf/) is not in " + OPERATING);
      } else if (key.startsWith("opass.")) {
        if (!same(value, row.value())) {
          problems.add(key + ": conf/ says " + value + ", " + OPERATING + " says "
              + row.defaultCell);
        }
      } else if (!row.meaning.contains("`" + value + "`")) { // Hadoop's key: what to set it to
        problems.add(key + ": conf/ sets it to " + value + ", which " + OPERATING
            + " does not name: " + row.meaning);
      }
    }
    assertTrue(problems.isEmpty(), String.join("\n", problems));
  }

  @Test
  void everyDocumentedKeyExistsWithTheCodesDefault() throws Exception {
    Map<String, Row> documented = keyTables(OPERATING);
    Map<String, String> fragments = fragments();
    Set<String> hadoopKeys = stringConstants(DFSConfigKeys.class).keySet();
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, Row> e : documented.entrySet()) {
      String key = e.getKey();
      if (!fragments.containsKey(key)) {
        problems.add(key + " is documented in " + OPERATING + " but in no conf/ fragment");
      }
      if (key.startsWith("opass.")) {
        Object code = codeDefault(key);
        if (code == null) {
          problems.add(key + " is documented but " + KEY_CLASSES.stream()
              .map(Class::getSimpleName).collect(Collectors.joining(", "))
              + " define no such key with a default");
        } else if (!same(String.valueOf(code), e.getValue().value())) {
          problems.add(key + ": the code's default is " + code + ", " + OPERATING + " says "
              + e.getValue().defaultCell);
        }
      } else if (!hadoopKeys.contains(key)) {
        problems.add(key + " is documented but is no key of Hadoop's DFSConfigKeys");
      }
    }
    assertTrue(problems.isEmpty(), String.join("\n", problems));
    // and the other way: every key the key classes define is documented
    Set<String> defined = new TreeSet<>();
    for (Class<?> c : KEY_CLASSES) {
      defined.addAll(stringConstants(c).keySet());
    }
    defined.removeAll(documented.keySet());
    assertTrue(defined.isEmpty(), "keys the code defines, not in " + OPERATING + ": " + defined);
  }

  @Test
  void everyOpassKeyOfTheCodeIsInAKeyTable() throws Exception {
    Set<String> documented = new TreeSet<>();
    for (String page : ReadmeCommandsTest.pages().keySet()) {
      documented.addAll(keyTables(page).keySet());
    }
    Map<String, String> missing = new TreeMap<>();
    Pattern literal = Pattern.compile("\"(opass\\.[a-z][\\w.-]*)\"");
    for (String module : KEY_MODULES) {
      for (Path source : sources(ROOT.resolve(module).resolve("src/main/java"))) {
        Matcher m = literal.matcher(Files.readString(source, StandardCharsets.UTF_8));
        while (m.find()) {
          String key = m.group(1);
          if (!documented.contains(key) && !NOT_KEYS.containsKey(key)) {
            missing.put(key, ROOT.relativize(source).toString());
          }
        }
      }
    }
    assertTrue(missing.isEmpty(), "opass.* keys of the code in no page's key table "
        + "(key=file): " + missing);
  }

  @Test
  void thePublicApiListIsTheClassesMarkedPublic() throws Exception {
    Set<String> marked = new TreeSet<>();
    for (Path module : modules()) {
      for (Path source : sources(module.resolve("src/main/java"))) {
        String text = Files.readString(source, StandardCharsets.UTF_8);
        String file = source.getFileName().toString().replace(".java", "");
        // what each mark is on: a package (package-info), the file's class, or a nested one
        Matcher mark = Pattern.compile("@InterfaceAudience\\.Public\\s+(?:@\\S+\\s+)*"
            + "(?:package ([\\w.]+)|(?:public |static |final |abstract )*"
            + "(?:class|interface|enum|@interface) (\\w+))").matcher(text);
        while (mark.find()) {
          marked.add(mark.group(1) != null ? mark.group(1)
              : mark.group(2).equals(file) ? file : file + "." + mark.group(2));
        }
      }
    }
    String page = read("docs/architecture.md");
    int at = page.indexOf("\n## Public API");
    assertTrue(at >= 0, "docs/architecture.md has no Public API section");
    String section = page.substring(at + 1);
    int end = section.indexOf("\n## ");
    section = end < 0 ? section : section.substring(0, end);
    Set<String> listed = new TreeSet<>();
    for (String line : section.split("\n")) {
      String[] cells = line.split("\\|");
      if (line.startsWith("| `") && cells.length >= 3) {
        Matcher m = Pattern.compile("`([\\w.]+)`").matcher(cells[2]);
        while (m.find()) {
          listed.add(m.group(1));
        }
      }
    }
    assertEquals(marked, listed, "docs/architecture.md's public API against the classes marked "
        + "@InterfaceAudience.Public");
  }

  @Test
  void everyRelativeLinkResolves() throws Exception {
    List<String> pages = new ArrayList<>(ReadmeCommandsTest.pages().keySet());
    pages.add("dist/INSTALL.md");
    List<String> broken = new ArrayList<>();
    Pattern link = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    for (String page : pages) {
      Matcher m = link.matcher(withoutCode(read(page)));
      while (m.find()) {
        String target = m.group(1);
        if (target.matches("[a-z]+:.*")) {
          continue; // http:, https:, mailto:
        }
        String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
        String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
        Path resolved = file.isEmpty() ? ROOT.resolve(page)
            : ROOT.resolve(page).getParent().resolve(file).normalize();
        if (!Files.exists(resolved)) {
          broken.add(page + ": " + target + " (no " + ROOT.relativize(resolved) + ")");
        } else if (anchor != null && !anchors(resolved).contains(anchor)) {
          broken.add(page + ": " + target + " (no heading #" + anchor + " in "
              + ROOT.relativize(resolved) + ")");
        }
      }
    }
    assertTrue(broken.isEmpty(), "broken links:\n" + String.join("\n", broken));
  }

  /**
   * Every file a page names by its path ({@code `mrap-core/src/...java`}; the code map's
   * {@code …/} is {@code src/main/java/org/opass/}, and {@code module/.../Name.java} is a file of
   * that name under the module) is in the tree, so a move that leaves a page behind fails here.
   */
  @Test
  void everyPathThePagesNameExists() throws Exception {
    Pattern path = Pattern.compile(
        "`((?:[\\w.-]+/)+(?:…/)?(?:[\\w.-]+/)*[\\w*-]+\\.(?:java|xml|py|md|txt))`");
    List<String> missing = new ArrayList<>();
    for (Map.Entry<String, String> page : ReadmeCommandsTest.pages().entrySet()) {
      Matcher m = path.matcher(page.getValue());
      while (m.find()) {
        String named = m.group(1);
        String file = named.replace("…/", "src/main/java/org/opass/");
        if (file.startsWith("../") || file.contains("*")) {
          continue; // outside the repository, or a glob
        }
        boolean found;
        int elided = file.indexOf("/.../");
        if (elided >= 0) {
          String name = file.substring(file.lastIndexOf('/') + 1);
          Path under = ROOT.resolve(file.substring(0, elided));
          try (Stream<Path> files = Files.isDirectory(under) ? Files.walk(under) : Stream.empty()) {
            found = files.anyMatch(p -> p.getFileName().toString().equals(name));
          }
        } else {
          found = Files.exists(ROOT.resolve(file));
        }
        if (!found) {
          missing.add(page.getKey() + ": " + named);
        }
      }
    }
    assertTrue(missing.isEmpty(), "paths the docs name that are not in the tree:\n"
        + String.join("\n", missing));
  }

  @Test
  void theReadmeKeepsItsTwoSetUpCommandsAndCiRunsTheTestCommand() throws Exception {
    String readme = read("README.md");
    int at = readme.indexOf("## Set-up");
    assertTrue(at >= 0, "README.md has no Set-up section");
    int start = readme.indexOf("```sh\n", at) + "```sh\n".length();
    String block = readme.substring(start, readme.indexOf("```", start));
    List<String> commands = new ArrayList<>();
    for (String line : block.split("\n")) {
      String command = line.replaceFirst("#.*$", "").trim();
      if (!command.isEmpty()) {
        commands.add(command);
      }
    }
    assertEquals(List.of("bin/demo", "mvn -B verify"), commands, "the README's set-up commands");
    List<String> ci = Files.readAllLines(ROOT.resolve(".ci/run"), StandardCharsets.UTF_8);
    assertTrue(ci.stream().map(l -> l.replaceFirst("#.*$", "").trim())
        .anyMatch("mvn -B verify"::equals), ".ci/run runs the README's test command: " + ci);
    assertTrue(readme.split("\n", -1).length <= 160, "README.md has "
        + readme.split("\n", -1).length + " lines: the rest belongs in docs/");
  }

  @Test
  void noPageNamesAnIssueOfThisProject() throws Exception {
    Pattern issue = Pattern.compile("(?i)\\bissues?[ -]#?\\d+|(?<![\\w/-])#\\d{1,4}\\b");
    List<String> found = new ArrayList<>();
    for (Map.Entry<String, String> page : ReadmeCommandsTest.pages().entrySet()) {
      String[] lines = page.getValue().split("\n");
      for (int i = 0; i < lines.length; i++) {
        if (issue.matcher(lines[i]).find()) {
          found.add(page.getKey() + ":" + (i + 1) + ": " + lines[i].trim());
        }
      }
    }
    assertTrue(found.isEmpty(), "issue numbers in the docs:\n" + String.join("\n", found));
  }

  // ---- the pages ----

  /**
   * The rows of a page's key tables (tables whose header starts {@code | key | default |}), by
   * key; a row naming several keys gives each.
   */
  private static Map<String, Row> keyTables(String page) throws IOException {
    Map<String, Row> out = new LinkedHashMap<>();
    boolean inTable = false;
    for (String line : read(page).split("\n")) {
      if (line.startsWith("| key | default |")) {
        inTable = true;
        continue;
      }
      if (!line.startsWith("|")) {
        inTable = false;
        continue;
      }
      if (!inTable || line.startsWith("|---")) {
        continue;
      }
      String[] cells = line.split("(?<!\\\\)\\|", -1);
      assertTrue(cells.length >= 4, page + ": a key row of fewer than three cells: " + line);
      Matcher keys = Pattern.compile("`(" + KEY.pattern() + ")`").matcher(cells[1]);
      boolean any = false;
      while (keys.find()) {
        Row previous = out.put(keys.group(1), new Row(page, cells[2].trim(), cells[3].trim()));
        assertTrue(previous == null, page + " documents " + keys.group(1) + " twice");
        any = true;
      }
      assertTrue(any, page + ": a key row names no key: " + line);
    }
    return out;
  }

  /** The headings' anchors of a Markdown file, as GitHub makes them. */
  private static Set<String> anchors(Path file) throws IOException {
    Set<String> out = new TreeSet<>();
    if (!file.toString().endsWith(".md")) {
      return out;
    }
    for (String line : withoutCode(Files.readString(file, StandardCharsets.UTF_8)).split("\n")) {
      Matcher h = Pattern.compile("^#{1,6}\\s+(.*?)\\s*$").matcher(line);
      if (h.find()) {
        out.add(h.group(1).toLowerCase(java.util.Locale.ROOT)
            .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
      }
    }
    return out;
  }

  /** A page without its fenced code blocks (a {@code #} comment there is no heading). */
  private static String withoutCode(String page) {
    return page.replaceAll("(?s)```.*?```", "");
  }

  private static String read(String page) throws IOException {
    return Files.readString(ROOT.resolve(page), StandardCharsets.UTF_8);
  }

  // ---- the tree ----

  /** Every property of conf/hdfs-site-opass-*.xml, with its value. */
  private static Map<String, String> fragments() throws Exception {
    Map<String, String> out = new TreeMap<>();
    List<Path> files;
    try (Stream<Path> conf = Files.list(ROOT.resolve("conf"))) {
      files = conf.filter(p -> p.getFileName().toString().matches("hdfs-site-opass-.*\\.xml"))
          .sorted().collect(Collectors.toList());
    }
    assertEquals(2, files.size(), "the NameNode fragments: " + files);
    for (Path f : files) {
      try (InputStream in = Files.newInputStream(f)) {
        NodeList properties = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in)
            .getElementsByTagName("property");
        for (int i = 0; i < properties.getLength(); i++) {
          Element p = (Element) properties.item(i);
          String name = p.getElementsByTagName("name").item(0).getTextContent().trim();
          String value = p.getElementsByTagName("value").item(0).getTextContent().trim();
          assertTrue(out.put(name, value) == null, name + " is in two fragments");
        }
      }
    }
    return out;
  }

  /** The code's default of one of our keys: its constant's {@code _DEFAULT} field, or null. */
  private static Object codeDefault(String key) throws IllegalAccessException {
    if (COMPUTED_DEFAULTS.containsKey(key)) {
      return COMPUTED_DEFAULTS.get(key).get();
    }
    for (Class<?> c : KEY_CLASSES) {
      for (Map.Entry<String, String> constant : stringConstants(c).entrySet()) {
        if (!constant.getKey().equals(key)) {
          continue;
        }
        for (Field f : c.getFields()) {
          if (Modifier.isStatic(f.getModifiers())
              && f.getName().startsWith(constant.getValue() + "_DEFAULT")) {
            return f.get(null);
          }
        }
      }
    }
    return null;
  }

  /** A class's public static String constants whose value is a key: value to field name. */
  private static Map<String, String> stringConstants(Class<?> c) throws IllegalAccessException {
    Map<String, String> out = new TreeMap<>();
    for (Field f : c.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
        Object v = f.get(null);
        if (v instanceof String && KEY.matcher((String) v).matches()) {
          out.put((String) v, f.getName());
        }
      }
    }
    return out;
  }

  /** Two values the same: numbers by value ({@code 2.0} and {@code 2}), others as text. */
  private static boolean same(String a, String b) {
    if (a == null || b == null) {
      return false;
    }
    try {
      return new BigDecimal(a.trim()).compareTo(new BigDecimal(b.trim())) == 0;
    } catch (NumberFormatException e) {
      return a.trim().equals(b.trim());
    }
  }

  /** The top-level Maven modules with main code. */
  private static List<Path> modules() throws IOException {
    try (Stream<Path> dirs = Files.list(ROOT)) {
      return dirs.filter(d -> Files.isDirectory(d.resolve("src/main/java"))).sorted()
          .collect(Collectors.toList());
    }
  }

  private static List<Path> sources(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.toString().endsWith(".java")).sorted()
          .collect(Collectors.toList());
    }
  }
}
