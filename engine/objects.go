package engine

import (
	"fmt"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/builtins"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/syntax"
	"github.com/jinjabox/jinjabox/engine/value"
)

// macroInfo is what the check pass learned about a macro body.
type macroInfo struct {
	usesVarargs, usesKwargs, usesCaller bool
	// closes records that the body may make a value holding its scope (a
	// macro or a caller closes over it; a recursive loop, an include, an
	// import or a block runs in it): without one, nothing outlives the
	// call that refers to its scope, and the scope is recycled.
	closes bool
	// paramIdx maps each parameter name to its position when there are
	// more than a few, so binding k keywords is O(k), not O(k*params).
	paramIdx map[string]int
	// unassigned are the names the body assigns that a frame nested in
	// it may read first (frames.go): bound to an unassigned undefined as
	// a call starts.
	unassigned []string
}

// param returns the position of the parameter called name, or -1.
func (m *macro) param(name string) int {
	if m.info != nil && m.info.paramIdx != nil {
		if i, ok := m.info.paramIdx[name]; ok {
			return i
		}
		return -1
	}
	for i := range m.params {
		if m.params[i].Name == name {
			return i
		}
	}
	return -1
}

// noneBinds reports whether no keyword of kw fills a parameter (one no
// argument filled: bound) or is the caller the body reads: each then goes
// to kwargs. kw's names are distinct (value.Args.Keys), so no keyword's
// binding changes another's.
func (m *macro) noneBinds(kw []value.KV, bound []bool, info *macroInfo) bool {
	for _, kv := range kw {
		if i := m.param(kv.Key); i >= 0 && !bound[i] || kv.Key == "caller" && info.usesCaller {
			return false
		}
	}
	return true
}

// macro is a {% macro %} or the caller of a {% call %} block.
type macro struct {
	name    string
	params  []syntax.Param
	body    []syntax.Stmt
	closure *scope
	tmpl    *Template
	info    *macroInfo
	// isCaller marks the anonymous macro of a {% call %} block.
	isCaller bool
	// autoescape is the autoescape where the macro was defined: Jinja2
	// compiles a macro in its definition's frame, so what its body prints
	// is escaped or not as there (whether its result is Markup follows
	// the call site)
	autoescape bool
}

func (m *macro) CallName() string { return m.name }

// Repr is how Jinja prints a macro.
func (m *macro) Repr() string {
	if m.isCaller {
		return "<Macro None>"
	}
	return "<Macro " + strutil.QuoteString(m.name) + ">"
}

func (m *macro) attr(name string) (value.Value, bool) {
	switch name {
	case "name":
		if m.isCaller {
			return value.NoneValue, true
		}
		return value.FromString(m.name), true
	case "arguments":
		items := vmem.Fresh(make([]value.Value, len(m.params)))
		for i, p := range m.params {
			items[i] = value.FromString(p.Name)
		}
		return value.NewTuple(items), true
	case "catch_kwargs":
		return value.FromBool(m.info != nil && m.info.usesKwargs), true
	case "catch_varargs":
		return value.FromBool(m.info != nil && m.info.usesVarargs), true
	case "caller":
		return value.FromBool(m.info != nil && m.info.usesCaller), true
	}
	return value.Value{}, false
}

