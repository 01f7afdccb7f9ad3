package activities_test

import (
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/method"
)

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

// An activity render records one span with the render's attributes.
func TestActivityRenderSpan(t *testing.T) {
	sr, tp := recorder()
	a := &activities.Activities{Tracer: tp.Tracer("test")}
	env := activityEnv(a)
	if _, err := env.ExecuteActivity(a.RenderTemplate, activities.RenderInput{Source: "{{ 'ab' * 3 }}"}); err != nil {
		t.Fatal(err)
	}
	_, _ = env.ExecuteActivity(a.RenderTemplate, activities.RenderInput{Source: "{{ x.__class__ }}"})
	spans := renderSpans(sr, "activity")
	if len(spans) != 2 {
		t.Fatalf("%d render spans, want 2", len(spans))
	}
	ok, bad := attrs(spans[0]), attrs(spans[1])
	if ok[activities.AttrCategory].AsString() != "basic" || ok[activities.AttrTemplateBytes].AsInt64() != 14 ||
		ok[activities.AttrOutputBytes].AsInt64() != 6 || ok[activities.AttrUnits].AsInt64() <= 0 || ok[activities.AttrOutcome].AsString() != "ok" {
		t.Errorf("ok span %v", ok)
	}
	if bad[activities.AttrOutcome].AsString() != "security" {
		t.Errorf("failed span %v", bad)
	}
}

// A model call records one span with the tokens the provider reports.
func TestModelCallSpan(t *testing.T) {
	sr, tp := recorder()
	f := newFakeOpenAI(t, reply(200, chatAnswer("ok", "stop", "")))
	a := &activities.Activities{Tracer: tp.Tracer("test"), Provider: &activities.OpenAIProvider{BaseURL: f.URL, Model: "m"}}
	env := activityEnv(a)
	if _, err := env.ExecuteActivity(a.CompleteText, activities.ModelCall{CompletionRequest: method.CompletionRequest{Kind: method.RequestLLM, Pipe: "d.ask", Prompt: "hi"}}); err != nil {
		t.Fatal(err)
	}
	var spans []sdktrace.ReadOnlySpan
	for _, s := range sr.Ended() {
		if s.Name() == activities.SpanModelCall {
			spans = append(spans, s)
		}
	}
	if len(spans) != 1 {
		t.Fatalf("%d model call spans, want 1", len(spans))
	}
	at := attrs(spans[0])
	if at[activities.AttrPipe].AsString() != "d.ask" || at[activities.AttrKind].AsString() != "llm" || at[activities.AttrOutcome].AsString() != "ok" ||
		at[activities.AttrPromptTokens].AsInt64() != 11 || at[activities.AttrCompletionTokens].AsInt64() != 7 || at[activities.AttrTotalTokens].AsInt64() != 18 {
		t.Errorf("span %v", at)
	}
}
