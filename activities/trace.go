package activities

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/jinjabox/jinjabox/engine/errs"
	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/method/templating"
)

// SpanRender is the name of render spans.
const SpanRender = "jinjabox.render"

// Render span attributes.
const (
	AttrCategory      = "jinjabox.category"
	AttrTemplateBytes = "jinjabox.template_bytes"
	AttrUnits         = "jinjabox.units"
	AttrOutputBytes   = "jinjabox.output_bytes"
	AttrOutcome       = "jinjabox.outcome"
	AttrPath          = "jinjabox.path"
)

// outcome is "ok" or the engine error kind ("budget", "security", ...).
func outcome(err error) string {
	if err == nil {
		return "ok"
	}
	var ee *errs.Error
	if errors.As(err, &ee) {
		return ee.Kind.String()
	}
	return "error"
}

func setRenderAttrs(s trace.Span, path string, cat templating.Category, size int, units int64, out int, err error) {
	s.SetAttributes(
		attribute.String(AttrPath, path),
		attribute.String(AttrCategory, string(cat)),
		attribute.Int(AttrTemplateBytes, size),
		attribute.Int64(AttrUnits, units),
		attribute.Int(AttrOutputBytes, out),
		attribute.String(AttrOutcome, outcome(err)),
	)
	if err != nil {
		s.SetStatus(codes.Error, outcome(err))
	}
}

// span runs one activity render inside a render span.
func (a *Activities) span(ctx context.Context, cat templating.Category, size int, f func() (int64, int, error)) error {
	_, s := a.tracer().Start(ctx, SpanRender)
	defer s.End()
	units, out, err := f()
	setRenderAttrs(s, "activity", cat, size, units, out, err)
	return err
}

// SpanRecorder turns in-workflow renders into spans; set it as the
// Recorder of the workflows (workflows.Workflows), which parent each
// span on the workflow's own span (RecordRenderUnder). Spans are ended
// at once and the SDK's batch processor exports them off the workflow
// goroutine, so recording never blocks a workflow task.
type SpanRecorder struct {
	Tracer trace.Tracer
}

// RecordRender records one in-workflow render as a root span.
func (r SpanRecorder) RecordRender(e method.RenderEvent) {
	r.RecordRenderUnder(trace.SpanContext{}, e)
}

// RecordRenderUnder records one in-workflow render as a span, the child
// of parent when it is valid.
func (r SpanRecorder) RecordRenderUnder(parent trace.SpanContext, e method.RenderEvent) {
	ctx := context.Background()
	if parent.IsValid() {
		ctx = trace.ContextWithSpanContext(ctx, parent)
	}
	_, s := r.Tracer.Start(ctx, SpanRender,
		trace.WithAttributes(attribute.String("jinjabox.pipe", e.Pipe), attribute.String("jinjabox.field", e.Field)))
	setRenderAttrs(s, "workflow", e.Category, e.TemplateBytes, e.Units, e.OutputBytes, e.Err)
	s.End()
}
