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
