# jinjabox developer targets. Everything runs offline except the first
# `make lint`, which installs staticcheck from the Go module proxy.

GO       ?= go
BIN      := $(CURDIR)/bin
# The shared corpora; JINJABOX_SHARED (also read by the go tests) overrides.
SHARED   ?= $(or $(JINJABOX_SHARED),$(CURDIR)/../shared)
FUZZTIME ?= 30s
# staticcheck 2026.2.2: the first release line that knows Go 1.26.
STATICCHECK_VERSION := v0.8.2

# pipefail so `go test | tee` fails when go test fails.
SHELL       := bash
.SHELLFLAGS := -eu -o pipefail -c

.PHONY: all build test bench lint fuzz floors check run clean

all: test

build:
	$(GO) build -o $(BIN)/jinjabox ./cmd/jinjabox

# -timeout keeps a hung case from eating the CI budget (30 min on 2 cores).
test:
	$(GO) vet ./...
	JINJABOX_SHARED=$(SHARED) $(GO) test -count=1 -timeout 20m ./...

bench:
	JINJABOX_SHARED=$(SHARED) $(GO) test -run '^$$' -bench BenchmarkWorkloads -benchmem -count 1 ./testsuite | tee bench.out
	@echo
	$(GO) run ./testsuite/cmd/benchtable < bench.out

# The marker file pins the version: changing STATICCHECK_VERSION reinstalls.
$(BIN)/.staticcheck-$(STATICCHECK_VERSION):
	GOBIN=$(BIN) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	touch $@

lint: $(BIN)/.staticcheck-$(STATICCHECK_VERSION)
	@out="$$(gofmt -l .)"; if [ -n "$$out" ]; then echo "gofmt -l reports:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(BIN)/staticcheck ./...

fuzz:
	FUZZTIME=$(FUZZTIME) GO=$(GO) scripts/fuzz.sh

# Ratchet testsuite/testdata/floors.json up to the current pass counts
# (never down); commit the result with the change that earned it.
floors:
	JINJABOX_SHARED=$(SHARED) $(GO) test -count=1 -run '^TestCorpusFloors$$' ./testsuite -update-floors -v | grep -E 'floors:|passed' || true
	git diff --stat -- testsuite/testdata/floors.json

# One summary per corpus file; fails if any case fails.
check: build
	@status=0; for f in $(SHARED)/conformance/*.jsonl $(SHARED)/hostile/*.jsonl; do \
		echo "== $$f"; $(BIN)/jinjabox check "$$f" || status=1; \
	done; exit $$status

# Runs the sample method (a PipeBatch over tickets, a PipeCondition routing
# each to a PipeLLM or a PipeCompose, then a construct) in process with the
# local deterministic model. The Temporal issue turns this into a local dev
# server plus worker.
run: build
	$(BIN)/jinjabox validate workflows/testdata/sample_method.json
	$(BIN)/jinjabox exec workflows/testdata/sample_method.json workflows/testdata/sample_inputs.json

clean:
	rm -rf $(BIN) bench.out
