package method

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/method/templating"
)

// The render seam. Every template render of a run goes through the
// runner's Renderer, when it has one: the Temporal layer renders in
// workflow code under a task-wide meter and sends a render too big for a
// workflow task to an activity, which renders the job's Request with the
// same limits. Either way the render reads the same data under the same
// limits as the pure runner's, so its output is the same.

// Renderer runs a runner's renders.
type Renderer interface {
	Render(j *RenderJob) (templating.Rendered, error)
}

// RenderJob is one template render of a pipe.
type RenderJob struct {
	Pipe, Field string
	Category    templating.Category
	Style       templating.Style
	Source      string
	Sigils      bool
	Strict      bool
	// Extra is extra context (a PipeCompose's extra_context: plain data).
	Extra map[string]any
	// Images is the pipe's image registry: images the render references
	// are numbered after those of the pipe's earlier renders.
	Images *templating.ImageRegistry
	// Parsed is set by Inline when that render parsed the template (the
	// first render of a source in a runner), and Values to how many
	// values the render bound (the engine copies them in before it meters
	// any work).
	Parsed bool
	Values int

	x *invocation
}

// Limits are the job's limits: the runner's (zero fields: the engine's
// defaults), what `jinjabox exec` renders under.
func (j *RenderJob) Limits() budget.Limits { return j.x.s.r.Limits }

// Inline renders the job in this process, under the runner's limits
// with the work units lowered to units when 0 < units < the limit. The
// template is parsed once per runner under the runner's limits, whatever
// units says. A render that succeeds gives the same output whatever its
// work units: the engine is deterministic and fail-stop.
func (j *RenderJob) Inline(units int64) (templating.Rendered, error) {
	x := j.x
	tc := x.mem.renderContext(x.s.r.Library.conceptsKey(), j.Extra)
	if tc.err != nil {
		return templating.Rendered{}, tc.err
	}
	j.Values = tc.values
	rc := templating.RenderConfig{Sigils: j.Sigils, Strict: j.Strict, Limits: j.Limits(), Images: j.Images}
	if units > 0 && units < rc.Limits.Resolved().WorkUnits {
		rc.WorkUnits = units
	}
	set := x.s.r.templates()
	before := set.Parsed()
	t, err := set.Parse(j.Category, j.Style, j.Pipe+"."+j.Field, j.Source, rc)
	j.Parsed = set.Parsed() > before
	if err != nil {
		return templating.Rendered{}, err
	}
	if tc.refused != nil {
		return templating.Rendered{}, tc.refused
	}
	return templating.RenderPrepared(t, tc.ctx, rc)
}

// RenderRequest is a render job as data: the template, the memory it
// reads, the concepts its render context needs, and the images the pipe
// registered before it. An activity renders it with Render.
type RenderRequest struct {
	Name     string              `json:"name"`
	Source   string              `json:"source"`
	Category templating.Category `json:"category"`
	Style    templating.Style    `json:"style"`
	Sigils   bool                `json:"sigils,omitempty"`
	Strict   bool                `json:"strict,omitempty"`
	Memory   *Memory             `json:"memory"`
	// Concepts are the library concepts of the memory's stuffs and those
	// they refine or name in fields (the render context's classes and
	// image fields come from them).
	Concepts Concepts `json:"concepts,omitempty"`
	// Extra is the extra context as a JSON object (key order kept).
	Extra  json.RawMessage       `json:"extra,omitempty"`
	Images []templating.ImageRef `json:"images,omitempty"`
	Limits budget.Limits         `json:"limits"`
}

// Request is the job as data, for a render elsewhere.
func (j *RenderJob) Request() (*RenderRequest, error) {
	x := j.x
	q := &RenderRequest{Name: j.Pipe + "." + j.Field, Source: j.Source, Category: j.Category, Style: j.Style,
		Sigils: j.Sigils, Strict: j.Strict, Memory: x.mem, Images: j.Images.Images(), Limits: j.Limits()}
	q.Concepts = x.s.r.Library.Subset(nil, x.mem.StuffConcepts()).Concepts()
	if len(j.Extra) > 0 {
		om := &value.OrderedMap{}
		for _, k := range sortedKeys(j.Extra) {
			om.Keys = append(om.Keys, k)
			om.Values = append(om.Values, j.Extra[k])
		}
		b, err := json.Marshal(om)
		if err != nil {
			return nil, err
		}
		q.Extra = b
	}
	return q, nil
}

// Render renders the request as the job would render inline: the same
// render context (artefacts, image fields, extra context), limits and
// image numbering. envs caches environments (nil: a fresh one); ctx
// cancels the render (nil: never).
func (q *RenderRequest) Render(ctx context.Context, envs *templating.Environments) (templating.Rendered, error) {
	if q.Memory == nil {
		return templating.Rendered{}, errors.New("render request without memory")
	}
	if tc := q.Memory.templateContext(&q.Concepts); tc.err != nil {
		return templating.Rendered{}, tc.err
	}
	var extra map[string]any
	if len(q.Extra) > 0 {
		var err error
		if extra, err = value.DecodeJSONObject(q.Extra); err != nil {
			return templating.Rendered{}, err
		}
	}
	tc := q.Memory.renderContext(&q.Concepts, extra)
	reg := templating.NewImageRegistry()
	for _, img := range q.Images {
		reg.Register(img)
	}
	if envs == nil {
		envs = &templating.Environments{}
	}
	rc := templating.RenderConfig{Sigils: q.Sigils, Strict: q.Strict, Limits: q.Limits, Images: reg, Context: ctx}
	t, err := envs.Parse(q.Category, q.Style, q.Name, q.Source, rc)
	if err != nil {
		return templating.Rendered{}, err
	}
	if tc.refused != nil {
		return templating.Rendered{}, tc.refused
	}
	return templating.RenderPrepared(t, tc.ctx, rc)
}
