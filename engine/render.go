package engine

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"runtime/debug"
	"strconv"
	"sync"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/builtins"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/syntax"
	"github.com/jinjabox/jinjabox/engine/value"
)

// scope is one level of variable bindings. A small scope is scanned (a
// scan of a few bindings beats an index and allocates less); past
// smallScope bindings it indexes them, so a lookup or a set is O(1) however
// many names a template binds (50,000 top-level sets must not be
// quadratic). A lookup walks the chain of scopes, whose length is bounded
// by the template's nesting and the render depth, and is charged for it.
type scope struct {
	parent *scope
	// isolated marks the root of a template rendered without context: the
	// render's data is not visible from it (globals still are).
	isolated bool
	// boundary marks the scope of a block and the root of an included or
	// imported template: Jinja2 gives those the context, which holds no
	// name an enclosing frame has not assigned yet, so a lookup that
	// walks past it skips unassigned bindings (value.Unassigned).
	boundary bool
	vars     []binding
	// idx indexes vars once it outgrows smallScope: open addressing
	// (linear probing, at most half full) on the names' hashes, each slot
	// a binding's index plus one, 0 when empty. A Go map took about 96
	// bytes a name to fill, growth included; this takes 8 to 16 (twice
	// that over the doubling), and 16,384 sets ran at 1.2 bytes a unit.
	idx []int32
}

// nameSeed seeds the scope index's hashes (per process, like the dicts'):
// a template cannot aim names at one slot.
var nameSeed = maphash.MakeSeed()

type binding struct {
	name string
	val  value.Value
}

// smallScope is the number of bindings a scope scans before it indexes.
const smallScope = 8

// newScope returns a scope with room for n bindings; up to
// inlineBindings of them come in the scope's own allocation.
func newScope(parent *scope, n int) *scope {
	if n <= inlineBindings {
		s := &inlineScope{scope: scope{parent: parent}}
		s.vars = s.buf[:0]
		return &s.scope
	}
	//fresh:ok a binding's plain word is its value's, which package value keeps to itself; a scope has as many slots as its template names
	return &scope{parent: parent, vars: make([]binding, 0, n)}
}

// inlineBindings is the room a small scope (a macro call's, a loop
// body's) has without a second allocation.
const inlineBindings = 6

// maxPooledScopes is the most macro call scopes a renderer keeps: one a
// level of nested calls in flight, a few dozen in practice.
const maxPooledScopes = 64

// maxPooledRootData is the most top-level names whose storage a pooled
// renderer keeps.
const maxPooledRootData = 256

// inlineScope is a scope and its first bindings in one allocation.
type inlineScope struct {
	scope
	buf [inlineBindings]binding
}

// takeScope returns an empty inline scope under parent, recycled when the
// renderer has one (a macro call's, see macroInfo.closes).
func (r *renderer) takeScope(parent *scope) *inlineScope {
	n := len(r.scopes)
	if n == 0 {
		s := &inlineScope{scope: scope{parent: parent}}
		s.vars = s.buf[:0]
		return s
	}
	s := r.scopes[n-1]
	r.scopes = r.scopes[:n-1]
	s.parent = parent
	s.vars = s.buf[:0]
	return s
}

// releaseScope recycles a scope from takeScope once nothing refers to it,
// its bindings cleared so the pool holds no value of the render. A scope
// that outgrew its inline room (a set past inlineBindings) is left to the
// collector.
func (r *renderer) releaseScope(s *inlineScope) {
	clear(s.buf[:])
	grown := s.idx != nil || (len(s.vars) > 0 && &s.vars[0] != &s.buf[0])
	s.scope = scope{}
	if !grown && len(r.scopes) < maxPooledScopes {
		r.scopes = append(r.scopes, s)
	}
}

