package engine

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/builtins"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/ordered"
	"github.com/jinjabox/jinjabox/engine/syntax"
	"github.com/jinjabox/jinjabox/engine/value"
)

// DefaultSeed seeds random and lipsum when Options.Seed is zero.
const DefaultSeed uint64 = 0x6a696e6a61626f78 // "jinjabox"

// Environment holds the configuration, registries and trusted template set.
// It is immutable once built (NewEnvironment) and safe for concurrent use.
// The zero Environment is usable: it is NewEnvironment(Options{}), Jinja2's
// defaults under the default budget.
type Environment struct {
	opts    Options
	synOpts syntax.Options
	filters map[string]builtins.FilterFunc
	// unwrapped holds the default filters the host did not replace
	// (builtins.Unwrapped), the implementation check binds to a filter
	// expression of that name
	unwrapped map[string]builtins.UnwrappedFilter
	tests     map[string]builtins.TestFunc
	globals   map[string]value.Value
	// engineOnly is set when the environment has no host filter, test or
	// global callable (or object): only the engine's own code sees a
	// render's values, so what a render copies in may be stored in the
	// renderer's arena and handed out again to the next (value.Arena)
	engineOnly bool
	// defaultMeter is the meter of a render whose options set no limit,
	// made once (setMeter): the environment's limits, resolved, nothing
	// spent
	defaultMeter budget.Meter
	// trusted templates, parsed on first use
	trusted map[string]*trustedTemplate
	// fsTemplates holds the templates read from opts.FS, by name
	// (*trustedTemplate), each read and parsed once
	fsTemplates sync.Map
}

type trustedTemplate struct {
	once sync.Once
	src  string
	t    *Template
	err  error
}

// Template is a parsed template, immutable and safe for concurrent renders.
type Template struct {
	env  *Environment
	name string
	tree *syntax.Template
	info *checkInfo
	// outHint is the length of the last render's output, which sizes the
	// next render's buffer (capacity only: the output never depends on it).
	outHint atomic.Int64
}

// NewEnvironment builds an environment. Registries are copied, so later
// changes to the maps in o have no effect.
func NewEnvironment(o Options) (*Environment, error) {
	e, err := newEnvironment(o)
	return e, public(err)
}

func newEnvironment(o Options) (*Environment, error) {
	e := &Environment{opts: o}
	e.synOpts = syntax.Options{
		Delimiters:          o.Delimiters,
		TrimBlocks:          o.TrimBlocks,
		LstripBlocks:        o.LstripBlocks,
		KeepTrailingNewline: o.KeepTrailingNewline,
		// raised after the static pass (check), as Jinja2 raises them
		// after its code generator's own checks
		DeferPythonErrors: true,
	}
	if e.synOpts.Delimiters == (syntax.Delimiters{}) {
		e.synOpts.Delimiters = syntax.DefaultDelimiters
	}
	// Nunjitsu's delimiters are Nunjucks's dialect: its r/pattern/flags
	// literals lex there, and nowhere else (in Jinja, r/x/ divides)
	e.synOpts.RegexLiterals = e.synOpts.Delimiters == syntax.NunjitsuDelimiters
	if e.opts.Seed == 0 {
		e.opts.Seed = DefaultSeed
	}
	e.filters = make(map[string]builtins.FilterFunc, len(builtins.Filters)+len(o.Filters))
	//workflowcheck:ignore a copy into a map is the same map in any order
	maps.Copy(e.filters, builtins.Filters)
	if o.Regex {
		for _, k := range ordered.Keys(builtins.RegexFilters) {
			e.filters[k] = builtins.RegexFilters[k]
		}
	}
	for _, k := range ordered.Keys(o.Filters) {
		f := o.Filters[k]
		if f == nil {
			return nil, errs.New(errs.Render, "filter "+errs.Quote(k)+" is nil")
		}
		e.filters[k] = hostFilter(f)
	}
	e.unwrapped = maps.Clone(builtins.Unwrapped)
	for _, k := range ordered.Keys(o.Filters) {
		delete(e.unwrapped, k) // the host's filter of that name is called
	}
	e.tests = make(map[string]builtins.TestFunc, len(builtins.Tests)+len(o.Tests))
	//workflowcheck:ignore a copy into a map is the same map in any order
	maps.Copy(e.tests, builtins.Tests)
	for _, k := range ordered.Keys(o.Tests) {
		t := o.Tests[k]
		if t == nil {
			return nil, errs.New(errs.Render, "test "+errs.Quote(k)+" is nil")
		}
		e.tests[k] = hostTest(t)
	}
	e.globals = make(map[string]value.Value, len(builtins.GlobalFuncs)+len(o.Globals))
	for _, k := range ordered.Keys(builtins.GlobalFuncs) {
		e.globals[k] = value.FromCallable(builtins.GlobalFuncs[k])
	}
	// in key order: the first global that fails to copy is the same
	// every time
	var c value.Copier
	for _, k := range ordered.Keys(o.Globals) {
		v, err := c.Copy(o.Globals[k])
		if err != nil {
			return nil, err
		}
		// every render shares the globals, as renders from one context
		// share its data: no render may fill a cache on them
		value.Seal(v)
		e.globals[k] = v
	}
	// no host code can see a render's values: its copy-in may use the
	// renderer's arena again (bindData, putRenderer)
	e.engineOnly = len(o.Filters) == 0 && len(o.Tests) == 0 && !c.SawObject()
	e.defaultMeter = budget.MeterFor(e.limitsFor(RenderOptions{}).Resolved())
	e.trusted = make(map[string]*trustedTemplate, len(o.Templates))
	for _, k := range ordered.Keys(o.Templates) {
		e.trusted[k] = &trustedTemplate{src: o.Templates[k]}
	}
	e.opts.Templates = nil
	return e, nil
}

