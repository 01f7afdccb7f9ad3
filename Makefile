# jinjabox developer targets. Everything runs offline except the first
# `make lint` (staticcheck), the first build of bin/workflowcheck (by
# `make test` or `make lint`) and the first `make devserver` (the Temporal
# CLI), which fetch from the Go module proxy.

GO       ?= go
BIN      := $(CURDIR)/bin
# The module's copy of the shared corpora: what the tests, check and bench read.
CORPORA  := testsuite/testdata/shared
# The shared tree the copy comes from (make sync-corpora); JINJABOX_SHARED
# overrides. The go tests only read it to check the copy is current.
SHARED   ?= $(or $(JINJABOX_SHARED),$(CURDIR)/../shared)
FUZZTIME ?= 30s
# staticcheck 2026.2.2: the first release line that knows Go 1.26.
STATICCHECK_VERSION := v0.8.2
# workflowcheck: the Temporal SDK's determinism checker for workflow code
# (contrib/tools/workflowcheck v0.6.0, pinned in tools/workflowcheck/go.mod)
# with jinjabox's -strict check over the code that runs inside workflows
# (tools/workflowcheck/main.go; scripts/workflowcheck.sh has the arguments).
WORKFLOWCHECK := $(BIN)/workflowcheck
SCRATCHLINT := $(BIN)/scratchlint
# The Temporal CLI (dev server): TEMPORAL=PATH names one; else
# bin/temporal when it was built; else a temporal on PATH; else
# bin/temporal is built from tools/devserver (pinned in its go.mod) by
# `make devserver` (and by `make run`).
TEMPORAL_BUILT := $(BIN)/temporal
TEMPORAL ?= $(or $(wildcard $(TEMPORAL_BUILT)),$(shell command -v temporal 2>/dev/null),$(TEMPORAL_BUILT))
# When that dev server exists, go test also runs the integration tests
# against it (./integration); without it they skip, and make test lists
# them among the skips with the reason.
TEMPORAL_ENV := $(if $(wildcard $(TEMPORAL)),JINJABOX_TEMPORAL_BIN=$(TEMPORAL))

# pipefail so `go test | tee` fails when go test fails.
SHELL       := bash
.SHELLFLAGS := -eu -o pipefail -c

.PHONY: difffuzz-slices all build test redteam hostile-table redteam-cancel bench bench-instructions bench-temporal calibrate costsearch difffuzz lint fuzz floors check sync-corpora run devserver worker workflowcheck record-histories clean

all: test

# jinjabox-method beside jinjabox: `jinjabox exec` and `jinjabox run` run
# it (cmd/jinjabox links no Temporal, docs/COSTS.md).
build:
	$(GO) build -o $(BIN)/jinjabox ./cmd/jinjabox
	$(GO) build -o $(BIN)/jinjabox-method ./cmd/jinjabox-method

worker:
	$(GO) build -o $(BIN)/worker ./cmd/worker

# Builds bin/temporal once (about 7 minutes cold on 2 cores); the file
# target rebuilds only when the pinned version changes.
# Builds bin/temporal unless TEMPORAL names (or PATH has) another.
devserver: $(if $(filter $(TEMPORAL_BUILT),$(TEMPORAL)),$(TEMPORAL_BUILT))
	@echo "dev server: $(TEMPORAL)"

$(TEMPORAL_BUILT): tools/devserver/go.mod tools/devserver/go.sum
	@echo "make: building the Temporal dev server into $@ (minutes on a cold cache)"
	cd tools/devserver && $(GO) build -o $(TEMPORAL_BUILT) github.com/temporalio/cli/cmd/temporal