// find returns the index of name in s.vars, or -1.
func (s *scope) find(name string) int {
	if s.idx == nil {
		for i := range s.vars {
			if s.vars[i].name == name {
				return i
			}
		}
		return -1
	}
	mask := uint64(len(s.idx) - 1)
	for j := maphash.String(nameSeed, name) & mask; ; j = (j + 1) & mask {
		e := s.idx[j]
		if e == 0 {
			return -1
		}
		if s.vars[e-1].name == name {
			return int(e - 1)
		}
	}
}

func (s *scope) set(name string, v value.Value) {
	if i := s.find(name); i >= 0 {
		s.vars[i].val = v
		return
	}
	// doubling: grown by append, a scope of 16,384 sets allocated its
	// bindings five times over
	s.vars = append(vmem.Grown(s.vars), binding{name, v})
	switch n := len(s.vars); {
	case s.idx == nil && n <= smallScope:
	case s.idx == nil || 2*n > len(s.idx):
		// made for the bindings' capacity: once a doubling
		size := 16
		for size < 2*cap(s.vars) {
			size *= 2
		}
		s.idx = make([]int32, size)
		for i := range s.vars {
			s.place(i)
		}
	default:
		s.place(n - 1)
	}
}

// place indexes binding i in its first free slot.
func (s *scope) place(i int) {
	mask := uint64(len(s.idx) - 1)
	for j := maphash.String(nameSeed, s.vars[i].name) & mask; ; j = (j + 1) & mask {
		if s.idx[j] == 0 {
			s.idx[j] = int32(i + 1)
			return
		}
	}
}

// reset drops every binding and keeps the storage: a loop's scope is
// reused by each iteration.
func (s *scope) reset() {
	s.vars = s.vars[:0]
	clear(s.idx)
}

// lookupLocal reads a binding of this scope only; an unassigned name
// (value.Unassigned) is not bound.
func (s *scope) lookupLocal(name string) (value.Value, bool) {
	if i := s.find(name); i >= 0 && !s.vars[i].val.IsUnassigned() {
		return s.vars[i].val, true
	}
	return value.Value{}, false
}

// bindUnassigned binds each of names in sc to an unassigned undefined, as
// a frame of Jinja2 starts its names "missing" (frames.go), charged an
// element a name. A name sc binds already is left as it is: the root of
// a template that extends another holds the child's assignments.
func (r *renderer) bindUnassigned(names []string, sc *scope) {
	if len(names) == 0 {
		return
	}
	r.Charge(int64(len(names))*budget.Elem, "frame names")
	for _, name := range names {
		if sc.find(name) < 0 {
			sc.set(name, value.Unassigned(name))
		}
	}
}

// frame is the per-template state of a render: which template is running
// (for positions), its root scope and its block chains.
type frame struct {
	tmpl   *Template
	root   *scope
	blocks map[string][]*blockRef
	// parent is set once {% extends %} ran: output of this template's
	// top level is then suppressed and the parent renders at the end.
	parent *Template
}

type blockRef struct {
	block *syntax.Block
	tmpl  *Template
}

// renderer is the per-render state. It implements value.Ctx. A pooled
// renderer is reset by zeroing its renderState; what it keeps between
// renders (kept) is storage whose old contents are never read.
type renderer struct {
	renderState
	kept
}