// HasFilter reports whether a template of e can call the filter name: a
// built-in one or one the application registered (Options.Filters).
func (e *Environment) HasFilter(name string) bool {
	_, ok := e.ready().filters[name]
	return ok
}

// HasTest reports whether a template of e can use the test name.
func (e *Environment) HasTest(name string) bool {
	_, ok := e.ready().tests[name]
	return ok
}

// hostFilter adapts an application's filter to the evaluator's calling
// convention, where a failure unwinds the render (toInternal keeps an
// *Error's kind and makes any other error a render error that wraps it).
func hostFilter(f Filter) builtins.FilterFunc {
	return func(c value.Ctx, v value.Value, args *value.Args) value.Value {
		r, err := f(c, v, args)
		if err != nil {
			panic(toInternal(err))
		}
		return r
	}
}

// hostTest is hostFilter for a test.
func hostTest(t Test) builtins.TestFunc {
	return func(c value.Ctx, v value.Value, args *value.Args) bool {
		r, err := t(c, v, args)
		if err != nil {
			panic(toInternal(err))
		}
		return r
	}
}

// zeroEnv is what the zero Environment stands for (ready).
var zeroEnv = sync.OnceValue(func() *Environment {
	e, err := NewEnvironment(Options{})
	if err != nil {
		panic(err) // the defaults always build
	}
	return e
})

// ready returns e, or the default environment when e is the zero
// Environment (never built: it has no filters).
func (e *Environment) ready() *Environment {
	if e == nil || e.filters == nil {
		return zeroEnv()
	}
	return e
}

// Parse parses source under the environment's default limits.
func (e *Environment) Parse(name, source string) (*Template, error) {
	e = e.ready()
	m := budget.NewMeter(e.opts.Limits)
	t, err := e.parse(name, source, m)
	return t, public(err)
}

func (e *Environment) parse(name, source string, m *budget.Meter) (*Template, error) {
	m.Phase = budget.PhaseParse
	tree, err := syntax.Parse(name, source, e.synOpts, m)
	if err != nil {
		return nil, err
	}
	t := &Template{env: e, name: name, tree: tree}
	info, err := e.check(tree, m)
	if err != nil {
		return nil, err
	}
	if tree.PythonErr != nil {
		return nil, tree.PythonErr
	}
	t.info = info
	return t, nil
}

// trustedTemplate returns the parsed trusted template, or nil when the set
// does not hold the name.
func (e *Environment) loadTrusted(name string) (*Template, error, bool) {
	tt, ok := e.trusted[name]
	if !ok {
		if tt, ok = e.fromFS(name); !ok {
			return nil, nil, false
		}
	}
	tt.once.Do(func() {
		if tt.err != nil {
			return
		}
		tt.t, tt.err = e.parse(name, tt.src, budget.NewMeter(budget.Limits{}))
	})
	return tt.t, tt.err, true
}