# -timeout keeps a hung case from eating the CI budget (30 min on 2 cores).
# The tests read the module's corpora; JINJABOX_SHARED only tells
# TestSharedCopyInSync which shared tree the copy must equal.
# The lint canary (testsuite) runs bin/workflowcheck, so test builds it.
# It says what it is doing, reports each package as it finishes, and
# ends with every skipped test and its reason (testsuite/cmd/testreport).
test: $(WORKFLOWCHECK) $(SCRATCHLINT)
	@echo "make test: go vet ./..."
	$(GO) vet ./...
	@echo "make test: go test ./... (dev server: $(if $(TEMPORAL_ENV),$(TEMPORAL),none, so the integration tests skip: make devserver))"
	@$(GO) build -o $(BIN)/testreport ./testsuite/cmd/testreport
	$(TEMPORAL_ENV) JINJABOX_WORKFLOWCHECK=$(WORKFLOWCHECK) JINJABOX_SCRATCHLINT=$(SCRATCHLINT) JINJABOX_SHARED=$(SHARED) $(GO) test -json -count=1 -timeout 20m ./... | $(BIN)/testreport

# The workloads in every mode (parse+render, render, render from a
# prepared context, the same to a writer) against text/template; then
# the budget's overhead: the render modes in the default build and in one
# that meters nothing (the jinjabox_nometer tag, benchmark only), each
# benchmark in both builds back to back, BENCH_ROUNDS rounds
# (scripts/bench-overhead.sh), the median of the paired ratios. About 6
# minutes on 2 cores.
BENCH_ROUNDS ?= 5
bench:
	$(GO) test -run '^$$' -bench BenchmarkWorkloads -benchmem -count 1 ./testsuite | tee bench.out
	ROUNDS=$(BENCH_ROUNDS) GO=$(GO) scripts/bench-overhead.sh bench-metered.out bench-nometer.out
	@echo
	$(GO) run ./testsuite/cmd/benchtable < bench.out
	@echo
	$(GO) run ./testsuite/cmd/benchtable -nometer bench-nometer.out < bench-metered.out | sed -n '/budget overhead/,$$p'

# The budget's overhead counted in instructions, not timed: each render
# mode under valgrind's callgrind in both builds (the machine's drift,
# a fifth between timed runs, does not reach a count). Needs valgrind.
# About 4 minutes.
bench-instructions:
	GO=$(GO) scripts/bench-instructions.sh bench-instructions.md

# The Temporal load benchmark (docs/temporal.md, "Benchmark"): its own dev
# server, 100 concurrent sample runs, the sample over 100 and 300 tickets,
# the 400-field compose, batches of 1,000 and 10,000 items; every output
# checked against exec; fails when a workflow passes 10,000 events or
# 10 MB. About 7 minutes on 2 cores: not part of make test (which runs
# its smoke version, internal/benchtemporal's test).
BENCH_TEMPORAL ?= sample100,tickets100,tickets300,compose400,batch1000,batch10000,outputs10000
bench-temporal: devserver
	$(GO) run ./cmd/benchtemporal -bin $(TEMPORAL) -scenarios $(BENCH_TEMPORAL) | tee bench-temporal.out

# The calibration (docs/COSTS.md): every filter, test, global, plain-value
# method, operator and statement and expression kind on adversarial inputs
# at growing sizes, in ns and allocated bytes a unit charged (the best of
# 5 renders a point); fails when one is over the ceiling that keeps the
# full default budget within 250 ms and 256 MiB. calibrate.out has the log,
# calibrate.md the table for docs/COSTS.md. CALIBRATE=REGEXP runs the
# matching cases only. Minutes on 2 cores: not part of make test, which
# runs its smoke version (TestCalibrationSmoke).
CALIBRATE ?=
# The adversarial cost search (engine/costsearch_test.go, docs/COSTS.md):
# every filter, test, global, method and operator on every input shape it
# accepts, grown from 10^3 to COSTSEARCH_MAX; fails on a shape over the
# calibration's ceilings. Hours in full: COSTSEARCH=REGEXP searches some
# operations, COSTSEARCH_SHAPE=REGEXP some shapes (SC|EQ: the receiver and
# argument added last). costsearch.md is the table for docs/COSTS.md.
COSTSEARCH ?=
COSTSEARCH_SHAPE ?=
COSTSEARCH_MAX ?= 10000000
costsearch:
	$(GO) test -count=1 -run '^TestCostSearch$$' -timeout 600m -v ./engine -costsearch \
		-costsearch.run '$(COSTSEARCH)' -costsearch.shape '$(COSTSEARCH_SHAPE)' -costsearch.max $(COSTSEARCH_MAX) -costsearch.table $(CURDIR)/costsearch.md | tee costsearch.out

