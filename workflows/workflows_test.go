package workflows_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	temporaltest "go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/failure"
	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/workflows"
)

// quietLogger drops the SDK's log lines: these tests provoke activity
// and template errors on purpose, and assert on the returned errors.
func quietLogger() log.Logger {
	return log.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError + 1})))
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// newEnv is a test workflow environment with every workflow and the real
// activities registered (the local provider).
func newEnv(t *testing.T) *temporaltest.TestWorkflowEnvironment {
	env := newEnvWith(t, &workflows.Workflows{})
	activities.Register(env, &activities.Activities{})
	return env
}

func newEnvWith(t *testing.T, w *workflows.Workflows) *temporaltest.TestWorkflowEnvironment {
	t.Helper()
	var s temporaltest.WorkflowTestSuite
	s.SetLogger(quietLogger())
	env := s.NewTestWorkflowEnvironment()
	// the worker's detector (the SDK's 1 s failed TestHostileCorpusInWorkflow
	// and TestTaskPayloadIsSplit at load 17 on 2 cores)
	env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: workflows.DeadlockDetectionTimeout})
	// The environment's own hang detector (3 s by default) measures the
	// wall time an activity runs: a hostile case's render activity took
	// longer beside a CPU hog at load 8 (TestHostileCorpusInWorkflow,
	// "test timeout: 3s"). A hang still ends the test, a minute later.
	env.SetTestTimeout(time.Minute)
	w.Register(env)
	return env
}

