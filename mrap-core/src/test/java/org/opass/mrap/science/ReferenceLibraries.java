package org.opass.mrap.science;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's Python with the reference libraries (xarray, zarr, fsspec, netCDF4, requests): the
 * oracle of tests that run it at test time. {@code OPASS_PYTHON} names another interpreter;
 * else {@code /usr/bin/python3}, where {@code python3-xarray} and the others install ({@code
 * .ci/run} installs them when missing). A missing library fails the test, saying what to
 * install: such a test never skips.
 */
public final class ReferenceLibraries {
  static final String PACKAGES = "python3-xarray python3-zarr python3-fsspec python3-requests "
      + "python3-netcdf4";

  private ReferenceLibraries() {
  }

  public static String python() {
    String p = System.getenv("OPASS_PYTHON");
    return p == null || p.isBlank() ? "/usr/bin/python3" : p.trim();
  }

  /**
   * Runs {@code script} with {@code args}, giving its standard output.
   *
   * @throws IOException with the script's standard error where it fails, or what to install
   *     where the interpreter or a library is missing
   */
  public static String run(Path script, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(python(), script.toString()));
    cmd.addAll(List.of(args));
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.PIPE).start();
    } catch (IOException e) {
      throw new IOException(python() + " cannot be run (" + e.getMessage() + "): this test "
          + "reads with Debian's Python libraries: sudo apt-get install -y " + PACKAGES, e);
    }
    byte[] err;
    byte[] out;
    try {
      java.util.concurrent.CompletableFuture<byte[]> e = java.util.concurrent.CompletableFuture
          .supplyAsync(() -> {
            try {
              return p.getErrorStream().readAllBytes();
            } catch (IOException x) {
              return new byte[0];
            }
          });
      out = p.getInputStream().readAllBytes();
      if (!p.waitFor(300, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException(script + " gave no answer in 300 s");
      }
      err = e.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    String said = new String(err, StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      String hint = said.contains("ModuleNotFoundError") ? " (install the reference libraries: "
          + "sudo apt-get install -y " + PACKAGES + ")" : "";
      throw new IOException(script.getFileName() + " failed, exit " + p.exitValue() + hint
          + ":\n" + said);
    }
    return new String(out, StandardCharsets.UTF_8);
  }
}