// fromFS returns the entry of name in the file-system template set, read
// on the first call for that name; false when there is no such file. A
// file the set holds but cannot read, or one over the source limit, is an
// entry whose error every use of it reports.
func (e *Environment) fromFS(name string) (*trustedTemplate, bool) {
	if e.opts.FS == nil || !fs.ValidPath(name) {
		return nil, false
	}
	if tt, ok := e.fsTemplates.Load(name); ok {
		return tt.(*trustedTemplate), true
	}
	f, err := e.opts.FS.Open(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false
		}
		return e.keepFS(name, &trustedTemplate{err: errs.Wrap(errs.Render, err)}), true
	}
	defer f.Close()
	limit := e.limitsFor(RenderOptions{}).Resolved().SourceBytes
	size := int64(-1)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	var src []byte
	if size <= limit {
		src, err = io.ReadAll(io.LimitReader(f, limit+1))
		if err != nil {
			return e.keepFS(name, &trustedTemplate{err: errs.Wrap(errs.Render, err)}), true
		}
		size = int64(len(src))
	}
	if size > limit {
		be := &budget.Error{Limit: budget.LimitSourceBytes, Phase: budget.PhaseParse, Op: "reading template " + errs.Quote(name),
			Configured: limit, Observed: size, Need: size}
		return e.keepFS(name, &trustedTemplate{err: errs.FromBudget(be)}), true
	}
	return e.keepFS(name, &trustedTemplate{src: string(src)}), true
}

// keepFS stores the first entry read for name (two renders may read the
// same file at once; both then use the one stored).
func (e *Environment) keepFS(name string, tt *trustedTemplate) *trustedTemplate {
	got, _ := e.fsTemplates.LoadOrStore(name, tt)
	return got.(*trustedTemplate)
}

// Template returns the trusted template name (Options.Templates, then
// Options.FS), parsed once for the environment's life: the way to render
// a template of the set by name (Execute, RenderResult). A name the set
// does not hold is a render error whose PyError is TemplateNotFound.
func (e *Environment) Template(name string) (*Template, error) {
	e = e.ready()
	t, err, ok := e.loadTrusted(name)
	if !ok {
		ne := errs.New(errs.Render, "template not found: "+errs.Quote(name))
		ne.PyError = "TemplateNotFound"
		return nil, public(ne)
	}
	return t, public(err)
}

// setMeter sets *m to the meter of a render under ro's limits: the
// environment's own, copied, when ro sets none (the common render, which
// then resolves nothing). In place, not returned: a returned Meter was
// copied twice, a tenth of a one-line condition's fixed cost.
func (e *Environment) setMeter(m *budget.Meter, ro *RenderOptions) {
	if ro.Limits.IsZero() {
		*m = e.defaultMeter
		return
	}
	*m = budget.MeterFor(e.limitsFor(*ro).Resolved())
}

// limitsFor is a render's limits: each a render option sets replaces the
// environment's when the environment leaves it at its default or the
// option is smaller; an environment's limit is a ceiling no render raises.
func (e *Environment) limitsFor(ro RenderOptions) budget.Limits {
	return e.opts.Limits.Lower(ro.Limits)
}

// RenderString parses and renders source in one go, parse and render both
// charged to one meter under ro's limits: Result.Units counts both. data
// is render data (Template.Execute).
func (e *Environment) RenderString(name, source string, data any, ro RenderOptions) (Result, error) {
	res, err := e.renderString(name, source, data, ro)
	return res, public(err)
}

func (e *Environment) renderString(name, source string, data any, ro RenderOptions) (Result, error) {
	e = e.ready()
	m := budget.NewMeter(e.limitsFor(ro))
	if ctx := ro.Context; ctx != nil {
		if err := ctx.Err(); err != nil {
			return Result{}, cancelledError(err)
		}
		m.Cancelled = func() error {
			if err := ctx.Err(); err != nil {
				return cancelledError(err)
			}
			return nil
		}
	}
	t, err := e.parse(name, source, m)
	if err != nil {
		return Result{}, err
	}
	res, err := t.render(data, m, &ro, nil)
	if err == nil {
		res.Units = m.Used() // the parse's units and the render's
	}
	return res, err
}

// Render renders the template with data (render data: Execute) under
// the environment's limits.
func (t *Template) Render(data any) (string, error) {
	r, err := t.render(data, nil, &noOptions, nil)
	return r.Output, public(err)
}

// noOptions is Render's options, none: read, never written, by every
// render that takes it (a zero value made and passed at each call was
// some twenty instructions of a one-line condition's render).
var noOptions RenderOptions

