package workflows_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	temporaltest "go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/failure"
	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/workflows"
)

// watched is a test environment that records what the workflows start:
// child workflow IDs by type, activities by type, breaths (local
// activities, each ending a stretch of renders), timers (each ending a
// workflow task), render units.
type watched struct {
	*temporaltest.TestWorkflowEnvironment
	mu         sync.Mutex
	children   map[string][]string
	activities map[string]int
	breaths    int
	timers     int
	units      int64
}

func (r *watched) RecordRender(e method.RenderEvent) {
	r.mu.Lock()
	r.units += e.Units
	r.mu.Unlock()
}

func newWatched(t *testing.T) *watched {
	w := &watched{children: map[string][]string{}, activities: map[string]int{}}
	w.TestWorkflowEnvironment = newEnvWith(t, &workflows.Workflows{Recorder: w})
	activities.Register(w.TestWorkflowEnvironment, &activities.Activities{})
	w.SetOnChildWorkflowStartedListener(func(info *workflow.Info, _ workflow.Context, _ converter.EncodedValues) {
		w.mu.Lock()
		w.children[info.WorkflowType.Name] = append(w.children[info.WorkflowType.Name], info.WorkflowExecution.ID)
		w.mu.Unlock()
	})
	w.SetOnLocalActivityStartedListener(func(*activity.Info, context.Context, []any) {
		w.mu.Lock()
		w.breaths++
		w.mu.Unlock()
	})
	w.SetOnTimerScheduledListener(func(string, time.Duration) {
		w.mu.Lock()
		w.timers++
		w.mu.Unlock()
	})
	w.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		w.mu.Lock()
		w.activities[info.ActivityType.Name]++
		w.mu.Unlock()
	})
	return w
}

// runWith runs RunMethodWorkflow with options.
func runWith(t *testing.T, env *temporaltest.TestWorkflowEnvironment, lib, inputs []byte, o workflows.RunOptions) (workflows.PipeOutput, error) {
	t.Helper()
	env.ExecuteWorkflow(workflows.WorkflowRunMethod, workflows.RunMethodInput{Method: lib, Inputs: inputs, Options: o})
	if !env.IsWorkflowCompleted() {
		t.Fatal("workflow did not complete")
	}
	var res workflows.PipeOutput
	if err := env.GetWorkflowError(); err != nil {
		return res, err
	}
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	return res, nil
}

// limitError checks that err is a TemporalLimitError of the limit, and
// returns its details.
func limitError(t *testing.T, err error, limit string) failure.Details {
	t.Helper()
	ae := appError(t, err)
	var d failure.Details
	if ae.Type() != failure.ErrTypeLimit || !ae.NonRetryable() || ae.Details(&d) != nil || d.Limit != limit {
		t.Fatalf("want a final TemporalLimitError %s, got %v (%+v)", limit, err, d)
	}
	return d
}

// The 400-field PipeCompose (every field a loop over 3,000 items: seconds
// of rendering) runs as a workflow with exactly exec's output: its renders
// are spread over stretches (each ended by a breath, a local activity)
// of at most StretchWorkUnits, instead of one stretch tripping the
// deadlock detector on every attempt.
func TestWideComposeMatchesExec(t *testing.T) {
	lib := readFile(t, "testdata/compose400/method.json")
	inputs := readFile(t, "testdata/compose400/inputs.json")
	env := newWatched(t)
	runLikeExec(t, env.TestWorkflowEnvironment, lib, inputs)
	stretches := env.breaths + 1
	if min := int(env.units/workflows.StretchWorkUnits) + 1; stretches < min {
		t.Fatalf("%d units rendered in %d stretches: some stretch rendered more than %d", env.units, stretches, workflows.StretchWorkUnits)
	}
	t.Logf("400 fields, %d units, %d stretches of renders", env.units, stretches)
}

