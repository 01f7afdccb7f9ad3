// Command benchtemporal is the Temporal load benchmark (make
// bench-temporal): it starts its own dev server, runs the scenarios on an
// in-process worker, checks every output against `jinjabox exec`, and
// prints a Markdown table of wall time, events and history bytes per
// workflow type, and the server's peak RSS. It exits 1 when a run fails
// or a workflow passes 10,000 events or 10 MB of history.
//
//	benchtemporal [-bin bin/temporal] [-scenarios sample100,batch1000,batch10000] [-timeout 60m]
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/internal/benchtemporal"
	"github.com/jinjabox/jinjabox/payloadstore"
	"github.com/jinjabox/jinjabox/workflows"
)

func main() {
	bin := flag.String("bin", "bin/temporal", "the Temporal CLI (dev server)")
	names := flag.String("scenarios", "sample100,batch1000,batch10000", "scenarios to run: sampleN (N concurrent sample runs), ticketsN (one sample run over N tickets), batchN (a PipeBatch of N items), outputsN (a PipeBatch of N composes of 2 kB through a payload store)")
	window := flag.Int("window", 100, "the batch scenarios' max_concurrency")
	timeout := flag.Duration("timeout", 60*time.Minute, "bound on the whole benchmark")
	pollers := flag.Int("activity-pollers", 2, "the worker's activity task pollers")
	flag.Parse()
	activityPollers = *pollers
	if err := run(*bin, *names, *window, *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "benchtemporal:", err)
		os.Exit(1)
	}
}

var activityPollers = 2

func run(bin, names string, window int, timeout time.Duration) error {
	var scs []*benchtemporal.Scenario
	for _, n := range strings.Split(names, ",") {
		sc, err := scenario(strings.TrimSpace(n), window)
		if err != nil {
			return err
		}
		scs = append(scs, sc)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	logger := log.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
	s, err := benchtemporal.StartServer(ctx, bin, logger)
	if err != nil {
		return err
	}
	defer s.Stop()
	fmt.Fprintf(os.Stderr, "dev server pid %d on %s\n", s.Pid(), s.Addr)
	w := worker.New(s.Client, "bench", worker.Options{
		// Workflow tasks are CPU-bound: more slots than cores buys no
		// throughput and stretches every task toward the deadlock detector.
		MaxConcurrentWorkflowTaskExecutionSize: 2 * runtime.GOMAXPROCS(0),
		MaxConcurrentActivityTaskPollers:       activityPollers,
		DeadlockDetectionTimeout:               workflows.DeadlockDetectionTimeout,
	})
	(&workflows.Workflows{}).Register(w)
	activities.Register(w, &activities.Activities{})
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()
	// Scenarios through a payload store: a client with a directory
	// store's external storage, and a worker of its own on it.
	var storeClient client.Client
	for _, sc := range scs {
		if sc.StoreAbove == 0 || storeClient != nil {
			continue
		}
		dir, err := os.MkdirTemp("", "bench-payloads")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		fs, err := payloadstore.NewFS(dir)
		if err != nil {
			return err
		}
		storeClient, err = client.Dial(client.Options{HostPort: s.Addr, Logger: logger,
			ExternalStorage: payloadstore.ExternalStorage(fs, int(sc.StoreAbove))})
		if err != nil {
			return err
		}
		defer storeClient.Close()
		sw := worker.New(storeClient, "bench-store", worker.Options{
			MaxConcurrentWorkflowTaskExecutionSize: 2 * runtime.GOMAXPROCS(0),
			MaxConcurrentActivityTaskPollers:       activityPollers,
			DeadlockDetectionTimeout:               workflows.DeadlockDetectionTimeout,
		})
		(&workflows.Workflows{}).Register(sw)
		activities.Register(sw, &activities.Activities{})
		if err := sw.Start(); err != nil {
			return err
		}
		defer sw.Stop()
	}
	var results []*benchtemporal.Result
	failed := false
	for _, sc := range scs {
		fmt.Fprintf(os.Stderr, "running %s (%d runs)...\n", sc.Name, len(sc.Inputs))
		c, queue := s.Client, "bench"
		if sc.StoreAbove > 0 {
			c, queue = storeClient, "bench-store"
		}
		r, err := benchtemporal.Run(ctx, s, c, queue, "bench-", sc)
		if err != nil {
			return fmt.Errorf("%s: %w", sc.Name, err)
		}
		results = append(results, r)
		fmt.Fprintf(os.Stderr, "%s: %v\n", sc.Name, r.Wall.Round(time.Millisecond))
		for _, v := range r.Check() {
			fmt.Fprintln(os.Stderr, "  FAIL", v)
			failed = true
		}
	}
	benchtemporal.WriteTable(os.Stdout, results)
	fmt.Println()
	benchtemporal.WritePerItem(os.Stdout, results)
	fmt.Println()
	for _, sc := range scs {
		fmt.Printf("- %s: %s\n", sc.Name, sc.Note)
	}
	if failed {
		return fmt.Errorf("a run failed or a workflow is over the bounds (%d events, %d bytes)", benchtemporal.MaxEvents, benchtemporal.MaxBytes)
	}
	return nil
}

func scenario(name string, window int) (*benchtemporal.Scenario, error) {
	num := func(prefix string) (int, bool) {
		s, ok := strings.CutPrefix(name, prefix)
		if !ok {
			return 0, false
		}
		n, err := strconv.Atoi(s)
		return n, err == nil && n > 0
	}
	if n, ok := num("sample"); ok {
		lib, err := os.ReadFile(benchtemporal.SampleMethod)
		if err != nil {
			return nil, err
		}
		in := benchtemporal.SampleInputs(3)
		sc := &benchtemporal.Scenario{Name: name, Method: lib, Note: fmt.Sprintf("%d concurrent runs of the sample method (3 tickets each)", n)}
		for range n {
			sc.Inputs = append(sc.Inputs, in)
		}
		return sc, nil
	}
	if n, ok := num("tickets"); ok {
		lib, err := os.ReadFile(benchtemporal.SampleMethod)
		if err != nil {
			return nil, err
		}
		return &benchtemporal.Scenario{Name: name, Method: lib, Inputs: [][]byte{benchtemporal.SampleInputs(n)},
			Note: fmt.Sprintf("one run of the sample method over %d tickets", n)}, nil
	}
	if name == "compose400" {
		lib, err := os.ReadFile("workflows/testdata/compose400/method.json")
		if err != nil {
			return nil, err
		}
		in, err := os.ReadFile("workflows/testdata/compose400/inputs.json")
		if err != nil {
			return nil, err
		}
		return &benchtemporal.Scenario{Name: name, Method: lib, Inputs: [][]byte{in},
			Note: "the 400-field PipeCompose (each field a loop over 3,000 items): its renders spread over stretches"}, nil
	}
	if n, ok := num("batch"); ok {
		return benchtemporal.BatchScenario(name, n, window), nil
	}
	if n, ok := num("outputs"); ok {
		return benchtemporal.OutputsScenario(name, n, window), nil
	}
	return nil, fmt.Errorf("unknown scenario %q", name)
}
