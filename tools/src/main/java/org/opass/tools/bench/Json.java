package org.opass.tools.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;

/** JSON output of benchmarks, written atomically (no half-written result on failure). */
public final class Json {
  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  private Json() {
  }

  public static void writeAtomically(File file, Object doc) throws IOException {
    file.getParentFile().mkdirs();
    File tmp = new File(file.getParentFile(), "." + file.getName() + ".tmp");
    MAPPER.writeValue(tmp, doc);
    Files.move(tmp.toPath(), file.toPath(), StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
  }

  public static String toString(Object o) {
    try {
      return new ObjectMapper().writeValueAsString(o);
    } catch (IOException e) {
      return String.valueOf(o);
    }
  }
}