// renderState is what a render starts afresh.
type renderState struct {
	env   *Environment
	meter *budget.Meter
	// tok is this run's token for the lazy strings it makes (PollToken),
	// ended when the run ends.
	tok *value.PollToken
	// fast is meter when a charge has nothing to do but spend (no host
	// context to poll), else spare, which has no units: spent's one test
	// (TrySpend) covers both, with no nil check, whose merge with
	// TrySpend's result the compiler tests as a bool at every site.
	fast       *budget.Meter
	out        outBuf // the innermost capture buffer
	capturing  int    // >0 while output goes to a capture buffer
	autoescape bool
	// folding is set while a constant {{ }} is evaluated as Jinja2's
	// compiler folds it (evalFolded)
	folding bool
	// loopIter is the call a for loop is evaluating as its iterable, and
	// lazyRange is set while that call, when it calls range itself, runs:
	// the range charges its items and the loop draws its numbers without
	// them (builtins.LazyRanger). Both end with the call.
	loopIter  *syntax.Call
	lazyRange bool
	depth     int
	maxDepth  int
	rng       uint64
	fr        *frame
	cur       *Template  // the template whose code is running (positions)
	suppress  bool       // output of an extending template is dropped
	kwStack   []value.KV // the keyword arguments of the calls in flight (growKw)
	// arenaSeen records that host code may have seen what the arena
	// holds (a host object in the data) or that a copy was refused
	// part way: putRenderer then drops the arena instead of reusing it
	arenaSeen bool
	data      *value.DictData
	pos       int
	// join is a pending failure of the join of the innermost output
	// (pendingJoin): Jinja2 yields a filter block's result as it is and
	// fails only where the output is joined.
	join pendingJoin
	// ctx is the host's cancellation (nil: none, nothing is polled); it
	// is polled when the meter passes nextPoll or every
	// cancelCheckCharges charges.
	ctx       context.Context
	nextPoll  int64
	charges   uint64
	hostState any // RenderOptions.Host
	// memo is the render's memo table (Memo): compiled regular
	// expressions, by pattern and flags; a render starts without one
	memo map[string]any

	// A pooled renderer's own storage, so a render allocates next to
	// nothing of its own: its meter (unless it shares one with a parse)
	// and the top-level frame.
	ownMeter budget.Meter
	topFrame frame
}

// kept is what a pooled renderer keeps between renders, emptied by
// putRenderer.
type kept struct {
	// root is the render's output, kept between renders (its last chunk,
	// up to maxPooledOutput): written out to the host's writer once the
	// render succeeded (RenderTo), else joined into Result.Output.
	root     outBuf
	free     [][]byte        // recycled capture buffers
	scopes   []*inlineScope  // recycled macro call scopes (takeScope)
	argBufs  []*argBuf       // recycled macro call arguments (takeArgs)
	rootData *value.DictData // the storage of the top-level data a render copies in (bindData)
	arena    value.Arena     // the storage of the containers below it (bindData, putRenderer)
	// copier copies a render's data in (bindData): its buffers, and the
	// names of the last data it copied (the next render's are most often
	// the same), serve the renderer's next render
	copier value.Copier
	// rootScope is the root scope, whose bindings' storage is kept
	// (newRoot empties it).
	rootScope scope
	// spare is fast's meter when a host context is to be polled: it has
	// no units (the zero Meter), so every charge takes Charge's way,
	// which spends on meter and polls. A charge of no units is spent on
	// it, which changes nothing: no work, no poll.
	spare budget.Meter
}

// renderers recycles renderers between renders (getRenderer,
// putRenderer). A recycled renderer is reset field by field before it is
// used, and keeps only storage whose old contents are never read (the
// capture buffers, the root scope's slots), so a render's output, error
// and units never depend on which renderer it got.
var renderers = sync.Pool{New: func() any { return new(renderer) }}

// getRenderer returns a reset renderer for t: m is the meter when the
// render shares one (RenderString), nil for its own under ro's limits.
func (t *Template) getRenderer(m *budget.Meter, ro *RenderOptions) *renderer {
	r := renderers.Get().(*renderer)
	// what a render recycles (kept, emptied by putRenderer) survives
	r.renderState = renderState{}
	if m == nil {
		t.env.setMeter(&r.ownMeter, ro)
		m = &r.ownMeter
	}
	t.initRenderer(r, m, ro.Context)
	r.hostState = ro.Host
	return r
}

// maxPooledOutput is the largest output buffer a pooled renderer keeps,
// maxPooledCapture the largest capture buffer.
const (
	maxPooledOutput  = 1 << 20
	maxPooledCapture = 1 << 16
)

