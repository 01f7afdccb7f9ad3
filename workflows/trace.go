package workflows

import (
	"go.opentelemetry.io/otel/trace"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/workflow"

	"github.com/jinjabox/jinjabox/method"
)

// ParentedRenderRecorder is a RenderRecorder that can parent a render's
// span on the span of the workflow that rendered it
// (activities.SpanRecorder is one).
type ParentedRenderRecorder interface {
	RenderRecorder
	// RecordRenderUnder records e as a child of parent (an invalid
	// parent: a root span).
	RecordRenderUnder(parent trace.SpanContext, e method.RenderEvent)
}

// recordRender reports one in-workflow render to rec; the caller has
// checked the workflow is not replaying. A ParentedRenderRecorder gets
// the span the OpenTelemetry tracing interceptor started for this
// workflow (RunWorkflow:<type>), so the render span joins the run's
// trace; without the interceptor the parent is invalid. The span context
// is plain data: reading it changes nothing the workflow decides.
func recordRender(ctx workflow.Context, rec RenderRecorder, e method.RenderEvent) {
	p, ok := rec.(ParentedRenderRecorder)
	if !ok {
		rec.RecordRender(e)
		return
	}
	var parent trace.SpanContext
	if s, ok := temporalotel.SpanFromWorkflowContext(ctx); ok {
		parent = s.SpanContext()
	}
	p.RecordRenderUnder(parent, e)
}
