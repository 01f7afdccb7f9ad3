package engine

import (
	"slices"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/ordered"
	"github.com/jinjabox/jinjabox/engine/syntax"
	"github.com/jinjabox/jinjabox/engine/value"
)

// renderTemplate runs t's body in root, then, while {% extends %} set a
// parent, the parent's body with the child's blocks first in each chain.
func (r *renderer) renderTemplate(t *Template, root *scope) {
	r.enter()
	savedFr, savedCur, savedSup := r.fr, r.cur, r.suppress
	var fr *frame
	if savedFr == nil && r.topFrame.tmpl == nil {
		// the render's own template: the pooled renderer's frame
		r.topFrame = frame{tmpl: t, root: root}
		fr = &r.topFrame
	} else {
		fr = &frame{tmpl: t, root: root}
	}
	if len(t.tree.Blocks) > 0 {
		fr.blocks = make(map[string][]*blockRef, len(t.tree.Blocks))
		for _, name := range ordered.Keys(t.tree.Blocks) {
			fr.blocks[name] = []*blockRef{{block: t.tree.Blocks[name], tmpl: t}}
		}
	}
	r.fr, r.cur = fr, t
	r.bindUnassigned(t.info.rootUnassigned, root)
	r.execStmts(t.tree.Body, root)
	for fr.parent != nil {
		p := fr.parent
		fr.parent = nil
		r.suppress = savedSup
		if fr.blocks == nil && len(p.tree.Blocks) > 0 {
			fr.blocks = make(map[string][]*blockRef, len(p.tree.Blocks))
		}
		for _, name := range ordered.Keys(p.tree.Blocks) {
			fr.blocks[name] = append(fr.blocks[name], &blockRef{block: p.tree.Blocks[name], tmpl: p})
		}
		fr.tmpl, r.cur = p, p
		r.bindUnassigned(p.info.rootUnassigned, root)
		r.execStmts(p.tree.Body, root)
	}
	r.fr, r.cur, r.suppress = savedFr, savedCur, savedSup
	r.leave()
}

func (r *renderer) execStmts(body []syntax.Stmt, sc *scope) {
	for _, st := range body {
		// static text, a third of most bodies, without exec's frame
		if t, ok := st.(*syntax.Text); ok {
			r.text(t)
			continue
		}
		r.exec(st, sc)
	}
}

// text runs a Text statement: its step and bytes, then the bytes.
func (r *renderer) text(n *syntax.Text) {
	if r.quiet() {
		return
	}
	if units := int64(len(n.Text)) + budget.Step; !r.spent(units) {
		r.Charge(units, "static text")
	}
	r.write(n.Text)
}

// quiet reports whether output statements are skipped: a template that
// extends another renders only through its parent.
func (r *renderer) quiet() bool { return r.suppress && r.capturing == 0 }

// exec runs one statement. Every statement that runs charges at least a
// step, as Starlark counts every instruction: static text its step and
// bytes, output the printed value's step, the others a step of their own
// (an if a step per condition tested, a loop a step plus one per
// iteration, a set its step, namespace assignments included). Expression
// nodes charge in eval: operators, filters, tests and literals a step,
// calls a call, lookups an element. A skipped output statement of an
// extending template costs nothing and does nothing.
func (r *renderer) exec(st syntax.Stmt, sc *scope) {
	// one recursion step a statement (enter): a statement nests bodies and
	// expressions
	r.depth++
	if r.depth > r.maxDepth {
		r.recursionFail()
	}
	r.execNode(st, sc)
	r.depth--
}

