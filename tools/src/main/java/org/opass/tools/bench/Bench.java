package org.opass.tools.bench;

import java.io.File;
import java.util.Map;

/** One benchmark of {@code bin/bench}: ours against stock on the same work, in one run. */
public interface Bench {
  /** Runs and returns the JSON document (must contain "summary"). */
  Map<String, Object> run(File outDir, boolean quick) throws Exception;
}