// putRenderer returns r to the pool once its render is over. Nothing of
// the render may still reference it: a render returns strings and
// errors only (RenderValue, which can return a macro bound to its
// renderer, does not pool).
// Memo is the render's memo table (builtins.Memoizer): what a builtin may
// keep for the rest of this render only. Every render starts with an empty
// one, so nothing a render computed reaches another.
func (r *renderer) Memo() map[string]any {
	if r.memo == nil {
		r.memo = make(map[string]any)
	}
	return r.memo
}

func putRenderer(r *renderer) {
	if len(r.free) > 16 {
		r.free = r.free[:16]
	}
	for i, b := range r.free {
		if cap(b) > maxPooledCapture {
			r.free[i] = nil // a pooled renderer keeps small capture buffers only
		}
	}
	r.root.reset(maxPooledOutput) // the output was copied out or written out
	r.data, r.fr, r.cur, r.ctx, r.hostState = nil, nil, nil, nil, nil
	if r.rootData != nil {
		if r.rootData.Len() > maxPooledRootData {
			r.rootData = nil
		} else {
			r.rootData.Reset(0) // the pool keeps no value of the render
		}
	}
	if r.arenaSeen {
		// host code may keep what it saw: the next render gets new storage
		r.arena, r.arenaSeen = value.Arena{}, false
	} else {
		r.arena.Reset() // cleared: the pool keeps no value of the render
	}
	r.topFrame = frame{}
	clear(r.rootScope.vars)
	if cap(r.rootScope.vars) > 1024 {
		r.rootScope.vars = nil // a template binding thousands of names keeps none of them
	}
	renderers.Put(r)
}

// materialRanges turns lazy ranges off: TestLazyRangeLoopsAsMaterial
// renders every loop both ways.
var materialRanges bool

// TakeLazyRange implements builtins.LazyRanger: true for the range call a
// for loop evaluates as its iterable, once.
func (r *renderer) TakeLazyRange() bool {
	l := r.lazyRange
	r.lazyRange = false
	return l
}

// Host is the render's RenderOptions.Host (HostState).
func (r *renderer) Host() any { return r.hostState }

// run runs fn, the body of a render. A render ends early by panicking
// with its error (*errs.Error, or a *budget.Error from the meter); run
// recovers it, positions it at the code that was running and returns it.
// Any other panic is a bug: it becomes an internal error whose stack the
// host can log (Error.Stack).
func (r *renderer) run(fn func()) (err error) {
	defer func() {
		if r.tok != nil {
			r.tok.End() // lazy strings of this run build without polling from now on
			r.tok = nil
		}
		r.loopIter, r.lazyRange = nil, false
		if rec := recover(); rec != nil {
			e, ok := rec.(*errs.Error)
			if !ok {
				if be, ok2 := rec.(*budget.Error); ok2 {
					e = errs.Wrap(errs.Budget, be)
				} else {
					e = errs.NewInternal(fmt.Sprintf("internal error: %v", rec), debug.Stack())
				}
			}
			if r.cur != nil {
				e.SetPos(r.cur.name, r.cur.tree.Source, r.pos)
			}
			err = e
		}
	}()
	fn()
	return nil
}

// ---- value.Ctx ----

// Charge spends n units for op before the work, or ends the render with
// the budget error.
func (r *renderer) Charge(n int64, op string) {
	if !metering || r.fast.TrySpend(n) {
		return // spent, and no host context to poll
	}
	if !r.meter.TrySpend(n) {
		errs.Raise(r.meter.Charge(n, op))
	}
	if r.ctx != nil {
		r.tick()
	}
}

// spent is Charge's common case, inlined where the evaluator charges most
// (a name, an attribute, an output, a filter call, a loop item): it spends
// n and reports true when that was all the charge had to do (units left,
// no host context to poll). A site calls Charge only when it reports
// false, so the charge, its refusal and its poll stay Charge's:
//
//	if !r.spent(n) {
//		r.Charge(n, op)
//	}
//
// Charge itself cannot be inlined (its slow path is a call, which Go's
// inliner prices past its budget), and a charge was 25 instructions a
// call where this is a handful (docs/COSTS.md, the budget's overhead).
func (r *renderer) spent(n int64) bool {
	return !metering || r.fast.TrySpend(n)
}

