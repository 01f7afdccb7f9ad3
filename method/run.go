package method

import (
	"context"
	"errors"
	"strconv"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/method/templating"
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

// Runner runs a validated library. It is pure: the same library, inputs
// and provider answers give the same result, and children run in index
// order unless Children runs them otherwise.
type Runner struct {
	Library  *Library
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
	// Renderer, when set, runs every render (the Temporal layer meters
	// the renders of a workflow task and sends those that do not fit to
	// an activity); nil renders inline under Limits.
	Renderer Renderer
	// OnRender, when set, observes every render, failed ones included
	// (the Temporal layer turns these into trace spans).
	OnRender func(RenderEvent)
	// Children runs the children of controller pipes; nil runs them
	// inline, one after the other, in this runner.
	Children Children
	// Dry makes the run a dry run (Library.DryRunPipe): a PipeCondition
	// runs every outcome pipe instead of evaluating its expression.
	Dry bool

	// set holds the category environments and every template parsed
	// so far: each template is parsed once per runner. A Runner runs one
	// run at a time.
	set *templating.Set
}

// templates is the runner's template set, made on first use.
func (r *Runner) templates() *templating.Set {
	if r.set == nil {
		r.set = templating.NewSet()
	}
	return r.set
}

// RenderEvent describes one render for observers.
type RenderEvent struct {
	Pipe, Field   string
	Category      templating.Category
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
	Images []templating.ImageRef `json:"images,omitempty"`
}

// Result is a finished run.
type Result struct {
	// Output is the pipe's output, nil when absent (continue).
	Output *Stuff
	// Added are the stuffs the pipe adds to its caller's memory (a
	// parallel's add_each_output).
	Added []Stuff
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

// Fail wraps err as the failure of a pipe's field, unless it already
// names a pipe.
func Fail(pipe, field string, err error) error {
	var re *RunError
	if errors.As(err, &re) {
		return err
	}
	return &RunError{Pipe: pipe, Field: field, Item: -1, Err: err}
}

// run is the state of one Run: what it recorded.
type run struct {
	r   *Runner
	ctx context.Context
	res *Result
}

// Run runs the library's main pipe (Library.Main) over the inputs.
func (r *Runner) Run(ctx context.Context, inputs *Memory) (*Result, error) {
	if r.Library.Main == "" {
		return &Result{}, Fail("", "main_pipe", engine.NewError(engine.KindRender, "no pipe to run: the method has no main_pipe and none was named"))
	}
	return r.RunPipe(ctx, r.Library.Main, inputs)
}

// RunPipe runs one pipe, named as a caller would name it (see
// Library.EntryPipe), over inputs. Input concepts are resolved in the
// pipe's domain.
func (r *Runner) RunPipe(ctx context.Context, pipe string, inputs *Memory) (*Result, error) {
	e, err := r.Library.EntryPipe(pipe)
	if err != nil {
		return &Result{}, Fail(pipe, "", engine.NewError(engine.KindRender, err.Error()))
	}
	return r.Invoke(ctx, e.Ref, r.Library.ResolveInputs(e, inputs), 0, "")
}

// Invoke runs the pipe whose library reference is ref over mem at a
// nesting depth, its output spec overridden by output when set: the
// entry point of the Temporal layer, whose pipe workflows each invoke
// one pipe.
func (r *Runner) Invoke(ctx context.Context, ref string, mem *Memory, depth int, output string) (*Result, error) {
	s := &run{r: r, ctx: ctx, res: &Result{}}
	out, added, err := s.pipeAs(ref, mem, depth, output)
	s.res.Output, s.res.Added = out, added
	return s.res, err
}

// pipeAs runs one pipe by library reference, its output spec overridden
// when output is set: its output (nil when absent) and the stuffs it adds
// to its caller's memory.
func (s *run) pipeAs(ref string, mem *Memory, depth int, output string) (*Stuff, []Stuff, error) {
	maxDepth := s.r.MaxDepth
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	if depth > maxDepth {
		return nil, nil, Fail(ref, "", engine.NewError(engine.KindBudget, "pipes nest deeper than "+strconv.Itoa(maxDepth)))
	}
	e, ok := s.r.Library.Pipe(ref)
	if !ok {
		if addr, _, isAddr := splitAddress(ref); isAddr && s.r.Library.method(addr) == nil {
			// a pipe of a method this library does not have installed
			return nil, nil, Fail(ref, "", &UnavailableError{What: "method", Name: addr})
		}
		return nil, nil, Fail(ref, "", engine.NewError(engine.KindRender, "pipe is not defined"))
	}
	if err := s.ctx.Err(); err != nil {
		return nil, nil, Fail(ref, "", err)
	}
	k, ok := KindOf(e.Pipe.Type)
	if !ok {
		return nil, nil, Fail(ref, "type", engine.NewError(engine.KindRender, "a "+kindName(e.Pipe)+" has no body to run"))
	}
	p := e.Pipe
	if output != "" {
		q := *p
		q.Output = output
		p = &q
	}
	x := &invocation{s: s, e: e, p: p, mem: mem, depth: depth}
	if err := x.checkRequiredInputs(); err != nil {
		return nil, nil, err
	}
	return k.run(x)
}

// kindName is a pipe's type for messages (PipeSignature when typeless).
func kindName(p *Pipe) string {
	if p.Type == "" {
		return KindSignature
	}
	return p.Type
}

// invocation is one pipe being run: the run, the pipe's library entry,
// its memory and its nesting depth.
type invocation struct {
	s     *run
	e     *PipeEntry
	p     *Pipe
	mem   *Memory
	depth int
}

// code names the pipe in errors and renders: its library reference.
func (x *invocation) code() string { return x.e.Ref }

func (x *invocation) fail(field string, err error) error { return Fail(x.code(), field, err) }

func (x *invocation) concepts() Concepts { return x.s.r.Library.Concepts() }

// style is the templating style of one of the pipe's templates.
func (x *invocation) style(override *templating.Style) templating.Style {
	return x.e.Bundle.style(x.p, override)
}

// resolve turns a pipe reference in this pipe's body into a library
// reference.
func (x *invocation) resolve(ref string) string { return x.s.r.Library.Resolve(x.e, ref) }

// stuff is an output stuff named after the pipe.
func (x *invocation) stuff(concept string, content any) *Stuff {
	return &Stuff{Name: x.e.Code, Concept: concept, Content: content}
}

// renamed is out renamed after this pipe (a controller's output is its
// last child's); the stuff code stays.
func (x *invocation) renamed(out *Stuff) *Stuff {
	if out == nil {
		return nil
	}
	r := *out
	r.Name = x.e.Code
	return &r
}

// call sends one provider request.
func (x *invocation) call(req CompletionRequest) (CompletionResponse, error) {
	s := x.s
	s.res.Requests = append(s.res.Requests, req)
	resp, err := s.r.Provider.CompleteText(s.ctx, req)
	if err != nil {
		return resp, x.fail("provider", err)
	}
	return resp, nil
}

// children runs n children of this pipe through the runner's seam, each
// on the part of its memory its pipe reads.
func (x *invocation) children(n int, child func(i int) Child, window int) ([]ChildResult, error) {
	reads := map[string]Reads{}
	mk := func(i int) Child {
		c := child(i)
		c.Depth = x.depth + 1
		r, ok := reads[c.Pipe]
		if !ok {
			r = x.s.r.Library.Reads(c.Pipe)
			reads[c.Pipe] = r
		}
		c.Memory = c.Memory.Only(r)
		return c
	}
	if x.s.r.Children != nil {
		return x.s.r.Children.Run(n, mk, window)
	}
	return x.s.inline(n, mk)
}

// batchChildren runs a batch's items through the runner's seam.
func (x *invocation) batchChildren(b *Batch) ([]ChildResult, error) {
	b.Depth = x.depth + 1
	if x.s.r.Children != nil {
		return x.s.r.Children.Batch(b)
	}
	return x.s.inline(len(b.Items), b.Child)
}
