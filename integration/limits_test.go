package integration

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/jinjabox/jinjabox/failure"
	"github.com/jinjabox/jinjabox/internal/benchtemporal"
	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/workflows"
)

// The fault matrix of the server's limits, on a real dev server: each
// case ends in a typed, final failure (or completes) within its bound,
// with every workflow of the run closed, none Terminated by the server
// and none left running on a failing workflow task.

// faultBound is how long a fault case may take: they all fail (or
// complete) within seconds; a stuck run would hit it.
const faultBound = 45 * time.Second

// runRoot runs RunMethodWorkflow under ID root and returns how long it
// took and its error.
func runRoot(t *testing.T, c client.Client, queue, root string, in workflows.RunMethodInput) (workflows.PipeOutput, time.Duration, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), faultBound)
	defer cancel()
	start := time.Now()
	res, err := runMethod(ctx, c, queue, root, in)
	if ctx.Err() != nil {
		t.Fatalf("%s: not done within %v (stuck?): %v", root, faultBound, err)
	}
	return res, time.Since(start), err
}

// assertRunClosed fails unless every workflow of the root is closed, and
// none was terminated (by the server's limits: a typed failure must come
// first). status is the root's expected status.
func assertRunClosed(t *testing.T, c client.Client, root string, status enums.WorkflowExecutionStatus) []benchtemporal.Workflow {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ws, err := benchtemporal.ListRoot(ctx, c, root)
	if err != nil {
		t.Fatalf("%s: %v", root, err)
	}
	for _, w := range ws {
		if w.Status == enums.WORKFLOW_EXECUTION_STATUS_TERMINATED || w.Status == enums.WORKFLOW_EXECUTION_STATUS_RUNNING {
			t.Errorf("%s (%s) is %s", w.ID, w.Type, w.Status)
		}
		if w.ID == root && w.Status != status {
			t.Errorf("the run is %s, want %s", w.Status, status)
		}
	}
	return ws
}

// limitDetails checks a TemporalLimitError of the limit.
func limitDetails(t *testing.T, err error, limit string) failure.Details {
	t.Helper()
	var ae *temporal.ApplicationError
	var d failure.Details
	if !errors.As(err, &ae) || ae.Type() != failure.ErrTypeLimit || ae.Details(&d) != nil || d.Limit != limit {
		t.Fatalf("want a TemporalLimitError on %s, got %v (%+v)", limit, err, d)
	}
	return d
}