// chargeNamed is Charge with an operation named "kind name", built only
// when the charge is refused (the hot path allocates nothing).
func (r *renderer) chargeNamed(n int64, kind, name string) {
	if !metering {
		return
	}
	if !r.meter.TrySpend(n) {
		errs.Raise(r.meter.Charge(n, kind+" "+name))
	}
	if r.ctx != nil {
		r.tick()
	}
}

// tick counts a charge of a cancellable render and polls its context
// every cancelCheckCharges charges or CancelCheckUnits units, whichever
// comes first: units bound the work between polls where the charges are
// honest, and the count bounds it where an operation works more than it
// charges (a cancelled render then still stops soon).
func (r *renderer) tick() {
	r.charges++
	if r.charges%cancelCheckCharges == 0 || r.meter.Used() >= r.nextPoll {
		r.poll()
	}
}

// cancelCheckCharges is the number of charges between two polls at most.
const cancelCheckCharges = 16

// Poll is strutil.Poller's: prepaid bulk work polls between its chunks.
func (r *renderer) Poll() {
	if r.ctx != nil {
		r.poll()
	}
}

// poll ends the render when the host cancelled it (RenderOptions.Context)
// and schedules the next poll CancelCheckUnits of work later.
func (r *renderer) poll() {
	if r.ctx == nil {
		return
	}
	r.nextPoll = r.meter.Used() + CancelCheckUnits
	if err := r.ctx.Err(); err != nil {
		panic(cancelledError(err))
	}
}

// cancelledError is the refusal of a render its host cancelled: a render
// error wrapping ErrCanceled and the context's error.
func cancelledError(err error) *errs.Error {
	e := errs.Wrap(errs.Render, errors.Join(ErrCanceled, err))
	e.Message = "the render was cancelled by its host: " + err.Error()
	return e
}

func (r *renderer) step(op string) {
	if !r.spent(budget.Step) {
		r.Charge(budget.Step, op)
	}
}

func (r *renderer) Meter() *budget.Meter { return r.meter }

// Spender is value.Ctx's: the meter, unless a charge must also poll the
// host's context (tick) or nothing is metered.
func (r *renderer) Spender() *budget.Meter {
	if !metering || r.ctx != nil {
		return nil
	}
	return r.meter
}

func (r *renderer) Autoescape() bool { return r.autoescape }
func (r *renderer) Strict() bool     { return r.env.opts.StrictUndefined }