// pureOutput runs the bundle with the pure runner (what `jinjabox exec`
// prints) as JSON.
func pureOutput(t *testing.T, lib, inputs []byte) string {
	t.Helper()
	m, err := method.ValidateJSON(lib, method.ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mem, err := method.LoadInputs(inputs)
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&method.Runner{Library: m, Provider: method.LocalProvider{}}).Run(context.Background(), mem)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.Output)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func outputJSON(t *testing.T, res workflows.PipeOutput) string {
	t.Helper()
	if res.Output == nil {
		return "null"
	}
	b, err := json.Marshal(res.Output)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func runMethod(t *testing.T, env *temporaltest.TestWorkflowEnvironment, lib, inputs []byte) (workflows.PipeOutput, error) {
	t.Helper()
	env.ExecuteWorkflow(workflows.WorkflowRunMethod, workflows.RunMethodInput{Method: lib, Inputs: inputs})
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

// runLikeExec runs the method as workflows, which must succeed with
// exactly the pure runner's (`jinjabox exec`'s) output.
func runLikeExec(t *testing.T, env *temporaltest.TestWorkflowEnvironment, lib, inputs []byte) workflows.PipeOutput {
	t.Helper()
	res, err := runMethod(t, env, lib, inputs)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := outputJSON(t, res), pureOutput(t, lib, inputs); got != want {
		t.Fatalf("workflow output differs from the runner's:\n got %.300s\nwant %.300s", got, want)
	}
	return res
}

// The sample method (sequence → batch → condition → LLM/compose, then a
// construct) gives, as workflows, exactly the pure runner's output.
func TestRunMethodWorkflowMatchesRunner(t *testing.T) {
	lib := readFile(t, "../method/testdata/sample_method.json")
	inputs := readFile(t, "../method/testdata/sample_inputs.json")
	runLikeExec(t, newEnv(t), lib, inputs)
}

// A model call is an activity: mocking CompleteText changes the answer.
func TestPipeLLMCallsCompleteTextActivity(t *testing.T) {
	env := newEnv(t)
	var prompts []string
	env.OnActivity(activities.NameCompleteText, mock.Anything, mock.Anything).Return(
		func(_ context.Context, req activities.ModelCall) (method.CompletionResponse, error) {
			prompts = append(prompts, req.Prompt)
			return method.CompletionResponse{Text: "mocked"}, nil
		})
	lib := []byte(`{"main_pipe":"ask","pipes":{"ask":{"type":"PipeLLM","inputs":{"q":"Text"},"output":"Text","prompt":"Answer: $q"}}}`)
	res, err := runMethod(t, env, lib, []byte(`{"q":"why?"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := outputJSON(t, res); got != `{"name":"ask","concept":"Text","content":{"text":"mocked"}}` {
		t.Fatalf("output %s", got)
	}
	if len(prompts) != 1 || prompts[0] == "" {
		t.Fatalf("prompts %q", prompts)
	}
}

// appError digs the application error out of a workflow failure.
func appError(t *testing.T, err error) *temporal.ApplicationError {
	t.Helper()
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) {
		t.Fatalf("want an application error, got %v", err)
	}
	return ae
}

// Template failures are non-retryable application errors typed by kind,
// with position details.
func TestTemplateErrorTypes(t *testing.T) {
	for _, tc := range []struct{ tmpl, typ string }{
		{"{{ x.__class__ }}", failure.ErrTypeSecurity},
		{"{{ 'x' * 100000000 }}", failure.ErrTypeBudget},
		{"{{ nope.attr }}", failure.ErrTypeUndefined},
		{"{{ 1 / 0 }}", failure.ErrTypeRender},
	} {
		lib, _ := json.Marshal(map[string]any{"main_pipe": "c", "pipes": map[string]any{
			"c": map[string]any{"type": "PipeCompose", "inputs": map[string]string{"x": "Text"}, "output": "Text", "template": "{{ x }}" + tc.tmpl}}})
		// ValidateMethod would catch the static ones first; run the
		// compose workflow directly to reach the render.
		m, err := method.LoadJSON(lib)
		if err != nil {
			t.Fatal(err)
		}
		env := newEnv(t)
		env.ExecuteWorkflow(workflows.WorkflowFor(method.KindCompose), workflows.PipeInput{Method: m, Pipe: "c",
			Memory: method.NewMemory(method.Stuff{Name: "x", Concept: "Text", Content: "v"})})
		ae := appError(t, env.GetWorkflowError())
		if ae.Type() != tc.typ || !ae.NonRetryable() {
			t.Errorf("%s: type %s nonretryable %v, want %s", tc.tmpl, ae.Type(), ae.NonRetryable(), tc.typ)
		}
		var d failure.Details
		if err := ae.Details(&d); err != nil || d.Pipe != "c" || d.Line != 1 || d.Col == 0 {
			t.Errorf("%s: details %+v (%v)", tc.tmpl, d, err)
		}
	}
}

// An invalid bundle fails RunMethodWorkflow with InvalidMethod listing
// every problem, before any pipe runs.
func TestRunMethodRejectsInvalidMethod(t *testing.T) {
	_, err := runMethod(t, newEnv(t), readFile(t, "../method/testdata/broken_method.json"), []byte(`{}`))
	ae := appError(t, err)
	var problems []string
	if ae.Type() != failure.ErrTypeInvalidMethod || ae.Details(&problems) != nil || len(problems) < 2 {
		t.Fatalf("type %s problems %q", ae.Type(), problems)
	}
}

// A batch whose outputs are too large for one Temporal payload fails
// with a TemporalLimitError naming the batch pipe and the first item
// past the bound, before the server would reject the result.
func TestBatchOutputLimitIsALimitError(t *testing.T) {
	lib := []byte(`{"main_pipe":"all","pipes":{
		"all":{"type":"PipeBatch","inputs":{"xs":"Anything"},"output":"Text[]","branch_pipe_code":"one","input_list_name":"xs","input_item_name":"x"},
		"one":{"type":"PipeCompose","inputs":{"x":"Anything"},"output":"Text","template":"{{ x and 'x' * 200000 }}"}}}`)
	inputs := []byte(`{"xs":{"concept":"Anything","content":[1,2,3,4,5,6,7,8,9,10,11,12]}}`)
	_, err := runMethod(t, newEnv(t), lib, inputs)
	ae := appError(t, err)
	var d failure.Details
	if ae.Type() != failure.ErrTypeLimit || ae.Details(&d) != nil || d.Limit != failure.LimitBatchOutputBytes || d.Pipe != "all" || d.Item != 7 {
		t.Fatalf("got %v (%+v)", err, d)
	}
}

// With external storage (RunOptions.StoreAbove), the same batch's
// outputs travel as one claim: the run completes with all 12 outputs
// (2.4 MB), past the inline bound the test above fails at.
func TestBatchOutputsStoredPassInlineBound(t *testing.T) {
	lib := []byte(`{"main_pipe":"all","pipes":{
		"all":{"type":"PipeBatch","inputs":{"xs":"Anything"},"output":"Text[]","branch_pipe_code":"one","input_list_name":"xs","input_item_name":"x"},
		"one":{"type":"PipeCompose","inputs":{"x":"Anything"},"output":"Text","template":"{{ x and 'x' * 200000 }}"}}}`)
	inputs := []byte(`{"xs":{"concept":"Anything","content":[1,2,3,4,5,6,7,8,9,10,11,12]}}`)
	env := newEnv(t)
	env.ExecuteWorkflow(workflows.WorkflowRunMethod, workflows.RunMethodInput{Method: lib, Inputs: inputs,
		Options: workflows.RunOptions{StoreAbove: 256 << 10}})
	if !env.IsWorkflowCompleted() {
		t.Fatal("workflow did not complete")
	}
	if err := env.GetWorkflowError(); err != nil {
		t.Fatalf("with a payload store: %v", err)
	}
	var res workflows.PipeOutput
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	j, err := json.Marshal(res.Output.Content)
	if err != nil || len(j) < 12*200000 || strings.Count(string(j), strings.Repeat("x", 200000)) != 12 {
		t.Fatalf("outputs: %d bytes, %v", len(j), err)
	}
}

// RunOptions.Models (`jinjabox run --models`) resolves a PipeLLM's model
// reference in the workflow, as exec's runner does: the model call
// carries the resolved model and the reference as written.
func TestRunOptionsModelsResolve(t *testing.T) {
	env := newEnv(t)
	var got method.CompletionRequest
	env.OnActivity(activities.NameCompleteText, mock.Anything, mock.Anything).Return(
		func(_ context.Context, req activities.ModelCall) (method.CompletionResponse, error) {
			got = req.CompletionRequest
			return method.CompletionResponse{Text: "ok"}, nil
		})
	lib := []byte(`{"main_pipe":"ask","pipes":{"ask":{"type":"PipeLLM","inputs":{"q":"Text"},"output":"Text","model":"$writing","prompt":"$q"}}}`)
	models := &method.ModelConfig{Presets: map[string]string{"writing": "@large"}, Aliases: map[string]string{"large": "model-l"}}
	env.ExecuteWorkflow(workflows.WorkflowRunMethod, workflows.RunMethodInput{Method: lib, Inputs: []byte(`{"q":"hi"}`),
		Options: workflows.RunOptions{Models: models}})
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("run: %v", env.GetWorkflowError())
	}
	if got.Model != "model-l" || got.ModelRef != "$writing" {
		t.Fatalf("the model call asked for %q (ref %q), want model-l ($writing)", got.Model, got.ModelRef)
	}
}

// A batch runs at most max_concurrency children at once and keeps item
// order; here each child's model call is a mock that tracks how many run
// together.
func TestBatchConcurrencyAndOrder(t *testing.T) {
	env := newEnv(t)
	var mu sync.Mutex
	inFlight, peak := 0, 0
	env.OnActivity(activities.NameCompleteText, mock.Anything, mock.Anything).Return(
		func(_ context.Context, req activities.ModelCall) (method.CompletionResponse, error) {
			mu.Lock()
			inFlight++
			peak = max(peak, inFlight)
			mu.Unlock()
			time.Sleep(20 * time.Millisecond)
			mu.Lock()
			inFlight--
			mu.Unlock()
			return method.CompletionResponse{Text: "re: " + req.Prompt}, nil
		})
	lib := []byte(`{"main_pipe":"all","pipes":{
		"all":{"type":"PipeBatch","inputs":{"xs":"Text[]"},"output":"Text[]","branch_pipe_code":"one","input_list_name":"xs","input_item_name":"x","max_concurrency":2},
		"one":{"type":"PipeLLM","inputs":{"x":"Text"},"output":"Text","prompt":"{{ x.text }}"}}}`)
	inputs := []byte(`{"xs":{"concept":"Text[]","content":["a","b","c","d","e","f"]}}`)
	res, err := runMethod(t, env, lib, inputs)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"all","concept":"Text[]","content":[{"text":"re: a"},{"text":"re: b"},{"text":"re: c"},{"text":"re: d"},{"text":"re: e"},{"text":"re: f"}]}`
	if got := outputJSON(t, res); got != want {
		t.Fatalf("got %s", got)
	}
	if peak > 2 {
		t.Fatalf("%d model calls ran at once, max_concurrency is 2", peak)
	}
	t.Logf("peak concurrent children: %d", peak)
}

// The first failure by index wins, even when a later item fails first.
func TestBatchFirstFailureByIndex(t *testing.T) {
	env := newEnv(t)
	env.OnActivity(activities.NameCompleteText, mock.Anything, mock.Anything).Return(
		func(_ context.Context, req activities.ModelCall) (method.CompletionResponse, error) {
			switch req.Prompt {
			case "slow-fail":
				time.Sleep(50 * time.Millisecond)
			case "ok":
				return method.CompletionResponse{Text: "fine"}, nil
			}
			return method.CompletionResponse{}, temporal.NewNonRetryableApplicationError(req.Prompt, failure.ErrTypeProvider, nil)
		})
	lib := []byte(`{"main_pipe":"all","pipes":{
		"all":{"type":"PipeBatch","inputs":{"xs":"Text[]"},"output":"Text[]","branch_pipe_code":"one","input_list_name":"xs","input_item_name":"x","max_concurrency":4},
		"one":{"type":"PipeLLM","inputs":{"x":"Text"},"output":"Text","prompt":"{{ x.text }}"}}}`)
	inputs := []byte(`{"xs":{"concept":"Text[]","content":["ok","slow-fail","fast-fail","ok"]}}`)
	_, err := runMethod(t, env, lib, inputs)
	ae := appError(t, err)
	var d failure.Details
	if ae.Details(&d) != nil || d.Item != 1 || !strings.Contains(ae.Error(), "slow-fail") {
		t.Fatalf("details %+v: want item 1 (slow-fail): %v", d, err)
	}
}
