# Sourced by bin/bench and bin/try-mrap-copy: builds what they need, then runs a main class of
# src/test/ (the embedded cluster's side) with Hadoop's own log lines in a file.
#   run_embedded <main class> <log file> [args...]
run_embedded() {
  local main="$1" log="$2"
  shift 2
  cd "$(dirname "${BASH_SOURCE[0]}")/.."
  mkdir -p target/bench "$(dirname "$log")"
  echo "building (mvn install -DskipTests)..." >&2
  mvn -q -B install -DskipTests
  mvn -q -B -pl src/test dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$PWD/target/bench/classpath.txt" >/dev/null
  echo "Hadoop's own log lines go to $log" >&2
  exec java -Xmx8g -XX:+UseParallelGC -Djava.awt.headless=true \
    -Dlog4j.configuration=log4j-bench.properties -Dopass.bench.log="$PWD/$log" \
    -cp "target/e2e/test-classes:$(cat target/bench/classpath.txt)" "$main" "$@"
}