// execNode is exec's work, counted by exec.
func (r *renderer) execNode(st syntax.Stmt, sc *scope) {
	switch n := st.(type) {
	case *syntax.Text:
		r.text(n)
	case *syntax.Output:
		if r.quiet() {
			return
		}
		r.pos = n.P
		var v value.Value
		if !n.Const || !r.evalFolded(n.X, sc, &v) {
			v = r.eval(n.X, sc)
		}
		r.pos = n.P
		r.printValue(v)
	case *syntax.If:
		for {
			r.pos = n.P
			r.step("if")
			if r.cond(n.Cond, sc) {
				r.execStmts(n.Body, sc)
				return
			}
			if len(n.Else) == 1 {
				if elif, ok := n.Else[0].(*syntax.If); ok {
					n = elif
					continue
				}
			}
			r.execStmts(n.Else, sc)
			return
		}
	case *syntax.For:
		r.pos = n.P
		r.step("for")
		var iter value.Value
		if call, ok := n.Iter.(*syntax.Call); ok && !n.Recursive {
			// the loop is the only reader of a range it calls for itself
			// (value.NewLazyRange): a recursive loop hands its iterable on
			saved := r.loopIter
			r.loopIter = call
			iter = r.eval(n.Iter, sc)
			r.loopIter = saved
		} else {
			iter = r.eval(n.Iter, sc)
		}
		if !n.Recursive {
			r.runLoop(n, sc, iter, 1)
			return
		}
		// A recursive loop is a function in Jinja2 that joins its own
		// output (loop(...) returns concat(buffer)), at its outermost
		// run too: a filter block's non-string result fails there,
		// before anything after the loop runs.
		saved := r.join
		r.join = pendingJoin{}
		r.runLoop(n, sc, iter, 1)
		r.joined()
		r.join = saved
	case *syntax.Set:
		r.pos = n.P
		r.step("set")
		v := r.eval(n.X, sc)
		r.assign(n.Target, v, sc)
	case *syntax.SetBlock:
		r.pos = n.P
		r.step("set block")
		// The body is a frame of its own in Jinja2 (an inner frame of
		// the compiler): what it assigns stays in it.
		inner := newScope(sc, 0)
		r.bindUnassigned(r.cur.info.unassignedAt(frameKey{node: n}), inner)
		s := r.captureStmts(n.Body, inner)
		v := r.markupOrString(s)
		if n.Filter != nil {
			v = r.applyFilterChain(n.Filter, v, sc)
		}
		r.assign(n.Target, v, sc)
	case *syntax.With:
		r.pos = n.P
		// each target is a binding, a step as a set statement is: the
		// slot charged before let 16,384 bindings run at 22 ns and 57
		// bytes a unit (docs/COSTS.md)
		r.Charge(budget.Mul(int64(len(n.Values))+1, budget.Step), "with")
		// Values see the enclosing scope, not the targets beside them.
		vals := vmem.Fresh(make([]value.Value, len(n.Values)))
		for i, x := range n.Values {
			vals[i] = r.eval(x, sc)
		}
		// sized for its targets: its bindings and their index grow once
		inner := newScope(sc, len(n.Targets))
		r.bindUnassigned(r.cur.info.unassignedAt(frameKey{node: n}), inner)
		for i, t := range n.Targets {
			r.assign(t, vals[i], inner)
		}
		r.execStmts(n.Body, inner)
	case *syntax.Macro:
		r.pos = n.P
		r.step("macro definition")
		m := &macro{name: n.Name, params: n.Params, body: n.Body, closure: sc, tmpl: r.cur, info: r.cur.info.macros[n], autoescape: r.autoescape}
		sc.set(n.Name, value.FromCallable(m))
	case *syntax.CallBlock:
		if r.quiet() {
			return
		}
		r.pos = n.P
		r.step("call block")
		caller := &macro{name: "caller", params: n.Params, body: n.Body, closure: sc, tmpl: r.cur, info: r.cur.info.calls[n], isCaller: true, autoescape: r.autoescape}
		fn := r.eval(n.Call.Fn, sc)
		args, kw := r.evalArgs(&n.Call.CallArgs, sc)
		// a new Args: evalArgs may return shared arguments (CallArgs.Fixed)
		args = &value.Args{Pos: args.Pos, Kw: append(slices.Clip(args.Kw), value.KV{Key: "caller", Val: value.FromCallable(caller)})}
		r.pos = n.P
		v := r.callValue(fn, args)
		r.argsDone(kw, false)
		r.printValue(v)
	case *syntax.FilterBlock:
		if r.quiet() {
			return
		}
		r.pos = n.P
		r.step("filter block")
		inner := newScope(sc, 0) // its own frame, as a set block's
		r.bindUnassigned(r.cur.info.unassignedAt(frameKey{node: n}), inner)
		s := r.captureStmts(n.Body, inner)
		v := r.applyFilterChain(n.Filter, r.markupOrString(s), sc)
		// Jinja2 yields the filter's result into the output as it is: not
		// escaped again under autoescape, and anything but a string breaks
		// the join of the output (TypeError).
		if v.Kind() != value.String {
			r.failJoin(v) // raised where the output is joined
			return
		}
		if !v.IsSafe() {
			v = value.Safe(v.Str())
		}
		r.printValue(v)
	case *syntax.Autoescape:
		r.pos = n.P
		r.step("autoescape")
		on := r.eval(n.X, sc).Truth()
		saved := r.autoescape
		r.autoescape = on
		inner := newScope(sc, 0) // its own frame, as a set block's
		r.bindUnassigned(r.cur.info.unassignedAt(frameKey{node: n}), inner)
		r.execStmts(n.Body, inner)
		r.autoescape = saved
	case *syntax.Block:
		if r.quiet() {
			return
		}
		r.pos = n.P
		r.step("block")
		chain := r.fr.blocks[n.Name]
		if len(chain) == 0 {
			chain = []*blockRef{{block: n, tmpl: r.cur}}
		}
		r.renderBlock(chain, 0, sc)
	case *syntax.Extends:
		r.pos = n.P
		r.step("extends")
		if r.fr.parent != nil {
			errs.Throw(errs.Render, "extended multiple times")
		}
		t := r.loadTemplate(r.eval(n.Template, sc), false)
		r.fr.parent = t
		r.suppress = true
	case *syntax.Include:
		if r.quiet() {
			return
		}
		r.pos = n.P
		r.step("include")
		t := r.loadTemplate(r.eval(n.Template, sc), n.IgnoreMissing)
		if t == nil {
			return
		}
		root := &scope{parent: sc, boundary: true}
		if !n.WithContext {
			root = &scope{isolated: true}
		}
		r.renderTemplate(t, root)
	case *syntax.Import:
		r.pos = n.P
		r.step("import")
		t := r.loadTemplate(r.eval(n.Template, sc), false)
		sc.set(n.Target, value.FromObject(r.module(t, n.WithContext, sc)))
	case *syntax.FromImport:
		r.pos = n.P
		r.Charge(budget.Step+int64(len(n.Names))*budget.Elem, "import")
		t := r.loadTemplate(r.eval(n.Template, sc), false)
		mod := r.module(t, n.WithContext, sc)
		for _, in := range n.Names {
			v, ok := mod.vars.lookupLocal(in.Name)
			if !ok {
				v = value.UndefHint(in.Name, "the template "+errs.Quote(t.name)+" does not export the requested name "+errs.Quote(in.Name))
			}
			sc.set(in.Alias, v)
		}
	default:
		errs.Throwf(errs.Internal, "unknown statement %T", st)
	}
}

