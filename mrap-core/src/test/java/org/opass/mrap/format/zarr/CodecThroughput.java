package org.opass.mrap.format.zarr;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Decode throughput, one thread, of the chunks science/zarr/codecs/bench_codecs.py writes
 * (which prints numcodecs' own on the same bytes): {@code java -cp ...
 * org.opass.mrap.format.zarr.CodecThroughput DIR}. MB/s of decoded bytes (10^6 a second), the
 * best of several timed runs after a warm-up. Not a test: timings assert nothing.
 */
public final class CodecThroughput {
  private CodecThroughput() {
  }

  public static void main(String[] args) throws IOException {
    List<Path> ins = new ArrayList<>();
    try (DirectoryStream<Path> d = Files.newDirectoryStream(Paths.get(args[0]), "*.in")) {
      d.forEach(ins::add);
    }
    Collections.sort(ins);
    for (Path in : ins) {
      String name = in.getFileName().toString().replace(".in", "");
      byte[] src = Files.readAllBytes(in);
      byte[] expected = Files.readAllBytes(in.resolveSibling(name + ".out"));
      if (!Arrays.equals(expected, decode(name, src, expected.length))) {
        throw new AssertionError(name + " decodes wrong");
      }
      int n = Math.max(1, (int) (200_000_000L / expected.length));
      double best = Double.MAX_VALUE;
      for (int run = 0; run < 8; run++) {
        long t = System.nanoTime();
        for (int i = 0; i < n; i++) {
          decode(name, src, expected.length);
        }
        best = Math.min(best, (System.nanoTime() - t) / 1e9 / n);
      }
      System.out.printf("%-28s ratio %5.2f  java      %7.0f MB/s%n", name,
          (double) expected.length / src.length, expected.length / best / 1e6);
    }
  }

  private static byte[] decode(String name, byte[] src, long size) {
    if (name.startsWith("blosc")) {
      return Blosc.decode(src, size);
    }
    return Zstd.decode(src, size);
  }
}
