# Sourced by bin/demo, bin/bench and bin/try-mrap-copy: builds what they need, then runs a main class of
# tools/ (the embedded cluster's side) with Hadoop's own log lines in a file. With
# EMBEDDED_SPARK=1 it also builds mrap-spark and passes its test classpath (a file) to the main.
#   run_embedded <main class> <log file> [args...]
build_failed() {
  tail -40 target/bench/build.log >&2
  echo "build failed; Maven's output is in target/bench/build.log" >&2
  exit 1
}

run_embedded() {
  local main="$1" log="$2"
  shift 2
  cd "$(dirname "${BASH_SOURCE[0]}")/.."
  mkdir -p target/bench "$(dirname "$log")"
  echo "building (mvn install -DskipTests)..." >&2
  local built=$SECONDS
  # Maven's own output (escape codes even when quiet) goes to a file, shown if the build fails
  # the Spark data source is not needed here (nor Spark's jars on a first run)
  if ! { mvn -q -B install -DskipTests -DskipSpark \
      && mvn -q -B -DskipSpark -pl tools dependency:build-classpath \
      -Dmdep.includeScope=runtime -Dmdep.outputFile="$PWD/target/bench/classpath.txt"; } \
      > target/bench/build.log 2>&1; then
    build_failed
  fi
  local spark=()
  if [ "${EMBEDDED_SPARK:-0}" = 1 ]; then # a bench that drives a Spark application
    echo "building mrap-spark (a first run fetches Spark's jars)..." >&2
    if ! mvn -q -B -pl mrap-spark test-compile dependency:build-classpath \
        -Dmdep.includeScope=test -Dmdep.outputFile="$PWD/target/bench/spark-deps.txt" \
        >> target/bench/build.log 2>&1; then
      build_failed
    fi
    echo "$PWD/mrap-spark/target/test-classes:$PWD/mrap-spark/target/classes:$(cat \
      target/bench/spark-deps.txt)" > target/bench/spark-classpath.txt
    spark=(-Dopass.bench.spark.classpath="$PWD/target/bench/spark-classpath.txt")
  fi
  echo "built in $((SECONDS - built)) s; Hadoop's own log lines go to $log" >&2
  # --add-opens: YARN's ResourceManager web app (Guice/cglib) on Java 17, as in the tests;
  # an absolute class path: YARN containers of a bench (HostYarn) start with this one, in their
  # own working folders; EMBEDDED_JVM_OPTS: more options for this JVM (e.g. a JFR recording)
  # shellcheck disable=SC2086
  exec java -Xmx8g -XX:+UseParallelGC -Djava.awt.headless=true ${EMBEDDED_JVM_OPTS:-} \
    --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.util=ALL-UNNAMED \
    --add-opens java.base/java.lang.reflect=ALL-UNNAMED --add-opens java.base/java.net=ALL-UNNAMED \
    --add-opens java.base/java.io=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
    -Dlog4j.configuration=log4j-bench.properties -Dopass.bench.log="$PWD/$log" \
    ${spark[@]+"${spark[@]}"} \
    -cp "$PWD/tools/target/classes:$(cat target/bench/classpath.txt)" "$main" "$@"
}
