package benchtemporal

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/jinjabox/jinjabox/workflows"
)

// Result is one scenario's outcome.
type Result struct {
	Scenario *Scenario
	Wall     time.Duration
	M        *Measurement
	// ServerPeakRSSKiB is the server's VmHWM after the scenario (peak
	// since the server started).
	ServerPeakRSSKiB int64
	// CPUSeconds is this process's user+system CPU during the scenario
	// (the in-process worker and the benchmark's client).
	CPUSeconds float64
	// ServerCPUSeconds is the dev server's user+system CPU during the
	// scenario's runs (not their measurement, which reads every history).
	ServerCPUSeconds float64
	// Suggested lists the workflows whose last task had the server's
	// continue-as-new suggestion set (none expected).
	Errors []string
}

// Run runs a scenario on the queue's worker: every run started at once,
// each output compared with `jinjabox exec`'s, then every workflow of
// the runs measured. A scenario with a payload store (StoreAbove) is
// started and read through c, a client with the store's external
// storage (as the queue's worker must have); nil: s.Client.
func Run(ctx context.Context, s *Server, c client.Client, queue, prefix string, sc *Scenario) (*Result, error) {
	if c == nil {
		c = s.Client
	}
	want := map[string]string{}
	for _, in := range sc.Inputs {
		k := string(in)
		if _, ok := want[k]; ok {
			continue
		}
		w, err := PureOutput(sc.Method, in)
		if err != nil {
			return nil, fmt.Errorf("%s: exec: %w", sc.Name, err)
		}
		want[k] = w
	}
	cpu0, scpu0 := cpuSeconds(), s.CPUSeconds()
	start := time.Now()
	roots := make([]string, len(sc.Inputs))
	errs := make([]error, len(sc.Inputs))
	var wg sync.WaitGroup
	for i, in := range sc.Inputs {
		roots[i] = prefix + sc.Name + "-" + strconv.Itoa(i)
		wg.Add(1)
		go func() {
			defer wg.Done()
			run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: roots[i], TaskQueue: queue},
				workflows.WorkflowRunMethod, workflows.RunMethodInput{Method: sc.Method, Inputs: in,
					Options: workflows.RunOptions{StoreAbove: sc.StoreAbove}})
			if err != nil {
				errs[i] = err
				return
			}
			var out workflows.PipeOutput
			if err := run.Get(ctx, &out); err != nil {
				errs[i] = err
				return
			}
			b, _ := json.Marshal(out.Output)
			if got := string(b); got != want[string(in)] {
				errs[i] = fmt.Errorf("output differs from exec: got %.200s, want %.200s", got, want[string(in)])
			}
		}()
	}
	wg.Wait()
	res := &Result{Scenario: sc, Wall: time.Since(start), CPUSeconds: cpuSeconds() - cpu0, ServerCPUSeconds: s.CPUSeconds() - scpu0}
	for i, err := range errs {
		if err != nil {
			res.Errors = append(res.Errors, roots[i]+": "+err.Error())
		}
	}
	m, err := Measure(ctx, c, roots)
	if err != nil {
		return res, err
	}
	res.M = m
	res.ServerPeakRSSKiB = s.PeakRSSKiB()
	return res, nil
}

// cpuSeconds is this process's user+system CPU time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// Bounds are the per-workflow bounds the benchmark holds (the issue's:
// every workflow under 10,000 events and 10 MB of history).
const (
	MaxEvents = 10000
	MaxBytes  = 10_000_000
)

// Check returns the bound violations of a result.
func (r *Result) Check() []string {
	out := append([]string(nil), r.Errors...)
	if r.M == nil {
		return append(out, "not measured")
	}
	for _, w := range r.M.Workflows {
		if w.Events > MaxEvents || w.Bytes > MaxBytes {
			out = append(out, fmt.Sprintf("%s (%s): %d events, %d bytes", w.ID, w.Type, w.Events, w.Bytes))
		}
		if w.Status.String() != "Completed" {
			out = append(out, fmt.Sprintf("%s (%s): %s", w.ID, w.Type, w.Status))
		}
	}
	return out
}

// WriteTable prints the results as a Markdown table: one row per
// scenario and workflow type.
func WriteTable(w io.Writer, results []*Result) {
	fmt.Fprintln(w, "| scenario | runs | wall | workflow type | workflows | events mean / max | history bytes mean / max | total events | total bytes | server peak RSS | worker CPU |")
	fmt.Fprintln(w, "| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, r := range results {
		if r.M == nil {
			fmt.Fprintf(w, "| %s | %d | %s | not measured | | | | | | | |\n", r.Scenario.Name, len(r.Scenario.Inputs), r.Wall.Round(100*time.Millisecond))
			continue
		}
		for i, st := range r.M.Types {
			name, runs, wall, rss, cpu := "", "", "", "", ""
			if i == 0 {
				name, runs, wall = r.Scenario.Name, strconv.Itoa(len(r.Scenario.Inputs)), r.Wall.Round(100*time.Millisecond).String()
				rss = fmt.Sprintf("%.0f MiB", float64(r.ServerPeakRSSKiB)/1024)
				cpu = fmt.Sprintf("%.1f s", r.CPUSeconds)
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %d | %s / %s | %s / %s | %s | %s | %s | %s |\n", name, runs, wall,
				strings.TrimSuffix(st.Type, "Workflow"), st.Count,
				commas(st.SumEvents/int64(st.Count)), commas(st.MaxEvents),
				commas(st.SumBytes/int64(st.Count)), commas(st.MaxBytes),
				commas(st.SumEvents), commas(st.SumBytes), rss, cpu)
		}
		t := r.M.Total
		fmt.Fprintf(w, "| | | | **all** | %d | %s / %s | %s / %s | %s | %s | | |\n", t.Count,
			commas(t.SumEvents/int64(max(t.Count, 1))), commas(t.MaxEvents),
			commas(t.SumBytes/int64(max(t.Count, 1))), commas(t.MaxBytes), commas(t.SumEvents), commas(t.SumBytes))
	}
}

// Items is the scenario's items over all its runs.
func (r *Result) Items() int { return len(r.Scenario.Inputs) * max(1, r.Scenario.Items) }

// WritePerItem prints the results per item as a Markdown table: events,
// history bytes and the server's and the worker's CPU an item (a batch's
// item, or a run).
func WritePerItem(w io.Writer, results []*Result) {
	fmt.Fprintln(w, "| scenario | items | workflows | events / item | history bytes / item | server CPU | server CPU / item | worker CPU / item |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, r := range results {
		if r.M == nil {
			continue
		}
		n := float64(r.Items())
		fmt.Fprintf(w, "| %s | %d | %d | %.1f | %s | %.1f s | %.1f ms | %.1f ms |\n", r.Scenario.Name, r.Items(), r.M.Total.Count,
			float64(r.M.Total.SumEvents)/n, commas(int64(float64(r.M.Total.SumBytes)/n)), r.ServerCPUSeconds,
			1000*r.ServerCPUSeconds/n, 1000*r.CPUSeconds/n)
	}
}

func commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return "-" + commas(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
