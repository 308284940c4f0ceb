package org.opass.tools.cluster;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;

/**
 * The release tarball ({@code dist/target/opass-mrap-*-bin.tar.gz}) unpacked as an operator
 * unpacks it, and a stand-in Hadoop install to run its launchers with: what the install and
 * README tests use instead of our build folders.
 */
public final class Release {
  /** The repository's root: the folder above the test classes that holds README.md. */
  public static final Path ROOT = repositoryRoot();

  private Release() {
  }

  /**
   * Unpacks the release into {@code into} (emptied first) and returns its top folder,
   * {@code opass-mrap-<version>}.
   */
  public static Path unpack(Path into) throws IOException {
    Path tarball;
    try (Stream<Path> files = Files.list(ROOT.resolve("dist/target"))) {
      tarball = files.filter(p -> p.getFileName().toString().matches("opass-mrap-.*-bin\\.tar\\.gz"))
          .findFirst().orElseThrow(() -> notBuilt(null));
    } catch (java.nio.file.NoSuchFileException e) {
      throw notBuilt(e);
    }
    FileUtil.fullyDelete(into.toFile());
    Files.createDirectories(into);
    FileUtil.unTar(tarball.toFile(), into.toFile());
    try (Stream<Path> top = Files.list(into)) {
      return top.filter(Files::isDirectory).findFirst()
          .orElseThrow(() -> new IOException(tarball + " holds no folder"));
    }
  }

  private static IllegalStateException notBuilt(Exception cause) {
    return new IllegalStateException("no release tarball in dist/target: run the README's test "
        + "command, mvn -B verify, which packages it before these tests run", cause);
  }

  /** The jars of one role folder of an unpacked release ({@code namenode}, {@code client}). */
  public static List<Path> jars(Path release, String role) throws IOException {
    try (Stream<Path> files = Files.list(release.resolve(role))) {
      return files.filter(p -> p.toString().endsWith(".jar")).sorted()
          .collect(Collectors.toList());
    }
  }

  /** Every key of the release's {@code conf/hdfs-site-*.xml} fragments, as an operator merges them. */
  public static Map<String, String> siteFragments(Path release) throws IOException {
    Map<String, String> site = new LinkedHashMap<>();
    try (Stream<Path> files = Files.list(release.resolve("conf"))) {
      for (Path f : (Iterable<Path>) files.sorted().filter(
          p -> p.getFileName().toString().startsWith("hdfs-site-"))::iterator) {
        Configuration c = new Configuration(false);
        c.addResource(new org.apache.hadoop.fs.Path(f.toUri()));
        for (Map.Entry<String, String> e : c) {
          site.put(e.getKey(), e.getValue());
        }
      }
    }
    return site;
  }

  /** The test's classpath without anything of ours or JGraphT: what a Hadoop install has. */
  public static String hadoopClasspath() {
    return Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(p -> !p.startsWith(ROOT.toString()) && !p.contains("/org/opass/")
            && !p.contains("jgrapht"))
        .collect(Collectors.joining(File.pathSeparator));
  }

  /**
   * A Hadoop "install" in {@code home} whose {@code bin/hadoop} runs {@code hadoop jar} and
   * {@code hadoop fs} as Hadoop's script does: {@code RunJar} (or {@code FsShell}) with the site
   * files of {@code site} in {@code etc/hadoop}, Hadoop's jars, then {@code HADOOP_CLASSPATH},
   * and the JVM options its scripts give on Java 17 ({@link ChildJvm#HADOOP_JAVA17_OPTS}).
   * Like Hadoop's own {@code log4j.properties}, a job's progress and counters are printed.
   * Returns {@code home}, for {@code HADOOP_HOME}.
   */
  public static Path standInHadoop(Path home, Configuration site) throws IOException {
    Path siteDir = Files.createDirectories(home.resolve("etc/hadoop"));
    try (OutputStream out = Files.newOutputStream(siteDir.resolve("core-site.xml"))) {
      site.writeXml(out);
    }
    Files.writeString(siteDir.resolve("log4j.properties"), "log4j.rootLogger=WARN,console\n"
        + "log4j.logger.org.apache.hadoop.mapreduce.Job=INFO\n"
        + "log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR\n"
        + "log4j.appender.console=org.apache.log4j.ConsoleAppender\n"
        + "log4j.appender.console.Target=System.err\n"
        + "log4j.appender.console.layout=org.apache.log4j.PatternLayout\n"
        + "log4j.appender.console.layout.ConversionPattern=%d{HH:mm:ss} %p %c{2}: %m%n\n");
    Path bin = Files.createDirectories(home.resolve("bin"));
    Path hadoop = bin.resolve("hadoop");
    Files.writeString(hadoop, "#!/usr/bin/env bash\n"
        + "# hadoop jar JAR ARGS | hadoop fs ARGS, as Hadoop's script runs them: the site files,\n"
        + "# Hadoop's jars, then HADOOP_CLASSPATH\n"
        + "case \"$1\" in\n"
        + "  jar) main=org.apache.hadoop.util.RunJar ;;\n"
        + "  fs) main=org.apache.hadoop.fs.FsShell ;;\n"
        + "  *) echo \"this hadoop runs 'jar' and 'fs' only\" >&2; exit 2 ;;\n"
        + "esac\n"
        + "shift\n"
        + "exec \"" + Path.of(System.getProperty("java.home"), "bin", "java") + "\" "
        + "-Xmx512m " + String.join(" ", ChildJvm.HADOOP_JAVA17_OPTS) + " "
        + String.join(" ", ChildJvm.QUICK_START)
        + " -cp \"" + siteDir + File.pathSeparator + hadoopClasspath()
        + "${HADOOP_CLASSPATH:+" + File.pathSeparator + "$HADOOP_CLASSPATH}\" "
        + "\"$main\" \"$@\"\n");
    if (!hadoop.toFile().setExecutable(true)) {
      throw new IOException("cannot make " + hadoop + " executable");
    }
    return home;
  }

  /**
   * Runs {@code command} in {@code dir} as a user of the release would, with
   * {@code HADOOP_HOME} set and no {@code HADOOP_CLASSPATH}; its output (stdout and stderr as
   * they came), or an exception with that output if it fails or takes over 3 minutes.
   */
  public static String launch(Path dir, Path hadoopHome, List<String> command)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
        .redirectErrorStream(true);
    pb.environment().put("HADOOP_HOME", hadoopHome.toString());
    pb.environment().remove("HADOOP_CLASSPATH");
    Path log = Files.createTempFile(dir.getParent(), "out-", ".txt");
    pb.redirectOutput(log.toFile());
    Process p = pb.start();
    String shown = String.join(" ", command);
    if (!p.waitFor(3, java.util.concurrent.TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IOException("'" + shown + "' did not finish in 3 minutes");
    }
    String out = Files.readString(log, java.nio.charset.StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new IOException("'" + shown + "' exited " + p.exitValue() + ":\n" + out);
    }
    return out;
  }

  /**
   * The repository's root: the first folder with a README.md above these classes (in the
   * build's tree), else above the working folder (a test's module, bin/bench's root).
   */
  public static Path repositoryRoot() {
    try {
      Path p = Path.of(Release.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toAbsolutePath();
      Path found = withReadme(p);
      found = found != null ? found : withReadme(Path.of("").toAbsolutePath());
      if (found == null) {
        throw new IllegalStateException("no README.md above " + p + " or the working folder");
      }
      return found;
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Path withReadme(Path p) {
    while (p != null && !Files.exists(p.resolve("README.md"))) {
      p = p.getParent();
    }
    return p;
  }
}