// Call binds arguments as Jinja does: missing parameters without a default
// are undefined, extra positional arguments go to varargs and unknown
// keywords to kwargs when the body uses them, else a type error.
func (m *macro) Call(c value.Ctx, args *value.Args) value.Value {
	r := c.(*renderer)
	r.enter()
	defer r.leave()
	info := m.info
	if info == nil {
		info = &macroInfo{}
	}
	// binding is per parameter: each gets a slot in the new scope; past
	// smallScope the scope and the parameters are indexed, a map insert
	// and a lookup a parameter, charged a step as a set statement is (an
	// element ran 3.9 ns and 2.2 bytes a unit for 16,384 parameters)
	bind := budget.Elem
	if len(m.params) > smallScope {
		bind = budget.Step
	}
	r.Charge(int64(len(m.params))*bind+int64(args.Len())*budget.Elem, "binding macro arguments")
	var sc *scope
	var pooled *inlineScope
	if m.info != nil && !m.info.closes && len(m.params)+3 <= inlineBindings {
		pooled = r.takeScope(m.closure)
		sc = &pooled.scope
	} else {
		sc = newScope(m.closure, len(m.params)+3)
	}
	var pos []value.Value
	var kw []value.KV
	if args != nil {
		pos, kw = args.Pos, args.Kw
	}
	var boundBuf [16]bool // the common few parameters: no allocation
	var bound []bool
	if len(m.params) <= len(boundBuf) {
		bound = boundBuf[:len(m.params)]
	} else {
		bound = make([]bool, len(m.params))
	}
	for i, p := range pos {
		if i >= len(m.params) {
			break
		}
		sc.set(m.params[i].Name, p)
		bound[i] = true
	}
	var extraKw *value.DictData
	var caller value.Value
	hasCaller := false
	if info.usesKwargs && args != nil && args.Keys != nil && m.noneBinds(kw, bound, info) {
		// every keyword goes to kwargs, whose names the call indexed
		extraKw, kw = value.DictFromKw(args.Keys, kw), nil
	}
	for _, kv := range kw {
		// a keyword naming a parameter an argument filled is an extra
		// keyword, as in Jinja2 (Macro.__call__ takes keywords only for
		// the parameters past the positional arguments)
		if i := m.param(kv.Key); i >= 0 && !bound[i] {
			sc.set(kv.Key, kv.Val)
			bound[i] = true
			continue
		}
		if kv.Key == "caller" && info.usesCaller {
			caller, hasCaller = kv.Val, true
			continue
		}
		if !info.usesKwargs {
			if kv.Key == "caller" {
				errs.Throwf(errs.Type, "macro %s was invoked with a caller but takes none", errs.Quote(m.name))
			}
			errs.Throwf(errs.Type, "macro %s takes no keyword argument %s", errs.Quote(m.name), errs.Quote(kv.Key))
		}
		if extraKw == nil {
			extraKw = value.NewDict(len(kw))
		}
		extraKw.SetStr(kv.Key, kv.Val)
	}
	if len(pos) > len(m.params) && !info.usesVarargs {
		errs.Throwf(errs.Type, "macro %s takes not more than %d argument(s)", errs.Quote(m.name), len(m.params))
	}
	savedCur, savedEsc := r.cur, r.autoescape
	r.cur, r.autoescape = m.tmpl, m.autoescape
	// Every parameter is a name of the macro's frame before any default
	// runs, as in Jinja2: a default sees the parameters bound so far
	// (arguments and earlier defaults), and a parameter not bound yet,
	// itself included, is undefined there, never the outer name
	// (m(x=x) and m(a=b, b=1) give undefined).
	for i, p := range m.params {
		if !bound[i] {
			sc.set(p.Name, value.UndefParam(p.Name))
		}
	}
	for i, p := range m.params {
		if !bound[i] && p.Default != nil {
			sc.set(p.Name, r.eval(p.Default, sc))
		}
	}
	r.bindUnassigned(info.unassigned, sc)
	if info.usesVarargs {
		var extra []value.Value
		if len(pos) > len(m.params) {
			extra = vmem.Append(extra, pos[len(m.params):]...)
		}
		sc.set("varargs", value.NewTuple(extra))
	}
	if info.usesKwargs {
		if extraKw == nil {
			extraKw = value.NewDict(0)
		}
		sc.set("kwargs", value.FromDict(extraKw))
	}
	if info.usesCaller {
		if !hasCaller {
			caller = value.UndefHint("caller", "No caller defined")
		}
		sc.set("caller", caller)
	}
	out := r.captureStmts(m.body, sc)
	// the result is Markup when the call site autoescapes (Macro.__call__
	// takes the caller's EvalContext)
	r.cur, r.autoescape = savedCur, savedEsc
	v := r.markupOrString(out)
	if pooled != nil {
		r.releaseScope(pooled)
	}
	return v
}

