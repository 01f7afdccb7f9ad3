#!/usr/bin/env bash
# The budget's overhead, measured in pairs: the testsuite's workload
# benchmarks built twice (the default build, which meters, and the
# jinjabox_nometer build, which charges nothing), then, round after round,
# each benchmark run in one build and at once in the other, so the two
# runs of a pair see the same machine. benchtable -nometer pairs the i-th
# samples and reports the median ratio and its range.
#
#   scripts/bench-overhead.sh METERED_OUT NOMETER_OUT
#
# ROUNDS (default 5), BENCHTIME (default 300ms), GO (default go) and
# BENCHES (default: every workload's render, context and writer modes,
# the three a metered render runs in) can be set.
set -euo pipefail
# absolute: the runs below happen in testsuite/
on_out=$(realpath -m "$1") off_out=$(realpath -m "$2")
GO=${GO:-go}
ROUNDS=${ROUNDS:-5}
BENCHTIME=${BENCHTIME:-300ms}
# shellcheck source=scripts/meter-builds.sh
source "$(dirname "$0")/meter-builds.sh"
if [[ -z "${BENCHES:-}" ]]; then
  BENCHES=""
  for w in prompt table macro filters condition bigtext; do
    for m in render context writer; do BENCHES+="$w/jinjabox-$m "; done
  done
fi
: > "$on_out"
: > "$off_out"
# The test binaries read their workloads relative to the package.
cd testsuite
for round in $(seq "$ROUNDS"); do
  for b in $BENCHES; do
    # anchored: "render" must not match "parse-render"
    re="^BenchmarkWorkloads\$/^${b%%/*}\$/^${b#*/}\$"
    # the order within a pair alternates, so neither build always runs
    # second (on a warmer or a busier machine)
    if (( round % 2 )); then order="on off"; else order="off on"; fi
    for build in $order; do
      out=$on_out; [[ $build == off ]] && out=$off_out
      "$tmp/$build.test" -test.run '^$' -test.bench "$re" -test.benchtime "$BENCHTIME" -test.benchmem \
        | grep '^BenchmarkWorkloads' >> "$out"
    done
  done
  echo "bench-overhead: round $round of $ROUNDS done" >&2
done
