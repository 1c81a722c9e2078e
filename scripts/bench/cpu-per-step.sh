#!/bin/bash
# CPU per step on PostgreSQL for bench jars of several commits, alternated (docs/benchmarks.md,
# "The engine shape before and after"). Usage, from the repository root:
#   scripts/bench/cpu-per-step.sh NAME=path/to/threadline-bench.jar [NAME=jar ...]
# Build a commit's jar: git worktree add --detach /tmp/c COMMIT && (cd /tmp/c && mvn -q -DskipTests -pl threadline-bench -am package)
# Starts its own PostgreSQL 15 (Debian's binaries, as the postgres user) on port 55990 under /tmp/tl-cpu.
# Commits before 23e8ca9 had other package names; the script rewrites the program's imports for them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../jdk.sh" && threadline_find_jdk >/dev/null
export PATH="$JAVA_HOME/bin:$PATH"
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
work=/tmp/tl-cpu; rm -rf "$work"; mkdir -p "$work/data"; chown postgres:postgres "$work" "$work/data"
as_pg() { setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; }
as_pg "$bin/initdb" -D "$work/data" -U threadline --auth=trust >/dev/null
as_pg "$bin/pg_ctl" -D "$work/data" -l "$work/pg.log" -w start \
  -o "-p 55990 -k $work -c listen_addresses=127.0.0.1 -c autovacuum=off -c checkpoint_timeout=30min" >/dev/null
trap 'as_pg "$bin/pg_ctl" -D "$work/data" -m fast stop >/dev/null' EXIT
"$bin/psql" -h 127.0.0.1 -p 55990 -U threadline -d postgres -qc 'CREATE DATABASE bench'
for spec in "$@"; do
  name=${spec%%=*}; jar=${spec#*=}; mkdir -p "$work/$name"
  src="$work/$name/CpuPerStep.java"; cp "$here/CpuPerStep.java" "$src"
  if ! unzip -l "$jar" 'dev/threadline/core/testkit/RawSteps.class' >/dev/null 2>&1; then   # before the engine shape
    sed -i -e 's/dev.threadline.core.Threadline;/dev.threadline.core.runtime.Threadline;/' \
      -e 's/dev.threadline.core.testkit.RawSteps/dev.threadline.core.internal.runtime.RawSteps/' \
      -e 's/dev.threadline.core.session.SessionConfig/dev.threadline.core.model.SessionConfig/' \
      -e 's/dev.threadline.bench.kit.BenchMessage/dev.threadline.bench.BenchMessage/' "$src"
  fi
  javac -d "$work/$name" -cp "$jar" "$src"
done
{
for r in 1 2 3; do
  for sessions in 16 256; do
    for spec in "$@"; do
      name=${spec%%=*}; jar=${spec#*=}
      echo "== $name sessions=$sessions run=$r load $(cut -d' ' -f1 /proc/loadavg)"
      java -cp "$work/$name:$jar" CpuPerStep postgresql://threadline@127.0.0.1:55990/bench "$work/data" \
        "$sessions" $((sessions >= 256 ? 8 : 2048 / sessions)) 25 2>/dev/null | grep '^round'
    done
  done
done
} | tee "$work/rounds.txt"
# The medians of rounds 15-24 (the JIT settled) per build, session count and run.
python3 - "$work/rounds.txt" <<'PY'
import re, statistics, sys, collections
runs = collections.defaultdict(list); cur = None
for line in open(sys.argv[1]):
    m = re.match(r'== (\S+) sessions=(\d+) run=(\d+)', line)
    if m: cur = (int(m.group(2)), m.group(1), int(m.group(3))); continue
    m = re.match(r'round (\d+): ([\d.]+) steps/s, jvm cpu ([\d.]+) us/step, pg cpu ([\d.-]+) us/step', line)
    if m and cur and int(m.group(1)) >= 15: runs[cur].append([float(m.group(i)) for i in (2, 3, 4)])
print("sessions build  | per run: steps/s, JVM CPU us/step, PostgreSQL CPU us/step (medians of rounds 15-24)")
for key in sorted({k[:2] for k in runs}, key=lambda k: k[0]):
    cells = ["%6.0f/s %4.0f %4.0f" % tuple(statistics.median(x[i] for x in runs[key + (r,)]) for i in range(3))
             for r in (1, 2, 3) if key + (r,) in runs]
    print("%8d %-6s | %s" % (key[0], key[1], " | ".join(cells)))
PY