// loop is the loop variable of a for loop. Its items are a list, or a
// string walked lazily (str), whose length is counted only when asked.
type loop struct {
	r     *renderer
	items []value.Value
	str   *strCursor
	// rng, for a loop over a call of range itself, gives the range's
	// numbers in place of items (value.NewLazyRange)
	rng *rangeCursor
	// i is the index of the current item; cur and prev are the current
	// and previous items; drawn counts the items drawn so far.
	i, drawn  int
	cur, prev value.Value
	// n is the number of items, -1 until a lazy string is counted.
	n       int
	depth   int
	node    *syntax.For
	sc      *scope
	last    value.Value
	hasLast bool
	// A loop with a filter ({% for x in xs if c %}) filters lazily, as
	// Jinja2's generator does: an item is tested when the loop reaches
	// it, after the body ran for the ones before (an error there, or a
	// namespace the body changed, shows in that order), and ahead of it
	// only as far as loop.last, nextitem or length need. fsc is the
	// filter's scope (Jinja2's test frame: the targets over the enclosing
	// scope), raw the next item of the source to test, ahead the items
	// tested and kept but not drawn yet (from ah).
	filter    syntax.Expr
	fsc       *scope
	raw       int
	ahead     []value.Value
	ah        int
	exhausted bool
}

// pull tests the source's items until one passes the filter and keeps it
// ahead; false when the source is exhausted. Each item tested is charged
// a step and an element.
func (l *loop) pull() bool {
	for !l.exhausted {
		var it value.Value
		if l.str != nil {
			if l.str.done() {
				break
			}
			it = l.str.next()
		} else {
			if l.raw >= l.count() {
				break
			}
			it = l.item(l.raw)
			l.raw++
		}
		const units = budget.Step + budget.Elem
		if !l.r.spent(units) {
			l.r.Charge(units, "loop filter")
		}
		l.fsc.reset()
		l.r.assign(l.node.Target, it, l.fsc)
		if l.r.cond(l.filter, l.fsc) {
			//scratch:ok one slot an item kept, each charged a step and an element as it was tested
			l.ahead = append(l.ahead, it)
			return true
		}
	}
	l.exhausted = true
	return false
}

// filtered reports whether an item passing the filter follows.
func (l *loop) filtered() bool {
	return l.ah < len(l.ahead) || l.pull()
}

// draw charges a step and an element, then returns the next item.
func (l *loop) draw(op string) (value.Value, bool) {
	if l.filter != nil {
		if !l.filtered() {
			return value.Value{}, false
		}
		const units = budget.Step + budget.Elem
		if !l.r.spent(units) {
			l.r.Charge(units, op)
		}
		l.prev = l.cur
		l.cur = l.ahead[l.ah]
		l.ahead[l.ah] = value.Value{}
		l.ah++
		l.drawn++
		return l.cur, true
	}
	if l.str != nil {
		if l.str.done() {
			return value.Value{}, false
		}
	} else if l.drawn >= l.count() {
		return value.Value{}, false
	}
	const units = budget.Step + budget.Elem
	if !l.r.spent(units) {
		l.r.Charge(units, op)
	}
	l.prev = l.cur
	if l.str != nil {
		l.cur = l.str.next()
	} else {
		l.cur = l.item(l.drawn)
	}
	l.drawn++
	return l.cur, true
}

func (l *loop) empty() bool {
	if l.filter != nil {
		return !l.filtered()
	}
	if l.str != nil {
		return l.str.done()
	}
	return l.count() == 0
}

// rangeCursor is a range's numbers, made as a loop reaches them.
type rangeCursor struct {
	start, stop, step int64
	n                 int
}

// count is how many items the loop's source has (not a string's).
func (l *loop) count() int {
	if l.rng != nil {
		return l.rng.n
	}
	return len(l.items)
}

// item is item i of the loop's source (not a string's).
func (l *loop) item(i int) value.Value {
	if l.rng != nil {
		return value.RangeItem(l.rng.start, l.rng.step, i)
	}
	return l.items[i]
}

