package workflows

import (
	"context"
	"errors"
	"strconv"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/categories"
	"github.com/jinjabox/jinjabox/engine/errs"
	"github.com/jinjabox/jinjabox/engine/value"
)

// Special PipeCondition outcomes.
const (
	// OutcomeContinue records no output (the pipe's output is absent).
	OutcomeContinue = "continue"
	// OutcomeFail fails the run.
	OutcomeFail = "fail"
)

// DefaultMaxDepth bounds pipe nesting (a sequence or condition calling
// pipes that call pipes), so a cyclic bundle fails instead of looping.
const DefaultMaxDepth = 32

// Runner runs a validated method. It is pure: the same method, inputs and
// provider answers give the same result, and batch items run in index
// order (concurrency is the Temporal layer's job).
type Runner struct {
	Method   *Method
	Provider Provider
	// Funcs are the PipeFunc functions (nil: DefaultFuncs).
	Funcs *FuncRegistry
	// Models resolves model references; nil passes them to the provider
	// unresolved.
	Models *ModelConfig
	// Limits are the per-render limits of every template (each render
	// gets a fresh budget, as in Pipelex).
	Limits budget.Limits
	// MaxDepth bounds pipe nesting (0: DefaultMaxDepth).
	MaxDepth int
	// LimitsFor, when set, gives each render's limits by category instead
	// of Limits (the Temporal layer bounds in-workflow renders this way).
	LimitsFor func(categories.Category) budget.Limits
	// OnRender, when set, observes every render, failed ones included
	// (the Temporal layer turns these into trace spans).
	OnRender func(RenderEvent)
}

// RenderEvent describes one render for observers.
type RenderEvent struct {
	Pipe, Field   string
	Category      categories.Category
	TemplateBytes int
	Units         int64
	OutputBytes   int
	Err           error
}

// Render records one template render, in run order.
type Render struct {
	Pipe   string                `json:"pipe"`
	Field  string                `json:"field"`
	Text   string                `json:"text"`
	Images []categories.ImageRef `json:"images,omitempty"`
}

// Result is a finished run.
type Result struct {
	// Output is the main pipe's output, nil when absent (continue).
	Output *Stuff
	// Memory is the working memory after the run.
	Memory *Memory
	// Renders are every template render, in order.
	Renders []Render
	// Requests are every provider request, in order.
	Requests []CompletionRequest
}

// RunError is a failure, naming the pipe and field (and batch item) where
// it happened. Template failures wrap the *engine.Error.
type RunError struct {
	Pipe  string
	Field string
	// Item is the batch item index, -1 when not in a batch.
	Item int
	Err  error
}

func (e *RunError) Error() string {
	s := "pipe " + strconv.Quote(e.Pipe)
	if e.Field != "" {
		s += ", " + e.Field
	}
	if e.Item >= 0 {
		s += ", item " + strconv.Itoa(e.Item)
	}
	return s + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *RunError) Unwrap() error { return e.Err }

// run is the state of one Run.
type run struct {
	r   *Runner
	ctx context.Context
	res *Result
}

// Run runs the main pipe over the inputs.
func (r *Runner) Run(ctx context.Context, inputs *Memory) (*Result, error) {
	return r.RunPipe(ctx, r.Method.MainPipe, inputs)
}

// RunPipe runs one pipe over memory.
func (r *Runner) RunPipe(ctx context.Context, code string, mem *Memory) (*Result, error) {
	st := &run{r: r, ctx: ctx, res: &Result{}}
	out, mem, err := st.pipe(code, mem, 0)
	st.res.Output, st.res.Memory = out, mem
	if err != nil {
		return st.res, err
	}
	return st.res, nil
}

func fail(pipe, field string, err error) error {
	var re *RunError
	if errors.As(err, &re) {
		return err
	}
	return &RunError{Pipe: pipe, Field: field, Item: -1, Err: err}
}

