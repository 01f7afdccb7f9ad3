#!/usr/bin/env bash
# workflowcheck.sh BIN [DIR]: the determinism check of `make lint`, run
# by BIN (bin/workflowcheck, built from tools/workflowcheck) in the module
# at DIR (default: here). The workflow functions of ./workflows are
# checked as upstream workflowcheck does (static calls), and -strict
# requires every function of the packages that run inside workflow code
# (workflows, engine/..., budget, policy, method/...) to be deterministic,
# reachable or not. Exemptions: by line (//workflowcheck:ignore with its
# reason), and workflowcheck.config.yaml for the runtime. The lint
# canaries (testsuite.TestWorkflowcheckCatchesMapIteration,
# TestWorkflowcheckPlantsOneAtATime) run this same script.
set -euo pipefail
bin=$1
cd "${2:-.}"
exec "$bin" -show-pos -config workflowcheck.config.yaml \
	-strict '^github\.com/jinjabox/jinjabox/(workflows|engine|budget|policy|method)(/|$)' \
	./workflows/... ./engine/... ./budget/... ./policy/... ./method/...