# The differential fuzz against real Jinja2 (testsuite/difffuzz, the
# module's copy of ../shared/difffuzz with the documented:<row> labels of
# docs/COMPATIBILITY.md): N templates from SEED (default: the time), the
# agreement table and the unexplained clusters; files in DIFFFUZZ_OUT.
# Needs /usr/bin/python3 with python3-jinja2 3.1.2. go test runs a slice
# of it (testsuite.TestDiffFuzzSlice).
N ?= 20000
SEED ?= $(shell date +%s)
DIFFFUZZ_OUT ?= $(CURDIR)/difffuzz.out
difffuzz: build
	@echo "difffuzz: N=$(N) SEED=$(SEED)"
	JINJABOX=$(BIN)/jinjabox testsuite/difffuzz/run.sh $(N) $(SEED) $(DIFFFUZZ_OUT)

# A long run in slices of 20,000 (SLICES of them from SEED): Jinja2's side
# first, kept in DIFFFUZZ_OUT, then every slice through this checkout's
# jinjabox, with the totals (testsuite/difffuzz/slices.sh).
SLICES ?= 50
difffuzz-slices: build
	testsuite/difffuzz/slices.sh oracle $(DIFFFUZZ_OUT) $(SEED) $(SLICES)
	testsuite/difffuzz/slices.sh check $(DIFFFUZZ_OUT) $(BIN)/jinjabox

calibrate:
	$(GO) test -count=1 -run '^TestCalibrate$$' -timeout 60m -v ./engine -calibrate \
		-calibrate.run '$(CALIBRATE)' -calibrate.table $(CURDIR)/calibrate.md | tee calibrate.out

# Every public red-team case (hostile/redteam*.jsonl) through `jinjabox
# check` in a process of its own (a crash fails the case, not the run),
# with each case's and each family's CPU time and peak RSS. make test runs
# the same test (TestRedteamOneCasePerProcess) without the table.
redteam:
	JINJABOX_REDTEAM_TABLE=1 $(GO) test -count=1 -run '^TestRedteamOneCasePerProcess$$' -v ./testsuite | grep -v '^=== RUN'

# make redteam for every hostile case (all of ../shared/hostile, about
# 700 processes): the per-family CPU and RSS table of issue 29's bound.
# Both tables give each case's system time and page faults beside the
# machine's cost of a fault. The processes inherit the environment:
# GOMAXPROCS=1 make hostile-table measures without the collector's idle
# workers on the spare core (docs/COSTS.md).
hostile-table:
	JINJABOX_REDTEAM_ALL=1 JINJABOX_REDTEAM_TABLE=1 $(GO) test -count=1 -timeout 30m -run '^TestRedteamOneCasePerProcess$$' -v ./testsuite | grep -v '^=== RUN'

# Every red-team template rendered with a context whose deadline passes
# mid-render: how late past the deadline each returns (10 ms is the
# quiet-machine target; make test holds a loaded-machine bound).
redteam-cancel:
	JINJABOX_CANCEL_TABLE=1 $(GO) test -count=1 -run '^TestRedteamCancelPromptly$$' -v ./testsuite | grep -v '^=== RUN'

# The marker file pins the version: changing STATICCHECK_VERSION reinstalls.
$(BIN)/.staticcheck-$(STATICCHECK_VERSION):
	GOBIN=$(BIN) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	touch $@

# Rebuilt when its module or source changes.
$(WORKFLOWCHECK): tools/workflowcheck/go.mod tools/workflowcheck/go.sum tools/workflowcheck/main.go
	@echo "make: building $@ (the lint canaries run it)"
	cd tools/workflowcheck && $(GO) build -o $(WORKFLOWCHECK) .

