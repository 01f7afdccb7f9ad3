#!/usr/bin/python3
"""Regenerates calibration_golden.json from real Jinja2 (the oracle).

Run from engine/:
  go test -run '^TestCalibrationSmoke$' -calibrate.dump /tmp/cal.jsonl .
  /usr/bin/python3 testdata/gen_calibration.py /tmp/cal.jsonl > testdata/calibration_golden.json
The dump's first line holds the trusted templates and the data at the
smoke size; each further line is one calibration case (name, template).
Each golden row keeps the template it was rendered from, so a changed
case fails until the golden is regenerated.
"""
import json
import sys
from jinja2 import DictLoader
from jinja2.sandbox import ImmutableSandboxedEnvironment

with open(sys.argv[1], encoding="utf-8") as f:
    lines = [json.loads(l) for l in f]
head, cases = lines[0], lines[1:]
env = ImmutableSandboxedEnvironment(loader=DictLoader(head["templates"]))
out = {}
for c in cases:
    row = {"src": c["src"], "out": "", "error": ""}
    try:
        row["out"] = env.from_string(c["src"]).render(head["data"])
    except Exception as e:  # the smoke test reports it
        row["error"] = type(e).__name__ + ": " + str(e)
    out[c["name"]] = row
json.dump(out, sys.stdout, ensure_ascii=False, indent=0, sort_keys=True)
sys.stdout.write("\n")
