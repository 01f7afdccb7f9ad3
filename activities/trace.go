package activities

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/jinjabox/jinjabox/engine"
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
	var ee *engine.Error
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

// SpanModelCall is the name of model call spans (one per attempt of a
// CompleteText activity).
const SpanModelCall = "jinjabox.model_call"

// Model call span attributes: the pipe, the request kind, the model the
// pipe names (empty: the provider's default), the attempt, the outcome
// ("ok" or the failure's application error type, "error" for a plain
// one) and the tokens the provider reports.
const (
	AttrPipe             = "jinjabox.pipe"
	AttrKind             = "jinjabox.kind"
	AttrModel            = "jinjabox.model"
	AttrAttempt          = "jinjabox.attempt"
	AttrPromptTokens     = "jinjabox.prompt_tokens"
	AttrCompletionTokens = "jinjabox.completion_tokens"
	AttrTotalTokens      = "jinjabox.total_tokens"
)

// modelSpan runs one model call attempt inside a model call span.
func (a *Activities) modelSpan(ctx context.Context, req method.CompletionRequest, f func() (*method.Usage, error)) error {
	_, s := a.tracer().Start(ctx, SpanModelCall, trace.WithAttributes(
		attribute.String(AttrPipe, req.Pipe), attribute.String(AttrKind, req.Kind), attribute.String(AttrModel, req.Model)))
	defer s.End()
	if activity.IsActivity(ctx) {
		s.SetAttributes(attribute.Int(AttrAttempt, int(activity.GetInfo(ctx).Attempt)))
	}
	u, err := f()
	if u != nil {
		s.SetAttributes(attribute.Int64(AttrPromptTokens, u.PromptTokens), attribute.Int64(AttrCompletionTokens, u.CompletionTokens),
			attribute.Int64(AttrTotalTokens, u.TotalTokens))
	}
	out := "ok"
	if err != nil {
		out = "error"
		var ae *temporal.ApplicationError
		if errors.As(err, &ae) && ae.Type() != "" {
			out = ae.Type()
		}
		s.SetStatus(codes.Error, out)
	}
	s.SetAttributes(attribute.String(AttrOutcome, out))
	return err
}
