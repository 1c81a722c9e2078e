#!/usr/bin/env bash
# Builds and runs every example under examples/ (see examples/README.md) against the library modules of
# this checkout: the examples are Maven projects that import threadline-dependencies, built in the reactor
# behind -P examples, so nothing is installed anywhere (~/.m2 only gains the libraries downloaded as usual).
# -DskipTests skips the library modules' tests (./test ran them); the examples' own tests run (their
# parent sets skipTests=false) and check what each example prints. The MCP examples need the npm
# reference servers (scripts/ci-mcp.sh). Extra arguments go to Maven.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/jdk.sh
threadline_find_jdk
threadline_maven_env
node_dir=threadline-mcp/src/test/node/node_modules/@modelcontextprotocol
[ -d "$node_dir/server-filesystem" ] && [ -d "$node_dir/server-everything" ] || bash scripts/ci-mcp.sh >/dev/null
examples=$(sed -n 's|^ *<module>\(.*\)</module>.*|examples/\1|p' examples/pom.xml | paste -sd, -)
start=$(date +%s)
# -Dmaven.source.skip: the library modules' -sources jars are not what the examples test
mvn -B -ntp -q -P examples verify -DskipTests -Dmaven.source.skip=true -pl "examples,$examples" -am "$@"
echo "examples: built and ran $(tr ',' '\n' <<<"$examples" | wc -l) examples in $(( $(date +%s) - start )) s"

# The Spring Boot example as a user runs it: its jar started as a process on a free port with its own SQLite
# file, two HTTP requests to one conversation; the second answer must show the first message (the ChatClient's
# memory is the starter's Threadline repository). Bounded: 90 s to start, then the process is stopped by its id.
command -v curl >/dev/null 2>&1 || apt-get install -y -qq curl >/dev/null
boot_jar=examples/spring-boot/target/example-spring-boot.jar
boot_dir=$(mktemp -d)
port=
for _ in $(seq 1 50); do
  candidate=$(( 20000 + RANDOM % 40000 ))
  if ! (exec 3<>"/dev/tcp/127.0.0.1/$candidate") 2>/dev/null; then port=$candidate; break; fi
done
[ -n "$port" ] || { echo "examples: no free port for the Spring Boot example" >&2; exit 1; }
start=$(date +%s)
"$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -jar "$boot_jar" --server.port="$port" --server.address=127.0.0.1 \
  --threadline.store="sqlite:$boot_dir/chat.db" >"$boot_dir/out" 2>&1 &
boot_pid=$!
trap 'kill "$boot_pid" 2>/dev/null || true' EXIT
chat() { curl -sS --fail-with-body -H 'Content-Type: text/plain' --data "$2" "http://127.0.0.1:$port/chat/$1"; }
until curl -s -o /dev/null "http://127.0.0.1:$port/"; do
  if ! kill -0 "$boot_pid" 2>/dev/null || [ $(( $(date +%s) - start )) -gt 90 ]; then
    echo "examples: the Spring Boot example did not start:" >&2; cat "$boot_dir/out" >&2; exit 1
  fi
  sleep 0.5
done
first=$(chat ci "my name is Ada")
second=$(chat ci "what is my name?")
kill "$boot_pid"; wait "$boot_pid" 2>/dev/null || true; trap - EXIT
echo "spring-boot example: $first / $second"
[ "$second" = "you said 2: my name is Ada | what is my name?" ] \
  || { echo "examples: the Spring Boot example's second answer does not see the first: $second" >&2; cat "$boot_dir/out" >&2; exit 1; }
echo "examples: the Spring Boot example answered over HTTP with its memory in $(( $(date +%s) - start )) s"
