package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/workflows"
)

// hogEnv, when set ("SECONDS,THREADS"), makes the test binary a CPU hog
// (TestMain): THREADS busy threads for at most SECONDS, then it exits.
const hogEnv = "JINJABOX_CPU_HOG"

// hog spins threads busy loops until the deadline: a bounded stand-in
// for a busy host (it stops itself even if the test that started it
// died).
func hog(spec string) {
	secs, threads, _ := strings.Cut(spec, ",")
	d, _ := strconv.Atoi(secs)
	n, _ := strconv.Atoi(threads)
	runtime.GOMAXPROCS(n)
	deadline := time.Now().Add(time.Duration(d) * time.Second)
	done := make(chan struct{})
	for range n {
		go func() {
			x := 0
			for time.Now().Before(deadline) {
				for i := range 100000 {
					x += i
				}
			}
			_ = x
			done <- struct{}{}
		}()
	}
	for range n {
		<-done
	}
}

// startHog starts the test binary as a CPU hog of threads threads for at
// most d; the test kills it at its end.
func startHog(t *testing.T, threads int, d time.Duration) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), hogEnv+"="+strconv.Itoa(int(d.Seconds()))+","+strconv.Itoa(threads))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
}

// nastyTemplate is a render whose cost grows with n.number: urlize over
// n thousand e-mail addresses, the costliest render per unit known (the
// red team's urlize-emails-slow: 1.6-3.7 ns a unit, where a loop of
// assignments costs 0.2).
const nastyTemplate = "{{ ('a@b.com ' * (n.number * 1000))|urlize|length }} {{ x }}"

// nastyMethod is issue 31's shape: a batch of items composes, each a
// construct of six renders of nastyTemplate.
func nastyMethod(items int) []byte {
	construct := map[string]any{}
	for f := range 6 {
		construct["f"+strconv.Itoa(f)] = map[string]string{"template": nastyTemplate}
	}
	lib, _ := json.Marshal(map[string]any{"main_pipe": "all", "pipes": map[string]any{
		"all": map[string]any{"type": "PipeBatch", "inputs": map[string]string{"xs": "Text[]", "n": "Number"}, "output": "Anything[]",
			"branch_pipe_code": "one", "input_list_name": "xs", "input_item_name": "x", "max_concurrency": items},
		"one": map[string]any{"type": "PipeCompose", "inputs": map[string]string{"x": "Text", "n": "Number"}, "output": "Anything", "construct": construct},
	}})
	return lib
}

func nastyInputs(items, n int) []byte {
	xs := make([]string, items)
	for i := range xs {
		xs[i] = "item " + strconv.Itoa(i)
	}
	in, _ := json.Marshal(map[string]any{"xs": map[string]any{"concept": "Text[]", "content": xs},
		"n": map[string]any{"concept": "Number", "content": map[string]int{"number": n}}})
	return in
}

// renderUnits is the most units one render of the method spends under
// the pure runner.
func renderUnits(t *testing.T, lib, inputs []byte) int64 {
	t.Helper()
	var units int64
	runPure(t, &method.Runner{OnRender: func(e method.RenderEvent) { units = max(units, e.Units) }}, lib, inputs)
	return units
}

// loadItems is the batch's size: the 50. loadRuns runs start at
// once: each batch's page renders its items in one workflow, so it takes
// as many runs to fill the worker's default workflow-task slots (2 on
// one core), whose tasks then take turns on the core.
const (
	loadItems = 50
	loadRuns  = 2
)