workflowcheck: $(WORKFLOWCHECK)

# The scratch-memory lint of engine/internal/builtins, engine/internal/strutil,
# engine/internal/vmem, engine/internal/vops and engine/value
# (tools/scratchlint; testsuite.TestScratchlint plants what it must catch).
$(SCRATCHLINT): tools/scratchlint/go.mod tools/scratchlint/go.sum tools/scratchlint/main.go
	cd tools/scratchlint && $(GO) build -o $(SCRATCHLINT) .

lint: $(BIN)/.staticcheck-$(STATICCHECK_VERSION) $(WORKFLOWCHECK) $(SCRATCHLINT)
	@out="$$(gofmt -l .)"; if [ -n "$$out" ]; then echo "gofmt -l reports:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(BIN)/staticcheck ./...
	scripts/workflowcheck.sh $(WORKFLOWCHECK)
	$(SCRATCHLINT) ./engine/internal/builtins/ ./engine/internal/strutil/ ./engine/internal/vmem/ ./engine/internal/vops/ ./engine/value/ ./engine/

fuzz:
	FUZZTIME=$(FUZZTIME) GO=$(GO) scripts/fuzz.sh

# Ratchet testsuite/testdata/floors.json up to the current pass counts
# (never down); commit the result with the change that earned it.
floors:
	$(GO) test -count=1 -run '^TestCorpusFloors$$' ./testsuite -update-floors -v | grep -E 'floors:|passed' || true
	git diff --stat -- testsuite/testdata/floors.json

# Refreshes testsuite/testdata/shared from $(SHARED) (TestSharedCopyInSync
# fails while they differ); commit the result, and any floor it moves.
sync-corpora:
	JINJABOX_SHARED=$(SHARED) $(GO) test -count=1 -run '^TestSharedCopyInSync$$' ./testsuite -sync-corpora -v
	git status --short -- $(CORPORA)

# One summary per corpus file (the module's copy); fails if any case fails.
check: build
	@status=0; for f in $(CORPORA)/conformance/*.jsonl $(CORPORA)/hostile/*.jsonl; do \
		echo "== $$f"; $(BIN)/jinjabox check "$$f" || status=1; \
	done; exit $$status

# Runs the sample method file (methodfile/testdata/sample_method.mthds: a
# PipeBatch over tickets, a PipeCondition routing each to a PipeLLM or a
# PipeCompose, then a construct) on a real local
# Temporal: starts the dev server (loopback, in memory) and a worker,
# runs RunMethodWorkflow with `jinjabox run`, prints the result, stops
# both. The first run builds the dev server.
run: build worker devserver
	$(BIN)/jinjabox validate methodfile/testdata/sample_method.mthds
	TEMPORAL_CLI=$(TEMPORAL) scripts/run-temporal.sh $(BIN) methodfile/testdata/sample_method.mthds methodfile/testdata/sample_inputs.json

# Records the replay corpus of a release: every workflow of each replay
# scenario (integration/record_test.go) on a fresh dev server, into
# workflows/testdata/histories/$(RELEASE)/. An existing release is never
# rewritten, except "unreleased" (the code since the last release), which
# a deliberate workflow change may re-record before the first tag.
RELEASE ?= unreleased
record-histories: devserver
	@if [ -d workflows/testdata/histories/$(RELEASE) ] && [ "$(RELEASE)" != unreleased ]; then \
		echo "workflows/testdata/histories/$(RELEASE) exists: a release's histories are never rewritten"; exit 1; fi
	rm -rf workflows/testdata/histories/$(RELEASE)
	JINJABOX_TEMPORAL_BIN=$(TEMPORAL) JINJABOX_RECORD_HISTORIES=$(CURDIR)/workflows/testdata/histories/$(RELEASE) \
		$(GO) test -count=1 -run '^TestRecordHistories$$' -v ./integration

clean:
	rm -rf $(BIN) bench.out bench-nometer.out bench-metered.out bench-instructions.md bench-temporal.out calibrate.out calibrate.md costsearch.out costsearch.md difffuzz.out