func jsonInputs(t *testing.T, v map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A payload too big: a result over the bound fails typed (Failed, not
// Terminated by the server's 2 MiB blob limit), naming the pipe.
func TestFaultPayloadTooBig(t *testing.T) {
	c := needServer(t)
	startWorker(t, c, "it-fault-payload")
	lib := []byte(`{"main_pipe": "big", "pipes": {"big": {"type": "PipeCompose", "inputs": {"n": "Number"}, "output": "Text", "template": "{{ 'x' * n.number }}"}}}`)
	_, took, err := runRoot(t, c, "it-fault-payload", "it-fault-payload", workflows.RunMethodInput{Method: lib,
		Inputs: []byte(`{"n": {"concept": "Number", "content": {"number": 1700000}}}`)})
	if d := limitDetails(t, err, failure.LimitPayloadBytes); d.Pipe != "big" {
		t.Fatalf("details %+v", d)
	}
	assertRunClosed(t, c, "it-fault-payload", enums.WORKFLOW_EXECUTION_STATUS_FAILED)
	t.Logf("payload too big: failed typed in %v", took)
}

// The commands of one workflow task stay under the 4 MiB gRPC message:
// six 0.9 MiB branches that start at once (the stuck case, 8 x
// 0.9 MB children) are split over tasks, and the run completes with
// exec's output.
func TestFaultTaskMessageSplit(t *testing.T) {
	c := needServer(t)
	startWorker(t, c, "it-fault-split")
	branches := []map[string]string{}
	for i := range 6 {
		branches = append(branches, map[string]string{"pipe": "one", "result": fmt.Sprintf("r%d", i)})
	}
	lib, _ := json.Marshal(map[string]any{"main_pipe": "par", "pipes": map[string]any{
		"par": map[string]any{"type": "PipeParallel", "inputs": map[string]string{"doc": "Text"}, "output": "Composite", "branches": branches},
		"one": map[string]any{"type": "PipeCompose", "inputs": map[string]string{"doc": "Text"}, "output": "Text", "template": "{{ doc|length }}"}}})
	inputs := jsonInputs(t, map[string]any{"doc": map[string]any{"concept": "Text", "content": strings.Repeat("y", 900<<10)}})
	res, took, err := runRoot(t, c, "it-fault-split", "it-fault-split", workflows.RunMethodInput{Method: lib, Inputs: inputs})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := outputJSON(t, res), pureOutput(t, lib, inputs); got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	assertRunClosed(t, c, "it-fault-split", enums.WORKFLOW_EXECUTION_STATUS_COMPLETED)
	t.Logf("six 0.9 MiB starts: completed in %v", took)
}

// An ID too long: a run's ID past MaxRootIDBytes fails typed at once (one
// past the server's 1,000 is refused at the start, typed by the server);
// deep nesting with long codes gives hashed child IDs the server takes,
// and the run completes with exec's output.
func TestFaultIDTooLong(t *testing.T) {
	c := needServer(t)
	startWorker(t, c, "it-fault-id")
	sample := workflows.RunMethodInput{Method: readFile(t, "../method/testdata/sample_method.json"), Inputs: readFile(t, "../method/testdata/sample_inputs.json")}
	root := "it-fault-id-" + strings.Repeat("r", workflows.MaxRootIDBytes)
	_, _, err := runRoot(t, c, "it-fault-id", root, sample)
	limitDetails(t, err, failure.LimitIDBytes)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: strings.Repeat("r", 1001), TaskQueue: "it-fault-id"}, workflows.WorkflowRunMethod, sample)
	var ia *serviceerror.InvalidArgument
	if !errors.As(err, &ia) {
		t.Fatalf("a 1,001-byte ID: want the server's InvalidArgument, got %v", err)
	}

	code := func(i int) string { return fmt.Sprintf("level_%02d_%s", i, strings.Repeat("x", 90)) }
	pipes := map[string]any{}
	const depth = 12
	for i := range depth {
		pipes[code(i)] = map[string]any{"type": "PipeSequence", "inputs": map[string]string{"q": "Text"}, "output": "Text", "steps": []map[string]string{{"pipe": code(i + 1)}}}
	}
	pipes[code(depth)] = map[string]any{"type": "PipeCompose", "inputs": map[string]string{"q": "Text"}, "output": "Text", "template": "deep {{ q }}"}
	lib, _ := json.Marshal(map[string]any{"main_pipe": code(0), "pipes": pipes})
	inputs := []byte(`{"q": "hello"}`)
	deepRoot := "it-fault-id-deep-" + strings.Repeat("d", 150)
	res, took, err := runRoot(t, c, "it-fault-id", deepRoot, workflows.RunMethodInput{Method: lib, Inputs: inputs})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := outputJSON(t, res), pureOutput(t, lib, inputs); got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	ws := assertRunClosed(t, c, deepRoot, enums.WORKFLOW_EXECUTION_STATUS_COMPLETED)
	longest := 0
	for _, w := range ws {
		longest = max(longest, len(w.ID))
	}
	if len(ws) != depth+2 || longest > workflows.MaxReadableIDBytes {
		t.Fatalf("%d workflows, longest ID %d bytes", len(ws), longest)
	}
	t.Logf("%d nested workflows, IDs of at most %d bytes, in %v", len(ws), longest, took)
}

