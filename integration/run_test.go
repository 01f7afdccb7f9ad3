package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/proto"

	"github.com/jinjabox/jinjabox/failure"
	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/workflows"
)

// pureOutput is what the pure runner (`jinjabox exec`) gives.
func pureOutput(t *testing.T, lib, inputs []byte) string {
	t.Helper()
	return runPure(t, &method.Runner{Provider: method.LocalProvider{}}, lib, inputs)
}

// runPure validates lib, runs it over inputs with r (its Library set
// here) and returns the output as JSON.
func runPure(t *testing.T, r *method.Runner, lib, inputs []byte) string {
	t.Helper()
	m, err := method.ValidateJSON(lib, method.ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mem, err := method.LoadInputs(inputs)
	if err != nil {
		t.Fatal(err)
	}
	r.Library = m
	res, err := r.Run(context.Background(), mem)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.Output)
	return string(b)
}

func outputJSON(t *testing.T, res workflows.PipeOutput) string {
	t.Helper()
	if res.Output == nil {
		return "null"
	}
	b, _ := json.Marshal(res.Output)
	return string(b)
}

func runMethod(ctx context.Context, c client.Client, queue, id string, in workflows.RunMethodInput) (workflows.PipeOutput, error) {
	var res workflows.PipeOutput
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue}, workflows.WorkflowRunMethod, in)
	if err != nil {
		return res, err
	}
	err = run.Get(ctx, &res)
	return res, err
}

// The sample method runs on a real server with the pure runner's output.
func TestSampleMethodOnDevServer(t *testing.T) {
	c := needServer(t)
	startWorker(t, c, "it-sample")
	lib := readFile(t, "../method/testdata/sample_method.json")
	inputs := readFile(t, "../method/testdata/sample_inputs.json")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	res, err := runMethod(ctx, c, "it-sample", "it-sample", workflows.RunMethodInput{Method: lib, Inputs: inputs})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("sample method on the dev server: %v", time.Since(start))
	if got, want := outputJSON(t, res), pureOutput(t, lib, inputs); got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
}

// A failing batch item fails the run with the item's index and the
// template error type; an invalid bundle fails with InvalidMethod.
func TestFailuresOnDevServer(t *testing.T) {
	c := needServer(t)
	startWorker(t, c, "it-fail")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	lib := []byte(`{"main_pipe":"all","pipes":{
		"all":{"type":"PipeBatch","inputs":{"xs":"Anything"},"output":"Text[]","branch_pipe_code":"one","input_list_name":"xs","input_item_name":"x","max_concurrency":2},
		"one":{"type":"PipeCompose","inputs":{"x":"Anything"},"output":"Text","template":"{{ 10 // x.n }}"}}}`)
	inputs := []byte(`{"xs":{"concept":"Anything","content":[{"n":5},{"n":2},{"n":0},{"n":1},{"n":0}]}}`)
	_, err := runMethod(ctx, c, "it-fail", "it-fail-batch", workflows.RunMethodInput{Method: lib, Inputs: inputs})
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) {
		t.Fatalf("want an application error, got %v", err)
	}
	var d failure.Details
	if ae.Type() != failure.ErrTypeRender || ae.Details(&d) != nil || d.Item != 2 {
		t.Fatalf("type %s details %+v: want TemplateRenderError at item 2 (%v)", ae.Type(), d, err)
	}
	_, err = runMethod(ctx, c, "it-fail", "it-fail-invalid", workflows.RunMethodInput{Method: readFile(t, "../method/testdata/broken_method.json"), Inputs: []byte(`{}`)})
	if !errors.As(err, &ae) || ae.Type() != failure.ErrTypeInvalidMethod {
		t.Fatalf("want InvalidMethod, got %v", err)
	}
}

// The method travels in the root's history once: as the run's input.
// Its validation is a local activity, whose input is never recorded (an
// activity's scheduled event held a second copy), and an invalid method
// still fails typed.
func TestMethodStoredOncePerRun(t *testing.T) {
	c := needServer(t)
	startWorker(t, c, "it-method-once")
	marker := "marker-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	lib := []byte(`{"main_pipe":"one","description":"` + marker + `","pipes":{
		"one":{"type":"PipeCompose","inputs":{"q":"Text"},"output":"Text","template":"{{ q }}!"}}}`)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	id := "method-once-" + strconv.FormatInt(time.Now().UnixNano()+1, 36) // not the marker: child IDs repeat it
	if _, err := runMethod(ctx, c, "it-method-once", id, workflows.RunMethodInput{Method: lib, Inputs: []byte(`{"q":"hi"}`)}); err != nil {
		t.Fatal(err)
	}
	copies := 0
	it := c.GetWorkflowHistory(ctx, id, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		b, err := proto.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(b, []byte(marker)); n > 0 {
			t.Logf("event %d %v: %d", ev.GetEventId(), ev.GetEventType(), n)
			copies += n
		}
	}
	if copies != 1 {
		t.Errorf("the method is in the root's history %d times, want once", copies)
	}
	_, err := runMethod(ctx, c, "it-method-once", id+"-bad", workflows.RunMethodInput{Method: []byte(`{"main_pipe":"nope","pipes":{}}`), Inputs: []byte(`{}`)})
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != failure.ErrTypeInvalidMethod {
		t.Errorf("an invalid method: %v, want %s", err, failure.ErrTypeInvalidMethod)
	}
}