// length counts a lazy string once (its scan charged by bytes); a
// filtered loop tests the rest of its source (LoopContext.length reads
// the rest of its iterator).
func (l *loop) length() int {
	if l.filter != nil {
		for l.pull() {
		}
		return l.drawn + len(l.ahead) - l.ah
	}
	if l.n < 0 {
		l.r.Charge(int64(len(l.str.s)), "loop length")
		l.n = strutil.RuneLen(l.str.s)
	}
	return l.n
}

// hasNext reports whether an item follows the current one.
func (l *loop) hasNext() bool {
	if l.filter != nil {
		return l.filtered()
	}
	if l.str != nil {
		return !l.str.done()
	}
	return l.i+1 < l.count()
}

func (l *loop) TypeName() string { return "LoopContext" }

func (l *loop) Attr(c value.Ctx, name string) (value.Value, bool) {
	switch name {
	case "index":
		return value.FromInt(int64(l.i + 1)), true
	case "index0":
		return value.FromInt(int64(l.i)), true
	case "revindex":
		return value.FromInt(int64(l.length() - l.i)), true
	case "revindex0":
		return value.FromInt(int64(l.length() - l.i - 1)), true
	case "first":
		return value.FromBool(l.i == 0), true
	case "last":
		return value.FromBool(!l.hasNext()), true
	case "length":
		return value.FromInt(int64(l.length())), true
	case "depth":
		return value.FromInt(int64(l.depth)), true
	case "depth0":
		return value.FromInt(int64(l.depth - 1)), true
	case "previtem":
		if l.i == 0 {
			return value.UndefHint("previtem", "there is no previous item"), true
		}
		return l.prev, true
	case "nextitem":
		if !l.hasNext() {
			return value.UndefHint("nextitem", "there is no next item"), true
		}
		if l.filter != nil {
			return l.ahead[l.ah], true
		}
		if l.str != nil {
			return l.str.peek(), true
		}
		return l.item(l.i + 1), true
	case "cycle":
		return value.FromCallable(&loopMethod{l: l, name: "cycle"}), true
	case "changed":
		return value.FromCallable(&loopMethod{l: l, name: "changed"}), true
	}
	return value.Value{}, false
}

// Call makes loop(...) recurse in a recursive loop.
func (l *loop) Call(c value.Ctx, args *value.Args) value.Value {
	if !l.node.Recursive {
		errs.Throw(errs.Type, "the loop must have the 'recursive' marker to be called recursively")
	}
	if args == nil || len(args.Pos) != 1 || len(args.Kw) != 0 {
		errs.Throw(errs.Type, "loop() takes exactly one argument")
	}
	r := l.r
	r.enter()
	defer r.leave()
	out := r.capture(func() { r.runLoop(l.node, l.sc, args.Pos[0], l.depth+1) })
	return r.markupOrString(captured{s: out})
}

func (l *loop) CallName() string { return "loop" }

// Iter yields the items not yet reached, as iterating Jinja's LoopContext
// does.
func (l *loop) Iter(c value.Ctx) []value.Value {
	if l.filter != nil {
		for l.pull() {
		}
		return l.ahead[l.ah:]
	}
	if l.str != nil {
		return l.r.restOf(l.str, "loop iteration")
	}
	if l.rng != nil {
		return l.rangeItems(l.i + 1)
	}
	return l.items[l.i+1:]
}

// rangeItems makes the items of a loop's range from item from on (its call
// charged every item of it).
func (l *loop) rangeItems(from int) []value.Value {
	return value.RangeItems(l.rng.start, l.rng.stop, l.rng.step, from)
}

// Held implements value.Holder: every item the loop can give back
// (previtem, the current item, nextitem and the items not yet reached;
// changeditem compares with the last), not only what iterating it yields.
func (l *loop) Held() []value.Value {
	held := []value.Value{l.prev, l.cur, l.last}
	if l.str != nil {
		return held // a string's items are one-character strings
	}
	if l.rng != nil {
		// integers, but the walk over them is what a loop over the
		// range's items has always been charged
		return vmem.Append(held, l.rangeItems(0)...)
	}
	// a filtered loop's items ahead are among its source's
	return vmem.Append(held, l.items...)
}

func (l *loop) Repr() string {
	return fmt.Sprintf("<LoopContext %d/%d>", l.i+1, l.length())
}

