#!/usr/bin/env bash
# The budget's overhead in instructions, which do not drift with the
# machine: the testsuite's workload benchmarks built twice (the default
# build, which meters, and the jinjabox_nometer build, which charges
# nothing), each render mode run under valgrind's callgrind at two
# iteration counts in each build; the difference of the two counts over
# the difference of the iterations is the instructions of one render,
# setup (decoding, the output check, the parse) cancelled out. The
# timed pairs of scripts/bench-overhead.sh move by a fifth between runs
# on a shared machine; these counts repeat within about 1% (Go's map
# seeds change a lookup's probes from one process to the next), except
# bigtext's, small and mostly the runtime's allocation of its output,
# which moves by several percent.
#
#   scripts/bench-instructions.sh [OUT]
#
# Writes a Markdown table to OUT (default bench-instructions.md) and
# stdout. GO (default go) and MODES (default: context render) can be set.
# Needs valgrind (Debian's valgrind package). About 4 minutes on 2 cores.
set -euo pipefail
out=$(realpath -m "${1:-bench-instructions.md}")
GO=${GO:-go}
MODES=${MODES:-"context render"}
command -v valgrind >/dev/null || { echo "bench-instructions: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
# shellcheck source=scripts/meter-builds.sh
source "$(dirname "$0")/meter-builds.sh"
cd testsuite # the binaries read their workloads relative to the package

# count BIN BENCH N: the instructions callgrind counts for the whole run
# of BENCH at N iterations. GOGC=off and one P keep the collector and the
# scheduler's other goroutines out of the count; async preemption's
# signals out of valgrind's way; cpu.rdtscp=off keeps the runtime from
# RDTSCP (its lock's wait timing), which valgrind 3.19 cannot decode: on
# a CPU that has it the run died with SIGILL.
count() {
  GOGC=off GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off valgrind --tool=callgrind \
    --callgrind-out-file="$tmp/cg.out" "$1" -test.run '^$' -test.bench "$2" -test.benchtime "${3}x" 2>&1 |
    sed -n 's/.*Collected : *\([0-9,]*\).*/\1/p' | tr -d ,
}

# per BIN BENCH N: instructions of one iteration, from runs at N and 2N.
per() {
  local a b
  a=$(count "$1" "$2" "$3")
  b=$(count "$1" "$2" $(($3 * 2)))
  echo $(((b - a) / $3))
}

{
  echo "| workload | mode | metered instructions/op | unmetered | budget overhead |"
  echo "|---|---|---:|---:|---:|"
} > "$out"
# iterations a run: enough that one render's count stands well above the
# process's own noise, few enough that a run under callgrind is seconds
for w in prompt:200 table:10 macro:20 filters:10 condition:10000 bigtext:500; do
  name=${w%%:*} n=${w#*:}
  for m in $MODES; do
    re="^BenchmarkWorkloads\$/^${name}\$/^jinjabox-${m}\$"
    [[ $m == render ]] && n=$((n > 1000 ? n / 2 : n))
    on=$(per "$tmp/on.test" "$re" "$n")
    off=$(per "$tmp/off.test" "$re" "$n")
    awk -v w="$name" -v m="$m" -v on="$on" -v off="$off" \
      'BEGIN { printf "| %s | %s | %d | %d | %.1f%% |\n", w, m, on, off, (on - off) * 100 / off }' >> "$out"
  done
done
cat "$out"