// A render bigger than a whole stretch's budget (but within the engine's
// default, so exec renders it) runs in the RenderTemplate activity, with
// exec's output: a PipeCompose's template, and a PipeCondition's
// expression, which takes the same path as any render (so no
// condition-specific activity exists).
func TestRenderBiggerThanATaskRunsInTheActivity(t *testing.T) {
	const heavy = "{% set ns = namespace(s=0) %}{% for i in range(n.number) %}{% for j in range(1000) %}{% set ns.s = ns.s + j %}{% endfor %}{% endfor %}"
	inputs := []byte(`{"n": {"concept": "Number", "content": {"number": 80}}}`)
	for _, c := range []struct{ name, lib string }{
		{"compose", `{"main_pipe": "heavy", "pipes": {"heavy": {"type": "PipeCompose", "inputs": {"n": "Number"}, "output": "Text",
			"template": "` + heavy + `{{ ns.s }}"}}}`},
		{"condition", `{"main_pipe": "route", "pipes": {
			"route": {"type": "PipeCondition", "inputs": {"n": "Number"}, "output": "Text",
				"expression_template": "` + heavy + `{{ 'big' if ns.s > 1000000 else 'small' }}",
				"outcomes": {"big": "say_big", "small": "say_small"}, "default_outcome": "fail"},
			"say_big": {"type": "PipeCompose", "inputs": {"n": "Number"}, "output": "Text", "template": "big {{ n.number }}"},
			"say_small": {"type": "PipeCompose", "inputs": {"n": "Number"}, "output": "Text", "template": "small {{ n.number }}"}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			lib := []byte(c.lib)
			var units int64
			m, err := method.ValidateJSON(lib, method.ValidateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			mem, _ := method.LoadInputs(inputs)
			if _, err := (&method.Runner{Library: m, OnRender: func(e method.RenderEvent) { units = max(units, e.Units) }}).Run(context.Background(), mem); err != nil {
				t.Fatal(err)
			}
			if units <= workflows.StretchWorkUnits || units >= 128<<20 {
				t.Fatalf("the render spends %d units: the test needs more than a stretch (%d) and less than the default budget", units, workflows.StretchWorkUnits)
			}
			env := newWatched(t)
			res := runLikeExec(t, env.TestWorkflowEnvironment, lib, inputs)
			if env.activities["RenderTemplate"] != 1 {
				t.Fatalf("activities %v: want one RenderTemplate", env.activities)
			}
			t.Logf("output %s", outputJSON(t, res))
		})
	}
}

// A result, and a child's input, over MaxPayloadBytes fail with a final
// TemporalLimitError naming the pipe (and the item), before the server
// would terminate the run.
func TestPayloadTooLarge(t *testing.T) {
	lib := []byte(`{"main_pipe": "big", "pipes": {"big": {"type": "PipeCompose", "inputs": {"n": "Number"}, "output": "Text", "template": "{{ 'x' * n.number }}"}}}`)
	_, err := runMethod(t, newEnv(t), lib, []byte(`{"n": {"concept": "Number", "content": {"number": 1700000}}}`))
	if d := limitError(t, err, failure.LimitPayloadBytes); d.Pipe != "big" || d.Observed <= workflows.MaxPayloadBytes || d.Max != workflows.MaxPayloadBytes {
		t.Fatalf("details %+v", d)
	}
	lib = []byte(`{"main_pipe": "all", "pipes": {
		"all": {"type": "PipeBatch", "inputs": {"xs": "Text[]", "doc": "Text"}, "output": "Text[]", "branch_pipe_code": "one", "input_list_name": "xs", "input_item_name": "x"},
		"one": {"type": "PipeCompose", "inputs": {"x": "Text", "doc": "Text"}, "output": "Text", "template": "{{ x }} {{ doc|length }}"}}}`)
	inputs, _ := json.Marshal(map[string]any{"xs": map[string]any{"concept": "Text[]", "content": []string{"a", "b"}},
		"doc": map[string]any{"concept": "Text", "content": strings.Repeat("y", 1600000)}})
	_, err = runMethod(t, newEnv(t), lib, inputs)
	if d := limitError(t, err, failure.LimitPayloadBytes); d.Pipe != "all" || d.Observed <= workflows.MaxPayloadBytes {
		t.Fatalf("details %+v: want the batch pipe, whose input holds the document", d)
	}
}

// Eight items whose inputs are 0.9 MiB each (a shared 0.9 MiB input)
// with a window of 8, the stuck case (8 x 0.9 MB in one task
// passes the 4 MiB message limit): the plan gives each item a page, and
// starts at most what fits a task. A parallel of six 0.9 MiB branches,
// which all start at once, is split over workflow tasks by the task's
// payload budget. Both give exec's output.
func TestTaskPayloadIsSplit(t *testing.T) {
	doc := map[string]any{"concept": "Text", "content": strings.Repeat("y", 900<<10)}
	lib := []byte(`{"main_pipe": "all", "pipes": {
		"all": {"type": "PipeBatch", "inputs": {"xs": "Text[]", "doc": "Text"}, "output": "Text[]", "branch_pipe_code": "one", "input_list_name": "xs", "input_item_name": "x", "max_concurrency": 8},
		"one": {"type": "PipeCompose", "inputs": {"x": "Text", "doc": "Text"}, "output": "Text", "template": "{{ x }} {{ doc|length }}"}}}`)
	inputs, _ := json.Marshal(map[string]any{"xs": map[string]any{"concept": "Text[]", "content": []string{"a", "b", "c", "d", "e", "f", "g", "h"}}, "doc": doc})
	runLikeExec(t, newWatched(t).TestWorkflowEnvironment, lib, inputs)
	branches := []map[string]string{}
	for i := range 6 {
		branches = append(branches, map[string]string{"pipe": "one", "result": fmt.Sprintf("r%d", i)})
	}
	plib, _ := json.Marshal(map[string]any{"main_pipe": "par", "pipes": map[string]any{
		"par": map[string]any{"type": "PipeParallel", "inputs": map[string]string{"doc": "Text"}, "output": "Composite", "branches": branches},
		"one": map[string]any{"type": "PipeCompose", "inputs": map[string]string{"doc": "Text"}, "output": "Text", "template": "{{ doc|length }}"}}})
	pinputs, _ := json.Marshal(map[string]any{"doc": doc})
	env := newWatched(t)
	runLikeExec(t, env.TestWorkflowEnvironment, plib, pinputs)
	if env.timers < 1 || len(env.children["PipeComposeWorkflow"]) != 6 {
		t.Fatalf("%d timers, children %d: six 0.9 MiB starts were not split across tasks", env.timers, len(env.children["PipeComposeWorkflow"]))
	}
}

// Child workflow IDs stay readable while they are short and are hashed
// past MaxReadableIDBytes: deep nesting and long pipe codes give IDs of
// at most that many bytes, and the run gives exec's output.
func TestLongChildIDsAreHashed(t *testing.T) {
	code := func(i int) string { return fmt.Sprintf("level_%02d_%s", i, strings.Repeat("x", 60)) }
	pipes := map[string]any{}
	const depth = 8
	for i := range depth {
		pipes[code(i)] = map[string]any{"type": "PipeSequence", "inputs": map[string]string{"q": "Text"}, "output": "Text",
			"steps": []map[string]string{{"pipe": code(i + 1)}}}
	}
	pipes[code(depth)] = map[string]any{"type": "PipeCompose", "inputs": map[string]string{"q": "Text"}, "output": "Text", "template": "deep {{ q }}"}
	lib, _ := json.Marshal(map[string]any{"main_pipe": code(0), "pipes": pipes})
	inputs := []byte(`{"q": "hello"}`)
	env := newWatched(t)
	runLikeExec(t, env.TestWorkflowEnvironment, lib, inputs)
	hashed := 0
	for _, ids := range env.children {
		for _, id := range ids {
			if len(id) > workflows.MaxReadableIDBytes {
				t.Errorf("child ID of %d bytes: %s", len(id), id)
			}
			if strings.Contains(id, "/~") {
				hashed++
			}
		}
	}
	if hashed == 0 {
		t.Fatalf("no hashed ID among %v", env.children)
	}
}

// A run whose own ID is too long to derive child IDs from fails at once
// with a TemporalLimitError on id_bytes.
func TestRootIDTooLong(t *testing.T) {
	env := newEnv(t)
	env.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: strings.Repeat("r", workflows.MaxRootIDBytes+1)})
	_, err := runMethod(t, env, readFile(t, "../method/testdata/sample_method.json"), readFile(t, "../method/testdata/sample_inputs.json"))
	limitError(t, err, failure.LimitIDBytes)
	if workflows.CheckRootID(strings.Repeat("r", workflows.MaxRootIDBytes)) != nil {
		t.Fatal("an ID of MaxRootIDBytes is refused")
	}
}

// max_concurrency above jinjabox's maximum is a validation error, and a
// batch that skipped validation fails typed before starting anything.
func TestMaxConcurrencyTooHigh(t *testing.T) {
	lib := []byte(`{"main_pipe": "all", "pipes": {
		"all": {"type": "PipeBatch", "inputs": {"xs": "Text[]"}, "output": "Text[]", "branch_pipe_code": "one", "input_list_name": "xs", "input_item_name": "x", "max_concurrency": 501},
		"one": {"type": "PipeCompose", "inputs": {"x": "Text"}, "output": "Text", "template": "{{ x }}"}}}`)
	inputs := []byte(`{"xs": {"concept": "Text[]", "content": ["a", "b"]}}`)
	_, err := runMethod(t, newEnv(t), lib, inputs)
	if ae := appError(t, err); ae.Type() != failure.ErrTypeInvalidMethod || !strings.Contains(ae.Error(), "max_concurrency") {
		t.Fatalf("got %v", err)
	}
	m, _ := method.LoadJSON(lib)
	mem, _ := method.LoadInputs(inputs)
	env := newWatched(t)
	env.ExecuteWorkflow(workflows.WorkflowFor(method.KindBatch), workflows.PipeInput{Method: m, Pipe: "all", Memory: mem})
	if d := limitError(t, env.GetWorkflowError(), failure.LimitMaxConcurrency); d.Pipe != "all" {
		t.Fatalf("details %+v", d)
	}
	if len(env.children) != 0 {
		t.Fatalf("children started: %v", env.children)
	}
}

// batchLib is a PipeBatch over xs whose branch fails on the item "bad".
var batchLib = []byte(`{"main_pipe": "all", "pipes": {
	"all": {"type": "PipeBatch", "inputs": {"xs": "Text[]"}, "output": "Text[]", "branch_pipe_code": "one", "input_list_name": "xs", "input_item_name": "x", "max_concurrency": 4},
	"one": {"type": "PipeCompose", "inputs": {"x": "Text"}, "output": "Text", "template": "{{ x|upper }}{% if x.text == 'bad' %}{{ 1 // 0 }}{% endif %}"}}}`)

func batchInputs(n, bad int) []byte {
	xs := make([]string, n)
	for i := range xs {
		xs[i] = fmt.Sprintf("item %d", i)
	}
	if bad >= 0 {
		xs[bad] = "bad"
	}
	b, _ := json.Marshal(map[string]any{"xs": map[string]any{"concept": "Text[]", "content": xs}})
	return b
}

// A batch larger than a page runs its pages as BatchWorkflows, and a
// batch of more pages than a coordinator holds runs ranges of pages
// (here pages of 3 items, 2 children a coordinator: three levels), with
// exec's output; a failing item is named by its index in the whole
// batch, first by index.
func TestBatchPagesAndRanges(t *testing.T) {
	o := workflows.RunOptions{Bounds: &workflows.Bounds{PageItems: 3, RangeChildren: 2}}
	env := newWatched(t)
	inputs := batchInputs(23, -1)
	res, err := runWith(t, env.TestWorkflowEnvironment, batchLib, inputs, o)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := outputJSON(t, res), pureOutput(t, batchLib, inputs); got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
	pages := env.children[workflows.WorkflowBatch]
	if len(pages) < 8 || len(env.children["PipeComposeWorkflow"]) != 0 {
		t.Fatalf("children %v: want pages, each running its compose items itself", env.children)
	}
	deepest := 0
	for _, id := range pages {
		deepest = max(deepest, strings.Count(id, "/p"))
	}
	if deepest < 3 {
		t.Fatalf("page IDs %v: want ranges of ranges", pages)
	}
	_, err = runWith(t, newWatched(t).TestWorkflowEnvironment, batchLib, batchInputs(23, 13), o)
	ae := appError(t, err)
	var d failure.Details
	if ae.Type() != failure.ErrTypeRender || ae.Details(&d) != nil || d.Item != 13 || d.Pipe != "one" {
		t.Fatalf("got %v (%+v)", err, d)
	}
}

// A batch page runs its leaf items in its own workflow: a PipeLLM item
// is one CompleteText activity and no child workflow, a PipeCondition
// item's expression renders there too; a controller (here the sequence a
// condition picks) stays a child workflow, with the ID it would have had
// under the item's own workflow (<page>/<item>/<key>), distinct between
// items. Outputs and failures are exec's.
func TestLeafItemsRunInThePage(t *testing.T) {
	llm := []byte(`{"main_pipe": "all", "pipes": {
		"all": {"type": "PipeBatch", "inputs": {"xs": "Text[]"}, "output": "Text[]", "branch_pipe_code": "ask", "input_list_name": "xs", "input_item_name": "x", "max_concurrency": 3},
		"ask": {"type": "PipeLLM", "inputs": {"x": "Text"}, "output": "Text", "prompt": "Say $x"}}}`)
	env := newWatched(t)
	runLikeExec(t, env.TestWorkflowEnvironment, llm, batchInputs(7, -1))
	if env.activities["CompleteText"] != 7 || len(env.children) != 1 || len(env.children["PipeBatchWorkflow"]) != 1 {
		t.Fatalf("activities %v, children %v: want 7 model calls in the batch's workflow", env.activities, env.children)
	}

	cond := []byte(`{"main_pipe": "all", "pipes": {
		"all": {"type": "PipeBatch", "inputs": {"xs": "Text[]"}, "output": "Text[]", "branch_pipe_code": "route", "input_list_name": "xs", "input_item_name": "x", "max_concurrency": 2},
		"route": {"type": "PipeCondition", "inputs": {"x": "Text"}, "expression": "'long' if x.text|length > 6 else 'short'", "outcomes": {"long": "seq", "short": "one"}, "default_outcome": "fail", "output": "Text"},
		"seq": {"type": "PipeSequence", "inputs": {"x": "Text"}, "output": "Text", "steps": [{"pipe": "one", "result": "r"}]},
		"one": {"type": "PipeCompose", "inputs": {"x": "Text"}, "output": "Text", "template": "{{ x|upper }}"}}}`)
	xs, _ := json.Marshal(map[string]any{"xs": map[string]any{"concept": "Text[]", "content": []string{"a", "longer 1", "b", "longer 3", "longer 4"}}})
	env = newWatched(t)
	runLikeExec(t, env.TestWorkflowEnvironment, cond, xs)
	seqs := env.children["PipeSequenceWorkflow"]
	if len(env.children["PipeConditionWorkflow"]) != 0 || len(seqs) != 3 || len(env.children["PipeComposeWorkflow"]) != 3 {
		t.Fatalf("children %v: want the three sequences as children (each with its step), the conditions and short composes in the page", env.children)
	}
	for i, item := range []int{1, 3, 4} {
		if !strings.Contains(seqs[i], "/all/"+strconv.Itoa(item)+"/") {
			t.Errorf("sequence %d has ID %s: want it under item %d's key", i, seqs[i], item)
		}
	}
	_, err := runWith(t, newWatched(t).TestWorkflowEnvironment, batchLib, batchInputs(6, 4), workflows.RunOptions{})
	var d failure.Details
	if ae := appError(t, err); ae.Type() != failure.ErrTypeRender || ae.Details(&d) != nil || d.Item != 4 || d.Pipe != "one" ||
		strings.Join(d.Path, " > ") != "all > one" {
		t.Fatalf("got %v (%+v)", err, d)
	}
}

// The run's failure is the innermost typed error, flat: its type, its
// position (pipe, field, line, column, item) and the path of pipes from
// the main pipe, however deep it happened.
func TestFailureIsFlat(t *testing.T) {
	lib := []byte(`{"main_pipe": "main", "pipes": {
		"main": {"type": "PipeSequence", "inputs": {"xs": "Text[]"}, "output": "Text[]", "steps": [{"pipe": "all", "result": "r"}]},
		"all": {"type": "PipeBatch", "inputs": {"xs": "Text[]"}, "output": "Text[]", "branch_pipe_code": "route", "input_list_name": "xs", "input_item_name": "x"},
		"route": {"type": "PipeCondition", "inputs": {"x": "Text"}, "expression": "'go'", "outcomes": {"go": "one"}, "default_outcome": "fail", "output": "Text"},
		"one": {"type": "PipeCompose", "inputs": {"x": "Text"}, "output": "Text", "template": "{{ x|upper }}\n{% if x.text == 'bad' %}{{ 1 // 0 }}{% endif %}"}}}`)
	_, err := runMethod(t, newEnv(t), lib, batchInputs(5, 3))
	var ae *temporal.ApplicationError
	var d failure.Details
	if ae = appError(t, err); ae.Type() != failure.ErrTypeRender || ae.Details(&d) != nil {
		t.Fatalf("got %v", err)
	}
	if d.Pipe != "one" || d.Field != "template" || d.Line != 2 || d.Col == 0 || d.Item != 3 ||
		strings.Join(d.Path, " > ") != "main > all > route > one" {
		t.Fatalf("details %+v", d)
	}
	var cause *temporal.ApplicationError
	if ae.Unwrap() != nil && errors.As(ae.Unwrap(), &cause) {
		t.Fatalf("the failure nests %v", ae.Unwrap())
	}
}

// A command that would take a workflow's history past its bound fails
// typed (here a bound lowered to 2 KiB: the main pipe's input passes it).
func TestHistoryBound(t *testing.T) {
	_, err := runWith(t, newEnv(t), readFile(t, "../method/testdata/sample_method.json"), readFile(t, "../method/testdata/sample_inputs.json"),
		workflows.RunOptions{Bounds: &workflows.Bounds{HistoryBytes: 2 << 10}})
	limitError(t, err, failure.LimitHistoryBytes)
}