type loopMethod struct {
	l    *loop
	name string
}

func (m *loopMethod) CallName() string { return "loop." + m.name }

func (m *loopMethod) Call(c value.Ctx, args *value.Args) value.Value {
	var pos []value.Value
	if args != nil {
		pos = args.Pos
	}
	switch m.name {
	case "cycle":
		if len(pos) == 0 {
			errs.Throw(errs.Type, "no items for cycling given")
		}
		return pos[m.l.i%len(pos)]
	default: // changed
		cur := value.NewTuple(vmem.Append([]value.Value(nil), pos...))
		c.Charge(int64(len(pos))*budget.Elem, "loop.changed")
		if m.l.hasLast && value.Equal(c, m.l.last, cur) {
			return value.False
		}
		m.l.last, m.l.hasLast = cur, true
		return value.True
	}
}

// superFn renders the next block of a chain: super().
type superFn struct {
	chain []*blockRef
	i     int
	sc    *scope
}

func (s *superFn) CallName() string { return "super" }

// TypeName implements value.ObjectImpl: Jinja2's super is a
// BlockReference (jinja2.runtime), callable and with attributes.
func (s *superFn) TypeName() string { return "BlockReference" }

// Attr implements value.ObjectImpl: BlockReference.name, the block's name,
// and .super, the block after this one in the chain (undefined past the
// last, as BlockReference.super).
func (s *superFn) Attr(c value.Ctx, name string) (value.Value, bool) {
	if len(s.chain) == 0 {
		return value.Value{}, false
	}
	switch name {
	case "name":
		return value.FromString(s.chain[0].block.Name), true
	case "super":
		if s.i+1 >= len(s.chain) {
			return value.UndefHint("", "no parent block called "+errs.Quote(s.chain[0].block.Name)+"."), true
		}
		return value.FromObject(&superFn{chain: s.chain, i: s.i + 1, sc: s.sc}), true
	}
	return value.Value{}, false
}

func (s *superFn) Call(c value.Ctx, args *value.Args) value.Value {
	r := c.(*renderer)
	out := r.capture(func() { r.renderBlock(s.chain, s.i, s.sc) })
	return r.markupOrString(captured{s: out})
}

// module is an imported template: its exported macros and variables.
type module struct {
	name string
	vars *scope
	// body is the output of the module's top level, which is what the
	// module prints as (Jinja's TemplateModule.__str__), as markup.
	body string
}

func (m *module) TypeName() string { return "TemplateModule" }

// TemplateString is what the module prints: its rendered body.
func (m *module) TemplateString() string { return m.body }

// HTML is the module's markup (Python's __html__): its body was rendered
// under the render's escaping, so printing it does not escape it again.
func (m *module) HTML() string { return m.body }

func (m *module) Attr(c value.Ctx, name string) (value.Value, bool) {
	return m.vars.lookupLocal(name)
}

// selfObj is Jinja's `self`: each block of the running template chain as a
// callable.
type selfObj struct {
	fr *frame
}

func (s *selfObj) TypeName() string { return "TemplateReference" }

func (s *selfObj) Attr(c value.Ctx, name string) (value.Value, bool) {
	chain := s.fr.blocks[name]
	if len(chain) == 0 {
		return value.Value{}, false
	}
	return value.FromObject(&superFn{chain: chain, i: 0, sc: s.fr.root}), true
}

// Callable implements value.CallableState: a loop object is callable (and
// so not data, rule P10) in a recursive loop only.
func (l *loop) Callable() bool { return l.node.Recursive }

// StringMethod is what a template gets reading attribute name of the
// string s: the method (or data attribute) and found, or refused when
// the name is one the audited method list refuses (a caller should then
// refuse it as a security error, as the engine does), or neither. A host
// object that presents a string's methods (a str subclass, a string
// enum member) delegates its unknown attributes to it; the built-in
// registries themselves are not exported.
func StringMethod(c value.Ctx, s, name string) (m value.Value, found, refused bool) {
	m, st, _ := builtins.LookupMethod(c, value.FromString(s), name)
	return m, st == builtins.MethodFound, st == builtins.MethodRefused
}