// A valid method whose every render is just under a stretch (a batch of
// 50 composes, six such renders each: 300 stretches of 20-45 ms of CPU,
// run by the batch's page in coroutines sharing its task meter) runs on a cmd/worker process on one core (GOMAXPROCS=1) with its
// default workflow-task slots and deadlock timeout, beside a CPU hog of
// 8 threads a core (bounded in time: it stops itself): no workflow task
// of the run fails (in particular none on the deadlock detector,
// TMPRL1101), and the output is exec's. The longest workflow task is
// logged (docs/temporal.md has the measurements that chose
// workflows.DeadlockDetectionTimeout). JINJABOX_LOAD_WORKER_ARGS adds
// worker flags (--deadlock-timeout 1s shows the SDK default tripping).
func TestNastyComposeUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("a minute or more of CPU under a hog")
	}
	c := needServer(t)
	bin := buildCmd(t, "worker")
	lib := nastyMethod(loadItems)
	// n so that one render is just under a stretch: units grow linearly
	// with n.
	one, two := renderUnits(t, nastyMethod(1), nastyInputs(1, 1)), renderUnits(t, nastyMethod(1), nastyInputs(1, 2))
	target := workflows.StretchWorkUnits - workflows.RenderFixedUnits - 64<<10
	n := int((target-one)/(two-one)) + 1
	inputs := nastyInputs(loadItems, n)
	units := renderUnits(t, nastyMethod(1), nastyInputs(1, n))
	if units > target || units < workflows.StretchWorkUnits*9/10 {
		t.Fatalf("n=%d: a render spends %d units, want just under a stretch (%d)", n, units, workflows.StretchWorkUnits)
	}
	want := pureOutput(t, lib, inputs)

	queue := "it-load-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	threads := 8*runtime.NumCPU() - 1 // the worker's thread is the 8th of its core
	startHog(t, threads, 120*time.Second)
	cmd := exec.Command(bin, append([]string{"--unversioned"}, strings.Fields(os.Getenv("JINJABOX_LOAD_WORKER_ARGS"))...)...)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1", "TEMPORAL_ADDRESS="+server.FrontendHostPort(), "TEMPORAL_TASK_QUEUE="+queue, "JINJABOX_TRACES=off")
	logPath := filepath.Join(t.TempDir(), "worker.log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait(); _ = logf.Close() })

	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	start := time.Now()
	runs := make([]client.WorkflowRun, loadRuns)
	for i := range runs {
		if runs[i], err = c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: queue + "-" + strconv.Itoa(i), TaskQueue: queue},
			workflows.WorkflowRunMethod, workflows.RunMethodInput{Method: lib, Inputs: inputs}); err != nil {
			t.Fatal(err)
		}
	}
	for _, run := range runs {
		var res workflows.PipeOutput
		if err := run.Get(ctx, &res); err != nil {
			t.Fatalf("run: %v", err)
		}
		if got := outputJSON(t, res); got != want {
			t.Fatalf("output differs from exec:\n%.300s\nwant\n%.300s", got, want)
		}
	}
	took := time.Since(start)

	// Every workflow of the run: its failed workflow tasks, and its
	// longest task (started to completed).
	var ids []string
	var token []byte
	for {
		resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: "TaskQueue = '" + queue + "'", NextPageToken: token, PageSize: 1000})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range resp.Executions {
			ids = append(ids, e.GetExecution().GetWorkflowId())
		}
		if token = resp.NextPageToken; len(token) == 0 {
			break
		}
	}
	if len(ids) < 2*loadRuns {
		t.Fatalf("%d workflows listed, want each run and its batch", len(ids))
	}
	var failed []string
	var longest time.Duration
	tasks, breaths := 0, 0
	for _, id := range ids {
		var started time.Time
		it := c.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			switch ev.GetEventType() {
			case enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED:
				started = ev.GetEventTime().AsTime()
			case enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
				tasks++
				longest = max(longest, ev.GetEventTime().AsTime().Sub(started))
			case enumspb.EVENT_TYPE_MARKER_RECORDED:
				breaths++
			case enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED:
				a := ev.GetWorkflowTaskFailedEventAttributes()
				failed = append(failed, fmt.Sprintf("%s: %s %s", id, a.GetCause(), a.GetFailure().GetMessage()))
			}
		}
	}
	log, _ := os.ReadFile(logPath)
	deadlocks := strings.Count(string(log), "TMPRL1101")
	t.Logf("%d workflows, %d workflow tasks, %d breaths in %v beside %d hog threads (worker GOMAXPROCS=1, args %q): longest task %v, %d failed tasks, %d TMPRL1101 in the worker's log; %d units a render (n=%d)",
		len(ids), tasks, breaths, took.Round(time.Millisecond), threads, os.Getenv("JINJABOX_LOAD_WORKER_ARGS"), longest.Round(time.Millisecond), len(failed), deadlocks, units, n)
	// every render but the first needs a stretch of its own: the renders
	// ran in workflow code, one a stretch, not in the activity
	if renders := loadRuns * 6 * loadItems; breaths < renders-loadRuns {
		t.Errorf("%d breaths for %d renders just under a stretch: some stretch held two", breaths, renders)
	}
	if len(failed) > 0 || deadlocks > 0 {
		t.Fatalf("%d failed workflow tasks, %d TMPRL1101 in the worker's log:\n%s", len(failed), deadlocks, strings.Join(failed[:min(len(failed), 10)], "\n"))
	}
}
