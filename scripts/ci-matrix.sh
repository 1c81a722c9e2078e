#!/usr/bin/env bash
# The version matrix: each adapter's tests on the framework's previous line too (the build and ./test use the
# current one). Spring AI: threadline-spring-ai's tests (differential against Spring AI's own repository) on
# 1.1.x (-Pspring-ai-1), with the main classes compiled against 2.0.x left as they are (-Dmaven.main.skip), so
# the jar users get is what runs on both lines (docs/adr/0039). Run after ./test in .ci/run; on its own it
# compiles the module first. Extra arguments go to Maven.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/jdk.sh
threadline_find_jdk
threadline_maven_env
start=$(date +%s)
current=$(sed -n 's|^ *<spring-ai.version>\(.*\)</spring-ai.version>.*|\1|p' pom.xml | head -1)
previous=$(sed -n 's|^ *<spring-ai-1.version>\(.*\)</spring-ai-1.version>.*|\1|p' pom.xml | head -1)
# the main classes at the current line (nothing to do when ./test has just built them)
mvn -B -ntp -q compile -pl threadline-spring-ai -am "$@"
# the upstream modules' tests are compiled (up to date after ./test) but not run: -Dtest names the adapter's
log=$(mktemp)
if ! mvn -B -ntp test -pl threadline-spring-ai -am -Pspring-ai-1 -Dmaven.main.skip=true \
    -Dtest='dev.threadline.springai.**' -Dsurefire.failIfNoSpecifiedTests=false "$@" >"$log" 2>&1; then
  cat "$log"; echo "matrix: threadline-spring-ai's tests failed on Spring AI $previous" >&2; exit 1
fi
grep -q "Not compiling main sources" "$log" || { cat "$log"; echo "matrix: the main classes were recompiled" >&2; exit 1; }
summary=$(grep -E '^\[INFO\] Tests run: [0-9]+, Failures: 0, Errors: 0, Skipped: [0-9]+$' "$log" | tail -1 | sed 's/^\[INFO\] //')
[ -n "$summary" ] || { cat "$log"; echo "matrix: no test summary" >&2; exit 1; }
echo "matrix: threadline-spring-ai built on Spring AI $current, tested on $previous: $summary ($(( $(date +%s) - start )) s)"
