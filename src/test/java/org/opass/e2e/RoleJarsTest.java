package org.opass.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opass.tools.cluster.Release;

/**
 * The release's jars by the JVM that loads them, read from the tarball's class files: each
 * role folder holds every class of ours its entry points reach (none missing), no jar they do
 * not reach (none too many), and nothing of the other role: no NameNode or DataNode internals
 * on clients, no MapReduce in the NameNode, and JGraphT (the tests' reference) nowhere.
 * The entry points are what loads our code: the class names in the {@code conf/} fragments
 * for the NameNode; each client jar's main class and the public API a job names (the
 * {@code @InterfaceAudience.Public} InputFormats and plan client) for clients and tasks; the
 * data source a {@code DataSourceRegister} service names, and that API, for each jar of
 * {@code spark/} (one a Spark line, each whole on its own). No Spark or Scala class is named
 * by what the NameNode or a task loads.
 */
class RoleJarsTest {
  /** Our classes, and those of the libraries the release carries beside Hadoop's. */
  private static final Pattern OURS =
      Pattern.compile("(org/opass|io/jhdf|com/ning/compress|net/jpountz|io/airlift/compress)"
          + "/[\\w/$]+");
  /** What only the NameNode runs (or only the tests): no client-side jar may name it. */
  private static final String[] NAMENODE_SIDE = {"org/apache/hadoop/hdfs/server/",
      "org/jgrapht/", "org/opass/heatmap/nn/", "org/opass/read/nn/", "org/opass/placement/"};
  private static final String PUBLIC =
      "Lorg/apache/hadoop/classification/InterfaceAudience$Public;";

  private static Path release;

  @BeforeAll
  static void unpack() throws IOException {
    release = Release.unpack(Path.of("target/e2e/role-jars").toAbsolutePath());
  }

  @Test
  void theNameNodeFolderHoldsWhatTheSiteKeysLoadAndNoClientCode() throws IOException {
    Role nn = Role.read(release, "namenode");
    Set<String> entries = new TreeSet<>();
    for (String value : Release.siteFragments(release).values()) {
      if (value.startsWith("org.opass.")) {
        entries.add(value.replace('.', '/'));
      }
    }
    assertEquals(3, entries.size(), "the placement policy, topology and plugin: " + entries);
    nn.assertExactlyWhatIsReached(entries);
    nn.assertNoReferenceTo("org/apache/hadoop/mapreduce/", "org/apache/hadoop/mapred/",
        "org/jgrapht/", "org/apache/spark/", "scala/");
  }

  @Test
  void theClientFolderHoldsWhatTheCommandsAndTheApiLoadAndNoNameNodeCode() throws IOException {
    Role client = Role.read(release, "client");
    Set<String> entries = client.jobApi();
    for (Path jar : client.jars) {
      try (JarFile j = new JarFile(jar.toFile())) {
        String main = j.getManifest().getMainAttributes().getValue("Main-Class");
        if (main != null) {
          entries.add(main.replace('.', '/'));
        }
      }
    }
    assertTrue(entries.contains("org/opass/mrap/copy/MrapCopy"), entries.toString());
    assertTrue(entries.contains("org/opass/mrap/mapreduce/AccessInputFormat"),
        entries.toString());
    client.assertExactlyWhatIsReached(entries);
    client.assertNoReferenceTo(NAMENODE_SIDE);
    client.assertNoReferenceTo("org/apache/spark/", "scala/");
  }

  @Test
  void eachSparkJarHoldsTheDataSourceAndWhatItReachesAndNoSparkHadoopOrScalaClass()
      throws IOException {
    List<Path> jars = Release.jars(release, "spark");
    List<String> names = new ArrayList<>();
    for (Path jar : jars) {
      names.add(jar.getFileName().toString().replaceAll("-[0-9][^-]*(-SNAPSHOT)?-spark", ""));
    }
    assertEquals(List.of("mrap-spark.jar", "mrap-spark4.jar"), names, "spark/ holds " + jars);
    for (Path jar : jars) {
      Role spark = Role.read(jar.getFileName().toString(), List.of(jar));
      Set<String> entries = spark.jobApi(); // the RDD path: our InputFormats from Spark
      try (JarFile j = new JarFile(jar.toFile())) {
        ZipEntry services = j.getEntry(
            "META-INF/services/org.apache.spark.sql.sources.DataSourceRegister");
        assertTrue(services != null, jar + " registers no data source");
        try (InputStream in = j.getInputStream(services)) {
          String named = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
          assertEquals("org.opass.mrap.spark.MrapSource", named, jar.toString());
          entries.add(named.replace('.', '/'));
        }
      }
      // LZF and LZ4 (jHDF's filters) are spark-core's own dependencies, 3.5 and 4 alike; so
      // is aircompressor (Zarr's zstd and LZ4), through ORC: 0.27 in 3.5, 2.0 in 4
      spark.assertExactlyWhatIsReached(entries, "com/ning/compress/", "net/jpountz/",
          "io/airlift/compress/");
      List<String> foreign = new ArrayList<>();
      for (String c : spark.jarOf.keySet()) {
        if (!c.startsWith("org/opass/") && !c.startsWith("io/jhdf/")) {
          foreign.add(c);
        }
      }
      // Spark, Hadoop and Scala are the cluster's; LZF and LZ4 come with Spark
      assertEquals(List.of(), foreign, "classes in " + jar.getFileName() + " not ours or jHDF's");
      // and no Scala class but the three of Spark's v1 write interface (MrapSource's
      // createRelation), which Scala 2.12 and 2.13 name and call alike: the jar is then the
      // same for Spark built for either
      spark.assertNoReferenceTo(NAMENODE_SIDE);
      spark.assertNoReferenceTo(List.of("scala/collection/immutable/Map",
          "scala/collection/Iterator", "scala/Tuple2"), "scala/");
    }
  }