// max_concurrency too high: validation refuses it (InvalidMethod, at
// once), and a batch workflow sent one anyway fails typed before starting
// a child, never stuck on the server's 2,000 pending children.
func TestFaultMaxConcurrencyTooHigh(t *testing.T) {
	c := needServer(t)
	startWorker(t, c, "it-fault-conc")
	lib := []byte(`{"main_pipe": "all", "pipes": {
		"all": {"type": "PipeBatch", "inputs": {"xs": "Text[]"}, "output": "Text[]", "branch_pipe_code": "one", "input_list_name": "xs", "input_item_name": "x", "max_concurrency": 2500},
		"one": {"type": "PipeCompose", "inputs": {"x": "Text"}, "output": "Text", "template": "{{ x }}"}}}`)
	inputs := textList(3)
	_, _, err := runRoot(t, c, "it-fault-conc", "it-fault-conc", workflows.RunMethodInput{Method: lib, Inputs: inputs})
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != failure.ErrTypeInvalidMethod || !strings.Contains(err.Error(), "max_concurrency") {
		t.Fatalf("want InvalidMethod naming max_concurrency, got %v", err)
	}
	m, _ := method.LoadJSON(lib)
	mem, _ := method.LoadInputs(inputs)
	ctx, cancel := context.WithTimeout(context.Background(), faultBound)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "it-fault-conc-direct", TaskQueue: "it-fault-conc"},
		workflows.WorkflowFor(method.KindBatch), workflows.PipeInput{Method: m, Pipe: "all", Memory: mem})
	if err != nil {
		t.Fatal(err)
	}
	err = run.Get(ctx, nil)
	if d := limitDetails(t, err, failure.LimitMaxConcurrency); d.Pipe != "all" {
		t.Fatalf("details %+v", d)
	}
	if ws := assertRunClosed(t, c, "it-fault-conc-direct", enums.WORKFLOW_EXECUTION_STATUS_FAILED); len(ws) != 1 {
		t.Fatalf("children started: %v", ws)
	}
}

// A history bound (lowered here) fails typed before the server would
// terminate the workflow.
func TestFaultHistoryBound(t *testing.T) {
	c := needServer(t)
	startWorker(t, c, "it-fault-history")
	in := workflows.RunMethodInput{Method: readFile(t, "../method/testdata/sample_method.json"), Inputs: readFile(t, "../method/testdata/sample_inputs.json"),
		Options: workflows.RunOptions{Bounds: &workflows.Bounds{HistoryBytes: 8 << 10}}}
	_, _, err := runRoot(t, c, "it-fault-history", "it-fault-history", in)
	limitDetails(t, err, failure.LimitHistoryBytes)
	assertRunClosed(t, c, "it-fault-history", enums.WORKFLOW_EXECUTION_STATUS_FAILED)
}

// The 400-field PipeCompose (seconds of rendering, which used to trip the
// deadlock detector on every attempt) runs on Temporal with exec's
// output, its renders spread over short workflow tasks.
func TestWideComposeOnDevServer(t *testing.T) {
	c := needServer(t)
	startWorker(t, c, "it-wide")
	lib := readFile(t, "../workflows/testdata/compose400/method.json")
	inputs := readFile(t, "../workflows/testdata/compose400/inputs.json")
	res, took, err := runRoot(t, c, "it-wide", "it-wide", workflows.RunMethodInput{Method: lib, Inputs: inputs})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := outputJSON(t, res), pureOutput(t, lib, inputs); got != want {
		t.Fatalf("got %.300s\nwant %.300s", got, want)
	}
	ws := assertRunClosed(t, c, "it-wide", enums.WORKFLOW_EXECUTION_STATUS_COMPLETED)
	for _, w := range ws {
		if w.Type == "PipeComposeWorkflow" && w.Events < 20 {
			t.Errorf("the compose's history has %d events: its renders were not spread over tasks", w.Events)
		}
	}
	t.Logf("400-field compose on the dev server: %v", took)
}

// A batch in pages and ranges (small bounds) completes on a real server
// with exec's output: the smoke version of make bench-temporal's
// batches.
func TestBatchPagesOnDevServer(t *testing.T) {
	c := needServer(t)
	startWorker(t, c, "it-pages")
	lib := benchtemporal.BatchMethod(8)
	inputs := benchtemporal.BatchInputs(40)
	res, took, err := runRoot(t, c, "it-pages", "it-pages", workflows.RunMethodInput{Method: lib, Inputs: inputs,
		Options: workflows.RunOptions{Bounds: &workflows.Bounds{PageItems: 6, RangeChildren: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := outputJSON(t, res), pureOutput(t, lib, inputs); got != want {
		t.Fatalf("got %.300s\nwant %.300s", got, want)
	}
	ws := assertRunClosed(t, c, "it-pages", enums.WORKFLOW_EXECUTION_STATUS_COMPLETED)
	batches := 0
	for _, w := range ws {
		if w.Type == workflows.WorkflowBatch {
			batches++
		}
	}
	if batches < 7 {
		t.Fatalf("%d BatchWorkflows for 40 items in pages of 6", batches)
	}
	t.Logf("40 items in %d pages and ranges: %v", batches, took)
}
