# Sourced by the launchers beside it: finds the hadoop command and puts client/*.jar on the
# client's classpath (HADOOP_CLASSPATH, before what is set already). The jobs' own jars carry
# what their tasks need (lib/ inside mrap-copy and mrap-inputformat).
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ -n "${HADOOP_HOME:-}" ] && [ -x "$HADOOP_HOME/bin/hadoop" ]; then
  hadoop="$HADOOP_HOME/bin/hadoop"
elif command -v hadoop > /dev/null; then
  hadoop=hadoop
else
  echo "$(basename "$0"): no hadoop command: set HADOOP_HOME or put hadoop on the PATH" >&2
  exit 1
fi
jars=("$home"/client/*.jar)
client_classpath="$(IFS=:; echo "${jars[*]}")"
export HADOOP_CLASSPATH="$client_classpath${HADOOP_CLASSPATH:+:$HADOOP_CLASSPATH}"

# client_jar NAME: client/NAME-<version>.jar
client_jar() {
  local j
  for j in "$home"/client/"$1"-[0-9]*.jar; do echo "$j"; return; done
}
