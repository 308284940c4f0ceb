package org.opass.mrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * mrap-core is what every engine builds on, so it names none: no class of it refers to
 * MapReduce, YARN, Spark or Scala. Read from the class files (the constant pool names every
 * type a class uses, imported or written out in full), as RoleJarsTest reads the release.
 */
class CoreHasNoEngineTest {
  private static final String[] ENGINES = {"org/apache/hadoop/mapreduce/",
      "org/apache/hadoop/mapred/", "org/apache/hadoop/yarn/", "org/apache/spark/", "scala/"};

  @Test
  void noClassOfTheCoreNamesAnEngine() throws IOException {
    Path classes = Path.of("target/classes");
    List<String> found = new ArrayList<>();
    int read = 0;
    try (Stream<Path> all = Files.walk(classes)) {
      for (Path c : (Iterable<Path>) all.filter(p -> p.toString().endsWith(".class"))::iterator) {
        read++;
        // class names are ASCII, so ISO-8859-1 keeps every byte and finds them as text
        String text = new String(Files.readAllBytes(c), StandardCharsets.ISO_8859_1);
        for (String engine : ENGINES) {
          if (text.contains(engine)) {
            found.add(classes.relativize(c) + " names " + engine);
          }
        }
      }
    }
    assertTrue(read > 50, "only " + read + " classes under " + classes.toAbsolutePath());
    assertEquals(List.of(), found);
  }
}
