package org.opass.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.opass.heatmap.Heatmap;
import org.opass.placement.HmLruPlacementPolicy;
import org.opass.read.nn.BalancingNetworkTopology;

/**
 * What goes on the NameNode (opass-heatmap, opass-placement, opass-read) needs nothing beyond
 * Hadoop's classpath: no class of ours there names a JGraphT class, which the tests alone use.
 */
class NameNodeJarsTest {

  @Test
  void noClassThatGoesOnTheNameNodeReferencesJGraphT() throws Exception {
    List<String> offenders = new ArrayList<>();
    int classes = 0;
    for (Class<?> anchor : new Class<?>[] {Heatmap.class, HmLruPlacementPolicy.class,
        BalancingNetworkTopology.class}) {
      for (ClassFile c : classFilesBeside(anchor)) {
        classes++;
        // a class that uses another names it in its constant pool, in internal form
        if (new String(c.bytes, StandardCharsets.ISO_8859_1).contains("org/jgrapht/")) {
          offenders.add(c.name);
        }
      }
    }
    assertTrue(classes > 40, "found only " + classes + " classes: wrong place searched");
    assertEquals(List.of(), offenders);
  }

  private static final class ClassFile {
    final String name;
    final byte[] bytes;

    ClassFile(String name, byte[] bytes) {
      this.name = name;
      this.bytes = bytes;
    }
  }

  /** Every class file of the jar (or build directory) that {@code anchor} was loaded from. */
  private static List<ClassFile> classFilesBeside(Class<?> anchor)
      throws IOException, URISyntaxException {
    Path where = Paths.get(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<ClassFile> out = new ArrayList<>();
    if (Files.isDirectory(where)) {
      List<Path> files;
      try (Stream<Path> walk = Files.walk(where)) {
        files = walk.filter(f -> f.toString().endsWith(".class")).collect(Collectors.toList());
      }
      for (Path p : files) {
        out.add(new ClassFile(where.relativize(p).toString(), Files.readAllBytes(p)));
      }
      return out;
    }
    try (ZipFile jar = new ZipFile(where.toFile())) {
      for (Enumeration<? extends ZipEntry> en = jar.entries(); en.hasMoreElements(); ) {
        ZipEntry e = en.nextElement();
        if (e.getName().endsWith(".class")) {
          try (InputStream in = jar.getInputStream(e)) {
            out.add(new ClassFile(where.getFileName() + "!" + e.getName(), in.readAllBytes()));
          }
        }
      }
    }
    return out;
  }
}
