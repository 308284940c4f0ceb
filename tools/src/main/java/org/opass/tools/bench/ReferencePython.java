package org.opass.tools.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The Python interpreter that writes the benchmarks' scientific data with the reference
 * libraries (netCDF-C through netCDF4, HDF5 through h5py): {@code OPASS_PYTHON} (or the system
 * property {@code opass.python}) if set, else the first of {@code python3} and
 * {@code /usr/bin/python3} (Debian's, where python3-netcdf4 and python3-h5py install) that imports
 * both. A {@code python3} earlier on the PATH (a pyenv, a virtualenv) often lacks them.
 */
public final class ReferencePython {
  public static final String ENV = "OPASS_PYTHON";
  public static final String PROPERTY = "opass.python";

  private ReferencePython() {
  }

  /**
   * @throws IOException saying which interpreters were tried, why each was not taken, and how to
   *     get one that will be
   */
  public static String find() throws IOException {
    Set<String> candidates = new LinkedHashSet<>();
    String chosen = System.getProperty(PROPERTY, System.getenv(ENV));
    if (chosen != null && !chosen.isBlank()) {
      candidates.add(chosen.trim());
    } else {
      candidates.add("python3");
      candidates.add("/usr/bin/python3");
    }
    List<String> tried = new ArrayList<>();
    for (String python : candidates) {
      String why = check(python);
      if (why == null) {
        return python;
      }
      tried.add(python + " (" + why + ")");
    }
    throw new IOException("the benchmark's data are written by netCDF-C and HDF5 through Python's "
        + "netCDF4 and h5py, and no interpreter tried has both: " + String.join("; ", tried)
        + ". On Debian or Ubuntu: sudo apt-get install python3-netcdf4 python3-h5py (then "
        + "/usr/bin/python3 has them); elsewhere set " + ENV + " to a Python 3 that imports "
        + "netCDF4 and h5py");
  }

  /** Null if {@code python} imports netCDF4 and h5py, else why not. */
  private static String check(String python) {
    try {
      Process p = new ProcessBuilder(python, "-c", "import netCDF4, h5py")
          .redirectErrorStream(true).start();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return "no answer in 60 s";
      }
      String said = new String(p.getInputStream().readAllBytes()).trim();
      if (p.exitValue() == 0) {
        return null;
      }
      String last = said.isEmpty() ? "exit " + p.exitValue()
          : said.substring(said.lastIndexOf('\n') + 1);
      return last;
    } catch (IOException e) {
      return "cannot be run: " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }
}
