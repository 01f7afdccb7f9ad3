package activities_test

import (
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/jinjabox/jinjabox/activities"
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