// RenderResult renders data (render data: Execute) with per-render
// options and reports the units spent.
func (t *Template) RenderResult(data any, ro RenderOptions) (Result, error) {
	res, err := t.render(data, nil, &ro, nil)
	return res, public(err)
}

// Execute renders data with per-render options and writes the output to
// w once the render has succeeded (a refused render writes nothing); the
// Result's Output is empty, its Units are the render's. An error from w
// is returned as it is.
//
// data is a map[string]any, a *Prepared (Environment.Prepare), a
// *value.OrderedMap or nil; godata.Map turns a struct, a pointer to one
// or a typed map into a map[string]any. It is copied into the template's
// value model once, at the start (never bound live), under the copy-in
// ceilings of value.MaxGraphEntries entries, value.MaxGraphBytes bytes of
// strings and value.MaxDepth levels; a value that is not data (a func, a
// channel) is refused with an error naming its Go type and its path.
func (t *Template) Execute(w io.Writer, data any, ro RenderOptions) (Result, error) {
	res, err := t.render(data, nil, &ro, w)
	return res, public(err)
}

// Name returns the template's name.
func (t *Template) Name() string { return t.name }

// Source returns the template's source.
func (t *Template) Source() string { return t.tree.Source }

// newRenderer returns a renderer of its own (not pooled) for t.
func (t *Template) newRenderer(m *budget.Meter, ctx context.Context) *renderer {
	r := &renderer{}
	t.initRenderer(r, m, ctx)
	return r
}

// initRenderer sets up a reset renderer for a render of t on meter m.
func (t *Template) initRenderer(r *renderer, m *budget.Meter, ctx context.Context) {
	m.Phase = budget.PhaseRender
	r.env = t.env
	r.meter = m
	r.autoescape = t.env.opts.Autoescape
	r.maxDepth = recursionSteps(m.Limits.NestingDepth)
	r.rng = t.env.opts.Seed
	r.pos = -1
	r.fast = m
	if ctx != nil {
		r.ctx, r.nextPoll, r.fast = ctx, m.Used(), &r.spare
	}
}

// render renders t from data (bindAny: a *Prepared, or data copied in at
// the start of the render). m is the meter when the render shares one (with
// a parse: RenderString); nil gives the render its own, under ro's limits.
// With w, the output is written to w once the render succeeded, from the
// renderer's pooled buffer, and Result.Output is empty.
func (t *Template) render(data any, m *budget.Meter, ro *RenderOptions, w io.Writer) (Result, error) {
	r := t.getRenderer(m, ro)
	// put back at each return, not deferred: run recovers every panic
	// of the render, and a host writer's panic below only drops r, which
	// the pool then never sees again
	start := r.meter.Used()
	// The output is sized once, for the static text or the last render's
	// output, whichever is larger, instead of growing from nothing.
	size := int(min(max(t.info.staticBytes, t.outHint.Load())+16, r.meter.Limits.OutputBytes))
	if w == nil && ownsOutput(t.info.staticBytes, size) {
		r.root.own(min(size, outChunk)) // the string returned is written in place
	} else {
		r.root.cur = slices.Grow(r.root.cur[:0], min(size, outChunk))
	}
	err := r.run(func() {
		r.poll()
		r.bindAny(data, t.info.reads)
		r.renderTemplate(t, r.newRoot())
		r.joined() // the output's join, as Jinja2's concat at the end
	})
	if err != nil {
		putRenderer(r)
		return Result{}, err
	}
	res := Result{Units: r.meter.Used() - start}
	n := int64(r.root.Len())
	if w != nil {
		err = r.root.writeTo(w)
	} else {
		res.Output = r.root.String()
	}
	putRenderer(r)
	if n != t.outHint.Load() {
		t.outHint.Store(n)
	}
	return res, err
}

// minOwnedOutput is the smallest expected output that a render writes
// in place of the string it returns (outBuf.own): below it the second
// copy costs less than the room a guess leaves in a small string.
const minOwnedOutput = 4 << 10

// ownsOutput reports whether a render expecting size bytes of output, of
// a template with staticBytes of literal text, writes it in place of the
// string it returns (outBuf.own): when it is large and at least half of
// it is the template's text. Writes to the owned builder go through the
// slow write path, a few dozen instructions each: an output made of
// thousands of small writes (table's 5,000 cells) paid 11% more
// instructions for it (9.52 M against 8.57 M a render), where the copy
// it saved is about 0.1%; an output that is mostly large static pieces
// (bigtext) is a third cheaper.
func ownsOutput(staticBytes int64, size int) bool {
	return size >= minOwnedOutput && 2*staticBytes >= int64(size)
}