// evalFolded evaluates a constant output expression as Jinja2's compiler
// does at compile time (Output.Const): a slice's TypeError there is an
// undefined value. Where that evaluation fails, Jinja2 compiles the
// expression for the render instead (nodes.Impossible), so evalFolded
// reports false and the caller evaluates it again as any other; a budget
// or internal error is no such failure and stands. The state the failed
// evaluation left (depth, keywords in flight) is restored first.
func (r *renderer) evalFolded(x syntax.Expr, sc *scope, v *value.Value) (ok bool) {
	depth, kw, saved := r.depth, len(r.kwStack), r.folding
	r.folding = true
	defer func() {
		r.folding = saved
		if p := recover(); p != nil {
			e, isErr := p.(*errs.Error)
			if !isErr || e.Kind == errs.Budget || e.Kind == errs.Internal {
				panic(p)
			}
			r.depth, r.kwStack = depth, r.kwStack[:kw]
			ok = false
		}
	}()
	*v = r.eval(x, sc)
	return true
}

// truth is bool(v), which strict undefined refuses.
func (r *renderer) truth(v value.Value) bool {
	if v.IsUndefined() && r.Strict() {
		vops.ThrowUndefined(v)
	}
	return v.Truth()
}

func (r *renderer) assign(target syntax.Expr, v value.Value, sc *scope) {
	switch t := target.(type) {
	case *syntax.Name:
		sc.set(t.Name, v)
	case *syntax.TupleLit:
		items := r.unpack(v, len(t.Items))
		for i, it := range t.Items {
			r.assign(it, items[i], sc)
		}
	case *syntax.NSRef:
		if privateName(t.Attr) {
			errs.Throwf(errs.Security, "assignment to attribute %s of a namespace is unsafe", errs.Quote(t.Attr))
		}
		nsv := r.lookupName(t.NS, sc)
		ns, ok := nsv.ObjectImpl().(*value.Namespace)
		if !ok {
			errs.Throw(errs.Render, "cannot assign attribute on non-namespace object")
		}
		ns.Set(r, t.Attr, v)
	default:
		errs.Throwf(errs.Syntax, "cannot assign to %T", target)
	}
}