// pipe runs one pipe; it returns the output stuff (named after the pipe,
// nil when absent) and the memory after it.
func (s *run) pipe(code string, mem *Memory, depth int) (*Stuff, *Memory, error) {
	maxDepth := s.r.MaxDepth
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	if depth > maxDepth {
		return nil, mem, fail(code, "", errs.New(errs.Budget, "pipes nest deeper than "+strconv.Itoa(maxDepth)))
	}
	p, ok := s.r.Method.Pipes[code]
	if !ok || p == nil {
		return nil, mem, fail(code, "", errs.New(errs.Render, "pipe is not defined"))
	}
	if err := s.ctx.Err(); err != nil {
		return nil, mem, fail(code, "", err)
	}
	if err := checkRequiredInputs(code, p, mem); err != nil {
		return nil, mem, err
	}
	switch p.Type {
	case KindLLM:
		out, err := s.llm(code, p, mem)
		return out, mem, err
	case KindCompose:
		out, err := s.compose(code, p, mem)
		return out, mem, err
	case KindCondition:
		return s.condition(code, p, mem, depth)
	case KindBatch:
		out, err := s.batch(code, "input_list_name", p, mem, p.InputListName, p.InputItemName, p.BranchPipeCode, depth)
		return out, mem, err
	case KindSequence:
		return s.sequence(code, p, mem, depth)
	case KindJudge:
		out, err := s.judge(code, p, mem)
		return out, mem, err
	case KindImgGen:
		out, err := s.imgGen(code, p, mem)
		return out, mem, err
	case KindSearch:
		out, err := s.search(code, p, mem)
		return out, mem, err
	case KindParallel:
		return s.parallel(code, p, mem, depth)
	case KindFunc:
		out, err := s.funcPipe(code, p, mem)
		return out, mem, err
	case KindExtract:
		out, err := s.extract(code, p, mem)
		return out, mem, err
	}
	return nil, mem, fail(code, "type", errs.New(errs.Render, "unknown pipe type "+strconv.Quote(p.Type)))
}

// render renders one template field against memory.
func (s *run) render(code, field string, cat categories.Category, style categories.TemplatingStyle, src string, sigils bool, mem *Memory, extra map[string]any, reg *categories.ImageRegistry) (string, error) {
	return s.renderWith(code, field, cat, style, src, mem, extra, categories.RenderConfig{Sigils: sigils, Images: reg})
}

// renderWith renders one template field against memory plus extra
// context (inputs win over extra keys), under the runner's limits.
func (s *run) renderWith(code, field string, cat categories.Category, style categories.TemplatingStyle, src string, mem *Memory, extra map[string]any, rc categories.RenderConfig) (string, error) {
	data, err := mem.TemplateDataFor(s.r.Method.Concepts)
	if err != nil {
		return "", fail(code, field, err)
	}
	for _, k := range sortedKeys(extra) {
		if _, taken := data[k]; !taken { // inputs win over extra context
			data[k] = extra[k]
		}
	}
	rc.Limits = s.r.Limits
	if s.r.LimitsFor != nil {
		rc.Limits = s.r.LimitsFor(cat)
	}
	out, err := categories.Render(cat, style, code+"."+field, src, data, rc)
	if s.r.OnRender != nil {
		s.r.OnRender(RenderEvent{Pipe: code, Field: field, Category: cat, TemplateBytes: len(src),
			Units: out.Units, OutputBytes: len(out.Text), Err: err})
	}
	if err != nil {
		return "", fail(code, field, err)
	}
	s.res.Renders = append(s.res.Renders, Render{Pipe: code, Field: field, Text: out.Text, Images: out.Images})
	return out.Text, nil
}

func (s *run) call(code string, req CompletionRequest) (CompletionResponse, error) {
	s.res.Requests = append(s.res.Requests, req)
	resp, err := s.r.Provider.CompleteText(s.ctx, req)
	if err != nil {
		return resp, fail(code, "provider", err)
	}
	return resp, nil
}

// outputConcept is the pipe's output spec, defaulting to def.
func outputConcept(p *Pipe, def string) string {
	if p.Output != "" {
		return p.Output
	}
	return def
}

func (s *run) fields(spec string) []Field {
	c, ok := s.r.Method.Concepts[ParseConceptSpec(spec).Name]
	if !ok {
		return nil
	}
	return c.Fields
}

func textContent(t string) *value.OrderedMap {
	return &value.OrderedMap{Keys: []string{"text"}, Values: []any{t}}
}