// RenderValue evaluates a template that is a lone {{ expr }} and returns
// the typed value; any other template renders to a string value. ro's
// limits, context and host state apply as to RenderResult. The value
// goes back to Go with its Export or Decode method.
func (t *Template) RenderValue(data any, ro RenderOptions) (Value, error) {
	v, err := t.renderValue(data, ro)
	return v, public(err)
}

func (t *Template) renderValue(data any, ro RenderOptions) (Value, error) {
	body := t.tree.Body
	out, ok := (*syntax.Output)(nil), len(body) == 1
	if ok {
		out, ok = body[0].(*syntax.Output)
	}
	if !ok {
		res, err := t.render(data, nil, &ro, nil)
		if err != nil {
			return Value{}, err
		}
		return value.FromString(res.Output), nil
	}
	var m budget.Meter
	t.env.setMeter(&m, &ro)
	// not pooled: the value may be a macro bound to its renderer
	r := t.newRenderer(&m, ro.Context)
	r.hostState = ro.Host
	var v value.Value
	err := r.run(func() {
		r.poll()
		r.bindAny(data, t.info.reads)
		r.fr = &frame{tmpl: t, root: r.newRoot()}
		r.cur = t
		v = r.eval(out.X, r.fr.root)
		if v.IsUndefined() && r.Strict() {
			vops.ThrowUndefined(v)
		}
	})
	return v, err
}

// bindData copies a render's data in, the names in reads (nil: all), and
// binds it.
func (r *renderer) bindData(data map[string]any, reads *value.TopNames) {
	// the renderer's own dict: nothing outside the render refers to the
	// top-level data (a name lookup reads it), so its storage serves the
	// next render; so does its arena, which holds the containers below
	// it, when no host code can see them (putRenderer)
	var arena *value.Arena
	if r.env.engineOnly {
		arena = &r.arena
	}
	c, err := copyData(&r.copier, r.rootData, data, reads, arena)
	if err != nil {
		r.arenaSeen = true // what was copied before the refusal is not inspected: drop it
		errs.Raise(err)
	}
	r.arenaSeen = r.arenaSeen || c.sawObject
	r.rootData = c.d
	r.bindDict(c.d, len(data))
}

// bindDict binds the render's top-level data d, of names names: charged
// an element a name of the data, whether it was copied in by this render
// (of them, the names the template can read) or prepared (all of them),
// the same units either way.
func (r *renderer) bindDict(d *value.DictData, names int) {
	r.Charge(int64(names)*budget.Elem, "binding context")
	r.data = d
}

// copyData is the one copy-in of top-level data (a render's and
// Prepare's), under the ceilings of one value.Copier (CopyMapInto; a
// render's, of the names in reads alone when not nil, CopyReadInto),
// into dst's storage (nil: a new dict), the containers below it in
// arena's (nil: the heap's). It returns what the copy counted.
func copyData(c *value.Copier, dst *value.DictData, data map[string]any, reads *value.TopNames, arena *value.Arena) (copied, error) {
	c.Reset()
	c.UseArena(arena)
	var d *value.DictData
	var err error
	if reads != nil {
		d, err = c.CopyReadInto(dst, data, reads)
	} else {
		d, err = c.CopyMapInto(dst, data)
	}
	if err != nil {
		c.Reset()
		return copied{}, err
	}
	res := copied{d: d, entries: c.Entries(), bytes: c.Bytes(), sawObject: c.SawObject()}
	// c keeps no arena and no shape of this copy. Not deferred:
	// CopyMapInto returns its refusals, and a panic through it is a bug
	// whose render fails, and the next copy resets c first.
	c.Reset()
	return res, nil
}

// copied is what copyData made and counted: the top-level dict, the
// graph's entries and string bytes, and whether a host object (or a
// host-made container or callable) crossed.
type copied struct {
	d         *value.DictData
	entries   int
	bytes     int64
	sawObject bool
}

// copiers recycles the buffers of Prepare's copy-in (its path and key
// stacks, whose old contents are never read); a render copies in with its
// renderer's own Copier (kept.copier).
var copiers = sync.Pool{New: func() any { return new(value.Copier) }}

// newRoot returns the root scope of the render's template: the pooled
// renderer's own, emptied.
func (r *renderer) newRoot() *scope {
	clear(r.rootScope.vars)
	r.rootScope = scope{vars: r.rootScope.vars[:0]}
	return &r.rootScope
}