func (r *renderer) Rand() uint64 {
	// splitmix64: deterministic for a given seed, no global state.
	r.rng += 0x9e3779b97f4a7c15
	z := r.rng
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (r *renderer) HasFilter(name string) bool { _, ok := r.env.filters[name]; return ok }
func (r *renderer) HasTest(name string) bool   { _, ok := r.env.tests[name]; return ok }

// CallFilter calls the filter name (value.Ctx: map('upper'), filter
// blocks; a filter expression comes with its filter bound, callFilter).
func (r *renderer) CallFilter(name string, v value.Value, args *value.Args) value.Value {
	f, ok := r.env.filters[name]
	if !ok {
		errs.Throwf(errs.Render, "no filter named %s", errs.Quote(name))
	}
	return r.callFilter(f, name, v, args)
}

// callFilter is a call of the filter f, named name: a capability call,
// its scratch checked (admitFilter).
func (r *renderer) callFilter(f builtins.FilterFunc, name string, v value.Value, args *value.Args) value.Value {
	if metering {
		r.admitFilter(name, &v, args, 0)
	}
	return f(r, v, args)
}

// CallTest calls the test name (value.Ctx; a test expression comes with
// its test bound, callTest).
func (r *renderer) CallTest(name string, v value.Value, args *value.Args) bool {
	t, ok := r.env.tests[name]
	if !ok {
		errs.Throwf(errs.Render, "no test named %s", errs.Quote(name))
	}
	return r.callTest(t, name, v, args)
}

// callTest is a call of the test t, named name: a capability call.
func (r *renderer) callTest(t builtins.TestFunc, name string, v value.Value, args *value.Args) bool {
	r.capability("test", name)
	return t(r, v, args)
}

// admitFilter admits a call of the filter name on v and args: it counts
// the call against capability_calls and enforces scratch_bytes, the data
// handed to one filter call, then charges step units (0: none) for the
// call. One call for all three, and v by reference, so a filter call pays
// one function call for its metering. A default filter bound without its
// wrapper (builtins.UnwrappedFilter, eval's Filter case) passes the
// wrapper's step, charged where the wrapper charges it, after the call is
// admitted: the units and the place of any refusal are the wrapped
// filter's.
func (r *renderer) admitFilter(name string, v *value.Value, args *value.Args, step int64) {
	m := r.meter
	if err := m.CapabilityCall("filter", name); err != nil {
		errs.Raise(err)
	}
	limit := m.Limits.ScratchBytes
	// value.Size of each, inline for the strings and numbers it takes
	// most (LeafSize), walked for a container
	n, leaf := value.LeafSize(v)
	if !leaf {
		n = value.Size(*v, limit)
	}
	if args != nil {
		n += value.ArgsSize(args, limit)
	}
	if n > limit {
		errs.Raise(m.Check(budget.LimitScratchBytes, n, "filter "+name))
	}
	if step > 0 && !r.spent(step) {
		r.chargeNamed(step, "filter", name)
	}
}

func (r *renderer) capability(kind, name string) {
	if !metering {
		return
	}
	if err := r.meter.CapabilityCall(kind, name); err != nil {
		errs.Raise(err)
	}
}

// ---- output ----

// write appends to the capture buffer, or to the render's output (which
// the output_bytes limit bounds; a template that extends another writes
// nothing of its own).
func (r *renderer) write(s string) {
	// the common write: to the render's output, within its limit, into
	// the room of its current chunk (dest and appendTo's loop, inline)
	if b := &r.root; r.capturing == 0 && !r.suppress && len(s) <= min(cap(b.cur)-len(b.cur), copyPiece) &&
		int64(b.fullN+len(b.cur)+len(s)) <= r.meter.Limits.OutputBytes {
		if len(b.cur) == 0 {
			b.first = s // String returns it if nothing follows
		}
		b.cur = append(b.cur, s...)
		return
	}
	switch r.dest(len(s)) {
	case toCapture:
		r.out.writeString(s)
	case toRoot:
		r.root.writeString(s)
	}
}

// writeBytes is write for bytes the caller formatted (no string made).
func (r *renderer) writeBytes(b []byte) {
	switch r.dest(len(b)) {
	case toCapture:
		r.out.write(b)
	case toRoot:
		r.root.write(b)
	}
}

// A dest is where n bytes of output go (dest).
type dest uint8

const (
	toNowhere dest = iota
	toCapture
	toRoot
)

// dest returns where n more bytes of output go, refusing them when the
// render's output would pass output_bytes.
func (r *renderer) dest(n int) dest {
	if r.capturing > 0 {
		return toCapture
	}
	if r.suppress {
		return toNowhere
	}
	if total := int64(r.root.Len() + n); total > r.meter.Limits.OutputBytes {
		errs.Raise(r.meter.Check(budget.LimitOutputBytes, total, "output"))
	}
	return toRoot
}

// capture runs fn with output redirected and returns what it wrote.
// Capture buffers are recycled within the render: macro calls capture on
// every call.
func (r *renderer) capture(fn func()) string {
	saved := r.beginCapture()
	fn()
	return r.endCapture(saved, false).s
}

// captureStmts is capture for a statement list, without a closure, as a
// captured text for markupOrString: a set block, a filter block or a
// macro body, whose text may become a lazy string.
func (r *renderer) captureStmts(body []syntax.Stmt, sc *scope) captured {
	saved := r.beginCapture()
	r.execStmts(body, sc)
	return r.endCapture(saved, true)
}

// captured is the text of a set block, a filter block or a macro body:
// s, or parts (outBuf.lazyParts) to be joined only when read.
type captured struct {
	s     string
	parts []string
}

// PollToken is the token of this run for the lazy strings it makes
// (value.PollToken): nil when no host context can cancel the render.
func (r *renderer) PollToken() *value.PollToken {
	if r.ctx == nil {
		return nil
	}
	if r.tok == nil {
		r.tok = value.NewPollToken(r.Poll)
	}
	return r.tok
}

// captureState is what a capture saves of the one it interrupts.
type captureState struct {
	out  outBuf
	join pendingJoin
}

// pendingJoin is Python's "".join failing on an item that is no string:
// Jinja2 writes a filter block's result into the output as it is, and
// the output is joined only once the template (or the set block, macro
// body or filter block capturing it) has run to its end, so the failure
// comes then, after every error the rest of that output meets first.
type pendingJoin struct {
	err  *errs.Error // nil: none
	tmpl *Template
	pos  int
}

// failJoin records the first item that will break the join of the
// output being written.
func (r *renderer) failJoin(v value.Value) {
	if r.join.err == nil {
		r.join = pendingJoin{err: errs.New(errs.Type, "sequence item 0: expected str instance, "+v.TypeName()+" found"), tmpl: r.cur, pos: r.pos}
	}
}

// joined raises the pending join failure of the output that just ended.
func (r *renderer) joined() {
	if j := r.join; j.err != nil {
		r.cur, r.pos = j.tmpl, j.pos
		panic(j.err)
	}
}

func (r *renderer) beginCapture() captureState {
	saved := captureState{r.out, r.join}
	r.join = pendingJoin{}
	r.out = outBuf{refs: true}
	if n := len(r.free); n > 0 {
		r.out.cur = r.free[n-1][:0]
		r.free = r.free[:n-1]
	}
	r.capturing++
	return saved
}

// endCapture returns the captured text: as parts for a lazy string when
// lazy allows it (outBuf.lazyParts), else joined into one string (a
// copy). Its buffer, up to a chunk, serves the next capture: a template
// capturing hundreds of kilobytes at a time (a macro called in a loop)
// grows it once, not on every call.
func (r *renderer) endCapture(saved captureState, lazy bool) captured {
	r.joined()
	r.join = saved.join
	r.capturing--
	var c captured
	if lazy {
		c.parts = r.out.lazyParts()
	}
	if c.parts == nil {
		c.s = r.out.join(r.Poll)
	}
	if cap(r.out.cur) <= outChunk {
		r.free = append(r.free, r.out.cur)
	}
	r.out = saved.out
	return c
}

// markupOrString wraps captured text: markup under autoescape.
func (r *renderer) markupOrString(c captured) value.Value {
	if c.parts != nil {
		return value.LazyJoin(r, c.parts, r.autoescape)
	}
	if r.autoescape {
		return value.Safe(c.s)
	}
	return value.FromString(c.s)
}

// printValue writes {{ v }}.
func (r *renderer) printValue(v value.Value) {
	switch v.Kind() {
	case value.String:
		s := v.Str()
		if r.autoescape && !v.IsSafe() {
			units := budget.Step + int64(len(s))*budget.EscapeFactor
			if !r.spent(units) {
				r.Charge(units, "printing escaped value")
			}
			r.write(value.EscapeHTML(s))
			return
		}
		units := budget.Step + int64(len(s))
		if !r.spent(units) {
			r.Charge(units, "printing value")
		}
		r.write(s)
		return
	case value.Undefined:
		if r.Strict() {
			vops.ThrowUndefined(v)
		}
		if !r.spent(budget.Step) {
			r.Charge(budget.Step, "printing value")
		}
		return
	case value.Int:
		// formatted in place: printing an int allocates nothing
		if !r.spent(budget.Step) {
			r.Charge(budget.Step, "printing value")
		}
		var b [20]byte
		r.writeBytes(strconv.AppendInt(b[:0], v.Int(), 10))
		return
	case value.Float, value.Bool, value.None:
		if !r.spent(budget.Step) {
			r.Charge(budget.Step, "printing value")
		}
		r.write(value.ToString(v))
		return
	}
	r.Charge(budget.Step+value.Size(v, r.meter.Left())*2, "printing value")
	s := value.StrIn(r, v)
	if r.autoescape {
		if h, ok := v.ObjectImpl().(htmlObject); ok {
			s = h.HTML()
		} else {
			s = value.EscapeHTML(s)
		}
	}
	r.write(s)
}

// htmlObject is an object that is markup when printed (Python's
// __html__), such as an imported module's rendered body.
type htmlObject interface {
	HTML() string
}

// stringify is str(v) under the render's undefined rules.
func (r *renderer) stringify(v value.Value) string {
	if v.Kind() == value.String {
		return v.Str()
	}
	if v.Kind() == value.Undefined && r.Strict() {
		vops.ThrowUndefined(v)
	}
	if k := v.Kind(); k == value.List || k == value.Tuple || k == value.Dict || k == value.Object {
		r.Charge(value.Size(v, r.meter.Left())*2, "converting to string")
	}
	return value.StrIn(r, v)
}

// enter counts one recursive step of evaluation against the render's
// recursion bound: every expression node with sub-expressions (eval),
// every statement (exec), every macro frame and caller, every template
// (include, import, extends) and block, every recursive loop level. Each
// of those is one or a few Go frames, so the bound on steps is a bound on
// the goroutine's stack whatever the template's shape (filter chains,
// macro recursion times expression depth). TestDeepestRenderFitsSmallStack
// renders the deepest templates the limits allow under a small
// debug.SetMaxStack.
func (r *renderer) enter() {
	r.depth++
	if r.depth > r.maxDepth {
		r.recursionFail()
	}
}

// recursionFail refuses a step past the render's recursion bound. Kept out
// of enter so that enter stays small enough to inline in eval.
func (r *renderer) recursionFail() {
	errs.Raise(&budget.Error{Limit: budget.LimitNestingDepth, Phase: r.meter.Phase,
		Op:         "render recursion (" + strconv.Itoa(stepsPerLevel) + " evaluation steps a nesting level)",
		Configured: int64(r.maxDepth), Observed: int64(r.depth)})
}

// stepsPerLevel is how many recursive evaluation steps (enter) a render
// may take per level of the nesting_depth limit. A level of template
// nesting is one to a few steps (a statement, its expression, an
// operand), so 16 leaves room for real recursion: at the default 160,
// 2,560 steps, more than the 1,000 Python frames at which Jinja2's own
// recursion stops (a recursive macro about 200 deep, a filter chain about
// 400 links).
const stepsPerLevel = 16

// maxRecursionSteps caps the steps whatever nesting_depth is configured:
// measured at about 1.5 KiB of goroutine stack a step (the default
// 2,560 steps need 3-4 MiB: JINJABOX_DEEP_STACK in
// TestDeepestRenderFitsSmallStack's child finds it), 160,000 steps stay
// at about 256 MiB, far below Go's
// 1 GB maximum stack, whose overflow is a fatal error no recover catches.
const maxRecursionSteps = 160_000

// recursionSteps is the render's recursion bound for a nesting_depth limit.
func recursionSteps(nesting int64) int {
	if nesting <= 0 {
		return 0
	}
	if nesting > maxRecursionSteps/stepsPerLevel {
		return maxRecursionSteps
	}
	return int(nesting) * stepsPerLevel
}

func (r *renderer) leave() { r.depth-- }