  /** The classes of one role folder's jars (not the lib/ folders inside them). */
  private static final class Role {
    final String name;
    final List<Path> jars;
    final Map<String, Path> jarOf = new LinkedHashMap<>();
    final Map<String, Set<String>> refsOf = new LinkedHashMap<>();
    final Map<String, List<String>> allRefsOf = new LinkedHashMap<>();
    final Set<String> publicApi = new TreeSet<>();

    private Role(String name, List<Path> jars) {
      this.name = name;
      this.jars = jars;
    }

    static Role read(Path release, String name) throws IOException {
      List<Path> jars = Release.jars(release, name);
      assertTrue(jars.size() >= 3, name + "/ holds " + jars);
      return read(name, jars);
    }

    static Role read(String name, List<Path> jars) throws IOException {
      Role r = new Role(name, jars);
      for (Path jar : r.jars) {
        try (JarFile j = new JarFile(jar.toFile())) {
          for (Enumeration<? extends ZipEntry> en = j.entries(); en.hasMoreElements(); ) {
            ZipEntry e = en.nextElement();
            if (!e.getName().endsWith(".class") || e.getName().startsWith("lib/")) {
              continue;
            }
            String cls = e.getName().substring(0, e.getName().length() - ".class".length());
            List<String> strings;
            try (InputStream in = j.getInputStream(e)) {
              strings = utf8Constants(in);
            }
            Set<String> ours = new HashSet<>();
            for (String s : strings) {
              Matcher m = OURS.matcher(s);
              while (m.find()) {
                ours.add(m.group());
              }
              // a package's mark (package-info) is no class a job loads
              if (s.equals(PUBLIC) && !cls.contains("$") && !cls.endsWith("/package-info")) {
                r.publicApi.add(cls);
              }
            }
            r.jarOf.put(cls, jar);
            r.refsOf.put(cls, ours);
            r.allRefsOf.put(cls, strings);
          }
        }
      }
      return r;
    }

    /** What a job names: the public InputFormats and the plan client. */
    Set<String> jobApi() {
      Set<String> api = new TreeSet<>();
      for (String c : publicApi) {
        if (c.matches("org/opass/(mrap|read)/(mapreduce|client)/.*")) {
          api.add(c);
        }
      }
      return api;
    }

    /**
     * Every class the entries reach is here (but those under {@code provided}, which the JVM
     * that loads them has already), and every jar holds one of them.
     */
    void assertExactlyWhatIsReached(Set<String> entries, String... provided) {
      Set<String> reached = new HashSet<>();
      List<String> missing = new ArrayList<>();
      Deque<String> todo = new ArrayDeque<>(entries);
      Map<String, String> from = new LinkedHashMap<>();
      while (!todo.isEmpty()) {
        String c = todo.pop();
        if (!reached.add(c) || Stream.of(provided).anyMatch(c::startsWith)) {
          continue;
        }
        Set<String> refs = refsOf.get(c);
        if (refs == null) {
          missing.add(c + (from.containsKey(c) ? " (used by " + from.get(c) + ")" : ""));
          continue;
        }
        for (String r : refs) {
          from.putIfAbsent(r, c);
          todo.push(r);
        }
      }
      assertEquals(List.of(), missing, "classes " + name + "/ lacks");
      Set<Path> used = new HashSet<>();
      for (String c : reached) {
        used.add(jarOf.get(c));
      }
      List<Path> unused = new ArrayList<>(jars);
      unused.removeAll(used);
      assertEquals(List.of(), unused, "jars in " + name + "/ that nothing it loads needs");
    }

    void assertNoReferenceTo(String... prefixes) {
      assertNoReferenceTo(List.of(), prefixes);
    }

    /** As above, where the names {@code allowed} are left out of each reference first. */
    void assertNoReferenceTo(List<String> allowed, String... prefixes) {
      List<String> offenders = new ArrayList<>();
      for (Map.Entry<String, List<String>> c : allRefsOf.entrySet()) {
        for (String ref : c.getValue()) {
          String s = ref;
          for (String a : allowed) {
            s = s.replace(a + ";", "").replace(a + ".", "").replace(a + "<", "");
            if (s.equals(a)) {
              s = "";
            }
          }
          for (String p : prefixes) {
            if (s.contains(p)) {
              offenders.add(c.getKey() + " (" + jarOf.get(c.getKey()).getFileName() + ") -> "
                  + s);
            }
          }
        }
      }
      assertEquals(List.of(), offenders, "classes in " + name + "/ that name the other role's");
    }
  }

  /** The UTF-8 constants of a class file's constant pool: the names of what it uses. */
  static List<String> utf8Constants(InputStream classFile) throws IOException {
    DataInputStream in = new DataInputStream(classFile);
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException("not a class file");
    }
    in.readUnsignedShort(); // minor
    in.readUnsignedShort(); // major
    int count = in.readUnsignedShort();
    List<String> out = new ArrayList<>();
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1: // Utf8
          out.add(in.readUTF());
          break;
        case 7: case 8: case 16: case 19: case 20: // Class, String, MethodType, Module, Package
          in.skipBytes(2);
          break;
        case 15: // MethodHandle
          in.skipBytes(3);
          break;
        case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18:
          in.skipBytes(4);
          break;
        case 5: case 6: // Long, Double: two slots
          in.skipBytes(8);
          i++;
          break;
        default:
          throw new IOException("constant pool tag " + tag + " at entry " + i);
      }
    }
    return out;
  }
}
