// Package activities holds jinjabox's Temporal activities: template
// rendering on the activity path (the engine's full default budget, for
// templates too heavy for workflow code: a PipeCondition's expression
// included, which is a render like any other), method validation and
// model calls behind a Provider.
package activities

import (
	"context"
	"encoding/json"
	"strconv"

	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
	"go.temporal.io/sdk/temporal"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/failure"
	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/method/templating"
)

// Activity type names: the method names of Activities, which Register
// registers. Workflows start activities by these names.
const (
	NameRenderTemplate = "RenderTemplate"
	NameValidateMethod = "ValidateMethod"
	NameCompleteText   = "CompleteText"
)

// Activities holds the model provider and the tracer. Register it with
// Register; a nil Provider is the local deterministic one.
type Activities struct {
	Provider method.Provider
	// Tracer records render spans (nil: none).
	Tracer trace.Tracer

	// envs are the category environments renders use, built once.
	envs templating.Environments
}

// ActivityRegistry is the part of a worker that registers activities.
type ActivityRegistry interface {
	RegisterActivity(a any)
}

// Register registers every exported method of a as an activity under its
// method name (the Name* constants). It is a function, not
// a method, so that it is not registered as an activity itself.
func Register(r ActivityRegistry, a *Activities) { r.RegisterActivity(a) }

func (a *Activities) tracer() trace.Tracer {
	if a.Tracer == nil {
		return noop.NewTracerProvider().Tracer("")
	}
	return a.Tracer
}

func (a *Activities) provider() method.Provider {
	if a.Provider == nil {
		return method.LocalProvider{}
	}
	return a.Provider
}

// RenderInput is RenderTemplate's input.
type RenderInput struct {
	// Name names the template in errors.
	Name     string              `json:"name"`
	Source   string              `json:"source"`
	Category templating.Category `json:"category"`
	// Style is the templating style (zero: the default).
	Style templating.Style `json:"style"`
	// Data is the template data as a JSON object (key order kept).
	Data   json.RawMessage `json:"data,omitempty"`
	Sigils bool            `json:"sigils,omitempty"`
	Strict bool            `json:"strict,omitempty"`
	// Limits bound the render (zero fields: the engine's defaults).
	Limits budget.Limits `json:"limits"`
	// Request, when set, is a pipe's render sent by a workflow whose task
	// budget it does not fit (workflows/render.go): rendered as the
	// runner renders it (the memory as template artefacts, the pipe's
	// images, its limits), and the fields above are ignored.
	Request *method.RenderRequest `json:"request,omitempty"`
}

// RenderOutput is a successful render.
type RenderOutput struct {
	Text   string                `json:"text"`
	Units  int64                 `json:"units"`
	Images []templating.ImageRef `json:"images,omitempty"`
}

// RenderTemplate renders one template, heartbeating while it runs.
// Template failures are non-retryable application errors typed by kind
// (TemplateSyntaxError, ...) with failure.Details.
func (a *Activities) RenderTemplate(ctx context.Context, in RenderInput) (RenderOutput, error) {
	return heartbeating(ctx, func() (RenderOutput, error) { return a.renderTemplate(ctx, in) })
}

func (a *Activities) renderTemplate(ctx context.Context, in RenderInput) (RenderOutput, error) {
	if q := in.Request; q != nil {
		return a.spanRender(ctx, q.Category, len(q.Source), func() (templating.Rendered, error) {
			return q.Render(ctx, &a.envs)
		})
	}
	data := map[string]any{}
	if len(in.Data) > 0 {
		var err error
		if data, err = value.DecodeJSONObject(in.Data); err != nil {
			return RenderOutput{}, failure.From(engine.WrapError(engine.KindRender, err))
		}
	}
	cat := in.Category
	if cat == "" {
		cat = templating.Basic
	}
	name := in.Name
	if name == "" {
		name = "template"
	}
	return a.spanRender(ctx, cat, len(in.Source), func() (templating.Rendered, error) {
		return a.envs.Render(cat, in.Style, name, in.Source, data,
			templating.RenderConfig{Sigils: in.Sigils, Strict: in.Strict, Limits: in.Limits, Context: ctx})
	})
}

// spanRender runs one render in a span and maps its outcome to the
// activity's: a template failure is final (failure.From), while a render
// stopped because the activity was cancelled or timed out returns the
// context's error, which Temporal may retry.
func (a *Activities) spanRender(ctx context.Context, cat templating.Category, size int, render func() (templating.Rendered, error)) (RenderOutput, error) {
	var out templating.Rendered
	err := a.span(ctx, cat, size, func() (int64, int, error) {
		var err error
		out, err = render()
		return out.Units, len(out.Text), err
	})
	if err != nil {
		if ctx.Err() != nil {
			return RenderOutput{}, ctx.Err()
		}
		return RenderOutput{}, failure.From(err)
	}
	return RenderOutput{Text: out.Text, Units: out.Units, Images: out.Images}, nil
}

// ValidateMethod validates a library (or one bundle) as JSON. An invalid
// one is a non-retryable InvalidMethod error whose details list every
// problem.
func (a *Activities) ValidateMethod(ctx context.Context, lib json.RawMessage) error {
	_, err := heartbeating(ctx, func() (struct{}, error) {
		_, err := method.ValidateJSON(lib, method.ValidateOptions{})
		return struct{}{}, err
	})
	if err == nil {
		return nil
	}
	var problems []string
	for _, p := range method.Problems(err) {
		problems = append(problems, p.Error())
	}
	if problems == nil {
		problems = []string{err.Error()}
	}
	return temporal.NewNonRetryableApplicationError("invalid method: "+strconv.Itoa(len(problems))+" problem(s): "+problems[0],
		failure.ErrTypeInvalidMethod, nil, problems)
}

// ModelCall is CompleteText's input: the request, and the attempts the
// workflow gives the call's failures other than rate limits. The request
// is embedded, so a ModelCall encodes as the request with one field
// more, and a request encoded alone (a history from before the field) is
// a ModelCall with no budget of its own.
type ModelCall struct {
	method.CompletionRequest
	// Attempts bounds the attempts of failures other than rate limits;
	// rate limits have RateLimitAttempts besides (rateLimitBudget). 0: no
	// bound of the activity's, only the retry policy's.
	Attempts int32 `json:"attempts,omitempty"`
}

// CompleteText runs one model call through the provider, heartbeating
// while it waits, with the call's idempotency key in the context
// (ActivityIdempotencyKey: the same on every attempt; OpenAIProvider
// sends it as the Idempotency-Key header), in a model call span that
// records the tokens it cost. Provider errors pass through, typed for
// Temporal: plain errors are retried, a non-retryable application error
// (ProviderError, ProviderTruncated, ProviderRefused) is not, and a
// ProviderRateLimited is retried after the delay it names on an attempt
// budget of its own (rateLimitBudget).
func (a *Activities) CompleteText(ctx context.Context, call ModelCall) (method.CompletionResponse, error) {
	if key := ActivityIdempotencyKey(ctx); key != "" {
		ctx = WithIdempotencyKey(ctx, key)
	}
	req := call.CompletionRequest
	prior := priorProgress(ctx)
	var resp method.CompletionResponse
	err := a.modelSpan(ctx, req, func() (*method.Usage, error) {
		var err error
		resp, err = heartbeatingWith(ctx, prior, func() (method.CompletionResponse, error) {
			return a.provider().CompleteText(ctx, req)
		})
		if err != nil {
			err = rateLimitBudget(ctx, call.Attempts, prior, err)
		}
		return resp.Usage, err
	})
	return resp, err
}
