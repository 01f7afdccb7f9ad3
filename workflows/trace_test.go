package workflows_test

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/client"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"
	temporaltest "go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/workflows"
)

// The in-workflow render spans of activities.SpanRecorder, recorded by
// the workflows.

func recorder() (*tracetest.SpanRecorder, *sdktrace.TracerProvider) {
	sr := tracetest.NewSpanRecorder()
	return sr, sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))
}

func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

func renderSpans(sr *tracetest.SpanRecorder, path string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range sr.Ended() {
		if s.Name() == activities.SpanRender && attrs(s)[activities.AttrPath].AsString() == path {
			out = append(out, s)
		}
	}
	return out
}

// In-workflow renders record one span each (the sample run renders 10
// templates), each the child of its workflow's span, and the tracing
// interceptor traces the workflows and activities themselves.
func TestWorkflowRenderSpansAndInterceptor(t *testing.T) {
	sr, tp := recorder()
	tracer := tp.Tracer("test")
	ti, err := temporalotel.NewTracingInterceptor(temporalotel.TracerOptions{Tracer: tracer})
	if err != nil {
		t.Fatal(err)
	}
	var s temporaltest.WorkflowTestSuite
	s.SetLogger(quietLogger())
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(worker.Options{Interceptors: []interceptor.WorkerInterceptor{ti}})
	(&workflows.Workflows{Recorder: activities.SpanRecorder{Tracer: tracer}}).Register(env)
	activities.Register(env, &activities.Activities{Tracer: tracer})
	lib, _ := os.ReadFile("../method/testdata/sample_method.json")
	inputs, _ := os.ReadFile("../method/testdata/sample_inputs.json")
	env.ExecuteWorkflow(workflows.WorkflowRunMethod, workflows.RunMethodInput{Method: lib, Inputs: inputs})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	spans := renderSpans(sr, "workflow")
	// 3 conditions, 2 LLM pipes × 2 prompts, 1 compose, 1 construct template.
	if len(spans) != 9 {
		t.Errorf("%d in-workflow render spans, want 9", len(spans))
	}
	for _, sp := range spans {
		a := attrs(sp)
		if a[activities.AttrCategory].AsString() == "" || a[activities.AttrUnits].AsInt64() <= 0 || a[activities.AttrOutcome].AsString() != "ok" {
			t.Errorf("span %v", a)
		}
	}
	// Each render span is the child of its workflow's RunWorkflow span,
	// and the whole run is one trace (the interceptor carries the span
	// to the children through the headers).
	byID := map[trace.SpanID]sdktrace.ReadOnlySpan{}
	var root sdktrace.ReadOnlySpan
	for _, sp := range sr.Ended() {
		byID[sp.SpanContext().SpanID()] = sp
		if sp.Name() == "RunWorkflow:"+workflows.WorkflowRunMethod {
			root = sp
		}
	}
	if root == nil {
		t.Fatal("no RunWorkflow span for RunMethodWorkflow")
	}
	for _, sp := range spans {
		parent, ok := byID[sp.Parent().SpanID()]
		if !sp.Parent().IsValid() || !ok {
			t.Errorf("render span of %s: parent %v is not a recorded span", attrs(sp)["jinjabox.pipe"].AsString(), sp.Parent())
			continue
		}
		if !strings.HasPrefix(parent.Name(), "RunWorkflow:Pipe") {
			t.Errorf("render span of %s: parent %q, want a pipe workflow's RunWorkflow span", attrs(sp)["jinjabox.pipe"].AsString(), parent.Name())
		}
		if sp.SpanContext().TraceID() != root.SpanContext().TraceID() {
			t.Errorf("render span of %s: trace %v, want the run's trace %v", attrs(sp)["jinjabox.pipe"].AsString(),
				sp.SpanContext().TraceID(), root.SpanContext().TraceID())
		}
	}
	var sawWorkflow, sawActivity bool
	for _, sp := range sr.Ended() {
		sawWorkflow = sawWorkflow || strings.HasPrefix(sp.Name(), "RunWorkflow:RunMethodWorkflow")
		sawActivity = sawActivity || strings.HasPrefix(sp.Name(), "RunActivity:CompleteText")
	}
	if !sawWorkflow || !sawActivity {
		t.Errorf("interceptor spans missing (workflow %v, activity %v)", sawWorkflow, sawActivity)
	}
}

// Replaying a recorded history records no render spans: a render is
// reported once, when it first runs. The history is the sample's batch
// page, which renders its items' conditions and composes itself.
func TestNoRenderSpansOnReplay(t *testing.T) {
	sr, tp := recorder()
	files, _ := filepath.Glob("testdata/histories/*/sample/*s0-answer_all.json")
	if len(files) == 0 {
		t.Fatal("no recorded history")
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		hist, err := client.HistoryFromJSON(fh, client.HistoryJSONOptions{})
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		r := worker.NewWorkflowReplayer()
		(&workflows.Workflows{Recorder: activities.SpanRecorder{Tracer: tp.Tracer("test")}}).Register(r)
		id, _ := url.PathUnescape(strings.TrimSuffix(filepath.Base(f), ".json"))
		if err := r.ReplayWorkflowHistoryWithOptions(quietLogger(), hist, worker.ReplayWorkflowHistoryOptions{
			OriginalExecution: workflow.Execution{ID: id, RunID: "replay"}}); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(renderSpans(sr, "workflow")); n != 0 {
		t.Fatalf("%d render spans during replay, want 0", n)
	}
}