// runLoop runs a for loop over iter at the given recursion depth. Each
// iteration is charged before its item is drawn; a string is walked one
// character at a time (never materialised first).
func (r *renderer) runLoop(n *syntax.For, sc *scope, iter value.Value, depth int) {
	lp := &loop{r: r, depth: depth, node: n, sc: sc, n: -1}
	if start, stop, step, ok := value.LazyRangeOf(iter); ok {
		lp.rng = &rangeCursor{start: start, stop: stop, step: step, n: int(value.RangeLen(start, stop, step))}
		lp.n = lp.rng.n
	} else if iter.Kind() == value.String {
		lp.str = &strCursor{s: iter.Str()}
	} else {
		lp.items = value.Iterate(r, iter)
		lp.n = len(lp.items)
	}
	inner := newScope(sc, 4)
	if n.Filter != nil {
		lp.filter, lp.fsc = n.Filter, newScope(sc, 2)
	}
	if lp.empty() {
		if !r.spent(budget.Step) {
			r.Charge(budget.Step, "loop")
		}
		// the else is a frame of its own (for_branch="else")
		els := newScope(sc, 0)
		r.bindUnassigned(r.cur.info.unassignedAt(frameKey{n, branchElse}), els)
		r.execStmts(n.Else, els)
		return
	}
	lv := value.FromObject(lp)
	unassigned := r.cur.info.unassignedAt(frameKey{n, branchBody})
	for i := 0; ; i++ {
		it, ok := lp.draw("loop iteration")
		if !ok {
			return
		}
		lp.i = i
		// Each iteration starts from the enclosing scope: a set in the
		// body does not carry into the next iteration (Jinja's scoping).
		inner.reset()
		inner.set("loop", lv)
		r.assign(n.Target, it, inner)
		r.bindUnassigned(unassigned, inner)
		r.execStmts(n.Body, inner)
	}
}

// renderBlock renders chain[i] with super() bound to chain[i+1].
func (r *renderer) renderBlock(chain []*blockRef, i int, sc *scope) {
	ref := chain[i]
	if ref.block.Required && i == len(chain)-1 {
		errs.Throwf(errs.Render, "required block %s not found", errs.Quote(ref.block.Name))
	}
	r.enter()
	parent := r.fr.root
	if ref.block.Scoped {
		parent = sc
	}
	bs := &scope{parent: parent, boundary: true}
	r.bindUnassigned(ref.tmpl.info.unassignedAt(frameKey{node: ref.block}), bs)
	if i+1 < len(chain) {
		bs.set("super", value.FromObject(&superFn{chain: chain, i: i + 1, sc: sc}))
	}
	// A block is a function of its own in Jinja2, compiled with the
	// environment's autoescape: an {% autoescape %} around it does not
	// reach into it (the block's frame has a fresh EvalContext).
	savedCur, savedEsc := r.cur, r.autoescape
	r.cur = ref.tmpl
	r.autoescape = r.env.opts.Autoescape
	r.execStmts(ref.block.Body, bs)
	r.cur, r.autoescape = savedCur, savedEsc
	r.leave()
}

// applyFilterChain applies a filter chain whose innermost operand is v
// (filter blocks and set blocks).
func (r *renderer) applyFilterChain(f *syntax.Filter, v value.Value, sc *scope) value.Value {
	if f.X != nil {
		inner, ok := f.X.(*syntax.Filter)
		if !ok {
			errs.Throw(errs.Internal, "malformed filter chain")
		}
		v = r.applyFilterChain(inner, v, sc)
	}
	r.pos = f.P
	args, kw := r.evalArgs(&f.CallArgs, sc)
	if !r.spent(budget.Step) {
		r.chargeNamed(budget.Step, "filter", f.Name)
	}
	v = r.CallFilter(f.Name, v, args)
	r.argsDone(kw, false)
	return v
}

// loadTemplate resolves an include/import/extends target in the trusted
// template set; untrusted environments have none (a render error).
func (r *renderer) loadTemplate(name value.Value, ignoreMissing bool) *Template {
	names := []value.Value{name}
	if name.IsSeq() {
		names = name.Items()
	}
	for _, nv := range names {
		if !nv.IsString() {
			if nv.IsUndefined() {
				vops.ThrowUndefined(nv)
			}
			continue
		}
		t, err, ok := r.env.loadTrusted(nv.Str())
		if !ok {
			continue
		}
		if err != nil {
			errs.Raise(err)
		}
		r.Charge(budget.Step+int64(len(t.tree.Source)), "loading template")
		return t
	}
	if ignoreMissing {
		return nil
	}
	e := errs.New(errs.Render, "template not found: "+errs.Quote(shownValue(name)))
	e.PyError = "TemplateNotFound"
	panic(e)
}

// module renders t for import and returns its exported names.
func (r *renderer) module(t *Template, withContext bool, sc *scope) *module {
	root := &scope{isolated: true}
	if withContext {
		root = &scope{parent: sc, boundary: true}
	}
	vars := &scope{parent: root}
	body := r.capture(func() { r.renderTemplate(t, vars) })
	return &module{name: t.name, vars: vars, body: body}
}
