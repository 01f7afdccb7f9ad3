package benchtemporal

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/workflows"
)

// The smoke version of make bench-temporal (it runs in make test when
// bin/temporal exists): its own dev server, two concurrent sample runs
// and a batch of 30 items, every output checked against exec, measured,
// within the bounds, and printed as a table.
func TestBenchSmoke(t *testing.T) {
	bin := os.Getenv("JINJABOX_TEMPORAL_BIN")
	if bin == "" {
		t.Skip("JINJABOX_TEMPORAL_BIN not set: no dev server (make devserver builds bin/temporal)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	logger := log.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
	s, err := StartServer(ctx, bin, logger)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	w := worker.New(s.Client, "smoke", worker.Options{DeadlockDetectionTimeout: workflows.DeadlockDetectionTimeout})
	(&workflows.Workflows{}).Register(w)
	activities.Register(w, &activities.Activities{})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	lib, err := os.ReadFile("../../" + SampleMethod)
	if err != nil {
		t.Fatal(err)
	}
	scs := []*Scenario{
		{Name: "sample2", Method: lib, Inputs: [][]byte{SampleInputs(3), SampleInputs(3)}},
		BatchScenario("batch30", 30, 5),
	}
	var results []*Result
	for _, sc := range scs {
		r, err := Run(ctx, s, nil, "smoke", "smoke-", sc)
		if err != nil {
			t.Fatal(err)
		}
		if v := r.Check(); len(v) > 0 {
			t.Fatalf("%s: %v", sc.Name, v)
		}
		results = append(results, r)
	}
	// a run, its sequence, the sequence's batch (its items' conditions,
	// model calls and composes run in its page) and the digest's compose
	if n := results[0].M.Total.Count; n != 8 {
		t.Errorf("two sample runs: %d workflows, want 8", n)
	}
	if n := results[1].M.Total.Count; n != 2 {
		t.Errorf("a batch of 30: %d workflows, want 2 (the run, the batch running its 30 items)", n)
	}
	if results[1].ServerPeakRSSKiB <= 0 {
		t.Error("no server RSS")
	}
	var b bytes.Buffer
	WriteTable(&b, results)
	WritePerItem(&b, results)
	if !strings.Contains(b.String(), "| batch30 | 1 |") || !strings.Contains(b.String(), "PipeBatch") || !strings.Contains(b.String(), "| batch30 | 30 | 2 |") {
		t.Fatalf("table:\n%s", b.String())
	}
	t.Logf("\n%s", b.String())
}
