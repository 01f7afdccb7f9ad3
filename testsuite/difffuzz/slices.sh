#!/bin/bash
# A long differential run in slices, with Jinja2's side apart from
# jinjabox's: Jinja2's results do not depend on jinjabox, so they can be
# made once (the slow part, about 50 s a slice of 20,000 on two idle
# cores) and checked against any later jinjabox.
#
#   slices.sh oracle OUTROOT FIRST_SEED COUNT [N]
#       gen.py and oracle.py for seeds FIRST_SEED .. FIRST_SEED+COUNT-1, N
#       templates each (default 20000), into OUTROOT/SEED/cases.jsonl; a
#       slice already there is kept
#   slices.sh check OUTROOT [JINJABOX]
#       every slice of OUTROOT through jinjabox (default: built from this
#       checkout), compared and labelled as run.sh does, then the totals:
#       OUTROOT/total.json and a table on stdout
#
# Environment as run.sh's: PY, JOBS.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PY:-/usr/bin/python3}
JOBS=${JOBS:-2}
cmd=${1:?usage: slices.sh oracle|check OUTROOT ...}
ROOT=${2:?usage: slices.sh oracle|check OUTROOT ...}
mkdir -p "$ROOT"
case "$cmd" in
oracle)
  FIRST=${3:?FIRST_SEED}
  COUNT=${4:?COUNT}
  N=${5:-20000}
  for ((s = FIRST; s < FIRST + COUNT; s++)); do
    out=$ROOT/$s
    [ -s "$out/cases.jsonl" ] && continue
    mkdir -p "$out"
    t0=$(date +%s)
    "$PY" "$HERE/gen.py" "$N" "$s" | "$PY" "$HERE/oracle.py" --jobs "$JOBS" > "$out/cases.tmp"
    mv "$out/cases.tmp" "$out/cases.jsonl"
    echo "slice $s: $N templates through Jinja2 in $(($(date +%s) - t0))s"
  done
  ;;
check)
  JINJABOX=${3:-}
  if [ -z "$JINJABOX" ]; then
    JINJABOX=$ROOT/jinjabox
    (cd "$HERE/../.." && go build -o "$JINJABOX" ./cmd/jinjabox)
  fi
  for out in "$ROOT"/*/; do
    out=${out%/}
    [ -s "$out/cases.jsonl" ] || continue
    "$PY" "$HERE/compare.py" prep "$out/cases.jsonl" "$out/checkin.jsonl"
    "$JINJABOX" check --json --timeout 10s "$out/checkin.jsonl" > "$out/check.jsonl" 2> "$out/check.stderr" || true
    "$PY" "$HERE/compare.py" "$out/cases.jsonl" "$out/check.jsonl" "$out/diffs.jsonl" "$out/summary.json" > /dev/null
    "$PY" "$HERE/oracle.py" --jobs "$JOBS" --policy < "$out/diffs.jsonl" \
      | "$PY" "$HERE/oracle.py" --jobs "$JOBS" --seed 1 --key rerun1 \
      | "$PY" "$HERE/oracle.py" --jobs "$JOBS" --seed 2 --key rerun2 > "$out/diffs.labelled.jsonl"
    "$PY" "$HERE/classify.py" "$out/diffs.labelled.jsonl" "$out/unexplained.jsonl" "$out/labels.json" > /dev/null
    echo "slice $(basename "$out"): $(grep -c . "$out/unexplained.jsonl" || true) unexplained"
  done
  "$PY" - "$ROOT" <<'EOF'
import collections, glob, json, os, sys
root = sys.argv[1]
cats, labels, unexplained, dropped = collections.Counter(), collections.Counter(), [], collections.Counter()
slices = generated = compared = agree = crashes = 0
for d in sorted(glob.glob(os.path.join(root, "*", "summary.json"))):
    s = json.load(open(d))
    slices += 1
    generated += s["generated"]
    compared += s["compared"]
    agree += s["agree"]
    cats.update(s["categories"])
    dropped.update(s.get("dropped", {}))
    lab = json.load(open(os.path.join(os.path.dirname(d), "labels.json")))
    for k, v in lab["by_label"].items():
        labels[k] += sum(v.values())
    with open(os.path.join(os.path.dirname(d), "unexplained.jsonl")) as f:
        unexplained += [json.loads(l)["id"] for l in f if l.strip()]
    # a crash of the checker, or an engine internal error (a recovered
    # bug, error kind "internal"), in any case
    err = os.path.join(os.path.dirname(d), "check.stderr")
    crashes += sum(1 for l in open(err) if "panic" in l or "goroutine" in l)
    with open(os.path.join(os.path.dirname(d), "check.jsonl")) as f:
        crashes += sum(1 for l in f if '"error":"internal"' in l.replace(" ", ""))
total = {"slices": slices, "generated": generated, "dropped": dict(dropped), "compared": compared,
         "agree": agree, "agree_rate": agree / compared if compared else 0, "categories": dict(cats),
         "labels": dict(labels), "unexplained": unexplained, "crashes_or_internal_errors": crashes}
json.dump(total, open(os.path.join(root, "total.json"), "w"), indent=1)
print("slices %d, templates %d, compared %d, agreement %.2f%%" % (slices, generated, compared, 100 * total["agree_rate"]))
for k, v in sorted(cats.items(), key=lambda kv: -kv[1]):
    print("  %-16s %8d  %6.2f%%" % (k, v, 100 * v / compared))
print("labels:")
for k, v in sorted(labels.items(), key=lambda kv: -kv[1]):
    print("  %-18s %8d" % (k, v))
print("unexplained: %d%s" % (len(unexplained), (" (" + ", ".join(unexplained[:20]) + ")") if unexplained else ""))
print("crashes or internal errors: %d" % crashes)
EOF
  ;;
*)
  echo "usage: slices.sh oracle|check OUTROOT ..." >&2
  exit 2
  ;;
esac
