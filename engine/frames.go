package engine

import (
	"slices"

	"github.com/jinjabox/jinjabox/engine/ordered"
	"github.com/jinjabox/jinjabox/engine/syntax"
)

// Jinja2 decides at compile time which frame a name belongs to
// (jinja2/idtracking.py: Symbols, RootVisitor, FrameSymbolVisitor). A name
// that a frame assigns, with no read of it in the frame before the
// assignment and no binding of it in an enclosing frame, starts that
// frame as "missing" (VAR_LOAD_UNDEFINED): a nested frame (a loop body, a
// macro, a set or filter block, a with) that reads it before the
// assignment runs reads an undefined value, never the render's data of
// the same name. jinjabox looks names up through its chain of scopes at
// render time, which finds the data there; so the static pass below
// computes, per frame, those names, and the renderer binds each to an
// unassigned undefined (value.Unassigned) as the frame starts.
//
// Only names some nested frame reads are bound: in the frame itself a
// read that comes after the assignment in the source also comes after
// it at render time (the frame has no loop of its own, and an if binds
// a name for the whole frame only when every branch assigns it), so
// there the binding cannot be observed. A lookup that crosses into a
// block or an included template skips the binding: Jinja2 hands those
// the context, where no missing name is put (Context.derived,
// Template.new_context).

// symKind is how a frame's name starts (idtracking's VAR_LOAD_*).
type symKind uint8

const (
	symParam     symKind = iota // a parameter or loop target
	symResolve                  // read from the enclosing data first
	symAlias                    // a copy of an enclosing frame's binding
	symUndefined                // missing until assigned
)

// symbols is idtracking.Symbols for one frame, or a copy of one made for
// a branch of an if (base): a copy holds only what the branch adds, and
// its lookups fall through to base, so a branch costs what it binds, not
// what the frame already holds.
type symbols struct {
	step   func()   // counts a step of the analysis (unassignedNames)
	parent *symbols // the enclosing frame's
	base   *symbols // the symbols this branch copy was made from
	refs   map[string]symKind
	stores map[string]struct{}
	// hint sizes refs and stores when they are made: the root frame's is
	// every name the template stores (most stored at its top level, as
	// 50,000 top-level sets are), so its maps are made once, not grown
	// through a dozen rehashes; a macro's or call block's is its number
	// of parameters; another frame's is 0
	hint int
}

func (s *symbols) local(name string) (symKind, bool) {
	for c := s; c != nil; c = c.base {
		if k, ok := c.refs[name]; ok {
			return k, true
		}
	}
	return 0, false
}

func (s *symbols) stored(name string) bool {
	for c := s; c != nil; c = c.base {
		if _, ok := c.stores[name]; ok {
			return true
		}
	}
	return false
}

// findRef reports whether this frame or an enclosing one has a reference
// for name (Symbols.find_ref).
func (s *symbols) findRef(name string) bool {
	for f := s; f != nil; f = f.parent {
		if s.step != nil {
			s.step()
		}
		if _, ok := f.local(name); ok {
			return true
		}
	}
	return false
}

func (s *symbols) define(name string, k symKind) {
	if s.refs == nil {
		s.refs = make(map[string]symKind, s.hint)
	}
	s.refs[name] = k
}

func (s *symbols) addStore(name string) {
	if s.stores == nil {
		s.stores = make(map[string]struct{}, s.hint)
	}
	s.stores[name] = struct{}{}
}

// store is Symbols.store.
func (s *symbols) store(name string) {
	s.addStore(name)
	if _, ok := s.local(name); ok {
		return
	}
	if s.parent != nil && s.parent.findRef(name) {
		s.define(name, symAlias)
		return
	}
	s.define(name, symUndefined)
}

// param is Symbols.declare_parameter.
func (s *symbols) param(name string) {
	s.addStore(name)
	s.define(name, symParam)
}

// load is Symbols.load.
func (s *symbols) load(name string) {
	if !s.findRef(name) {
		s.define(name, symResolve)
	}
}

// branchUpdate is Symbols.branch_update: the branches' bindings join the
// frame's, and a name some branch assigns but not every one starts from
// the enclosing frame or the data, not missing. Each Python branch is a
// full copy of the frame's symbols, joined in order, so for a name the
// frame had before, the last branch decides (its own kind if it changed
// it, else the frame's); a branch here holds only its changes.
func (s *symbols) branchUpdate(branches []*symbols) {
	count := map[string]int{}
	for _, b := range branches {
		for _, name := range ordered.Keys(b.stores) {
			if !s.stored(name) {
				count[name]++
			}
		}
	}
	joined := map[string]symKind{}
	for _, b := range branches {
		for _, c := range branches {
			for _, name := range ordered.Keys(c.refs) {
				if k, ok := b.refs[name]; ok {
					joined[name] = k
				} else if k, ok := s.local(name); ok {
					joined[name] = k
				}
			}
		}
	}
	for _, name := range ordered.Keys(joined) {
		s.define(name, joined[name])
	}
	for _, b := range branches {
		for _, name := range ordered.Keys(b.stores) {
			s.addStore(name)
		}
	}
	for _, name := range ordered.Keys(count) {
		n := count[name]
		if n == len(branches) {
			continue
		}
		if s.parent != nil && s.parent.findRef(name) {
			s.define(name, symAlias)
			continue
		}
		s.define(name, symResolve)
	}
}

// frameScan analyses one frame: its symbols, the names it reads, and the
// frames nested in it, analysed once it is complete (as Jinja2 compiles
// an inner frame after its parent's analysis).
type frameScan struct {
	sym    *symbols
	reads  nameSet
	nested []nestedFrame
	stored map[string]bool // storedNames
}

// nestedFrame is a frame inside another: the node that makes it and which
// of its frames (a for has a body and an else).
type nestedFrame struct {
	node   any
	branch frameBranch
}

type frameBranch uint8

const (
	branchBody frameBranch = iota
	branchElse
	branchTest // a loop's filter (for_branch="test")
)

// frameKey names a frame for the renderer: the node that makes it and
// the branch (the template's root is its *syntax.Template).
type frameKey struct {
	node   any // a syntax.Node, or the *syntax.Template
	branch frameBranch
}

// unassignedNames computes, for every frame of t that needs any, the
// names the renderer binds to an unassigned undefined when the frame
// starts, sorted. The analysis walks enclosing frames for each name a
// frame reads (Jinja2's find_ref), so its work grows with names times
// nesting: step counts it and charges the parse meter as it goes (units a
// step), and a template whose scoping would cost more than its budget is
// refused as any other work is.
func unassignedNames(t *syntax.Template, step func()) map[frameKey][]string {
	out := map[frameKey][]string{}
	stored := storedNames(t.Body)
	analyseFrame(frameKey{node: t}, nil, out, stored, step)
	return out
}

// storedNames is every name the template assigns anywhere: only those
// can start a frame missing, so reads of any other name need no tracking.
func storedNames(body []syntax.Stmt) map[string]bool {
	out := map[string]bool{}
	target := func(t syntax.Expr) { syntax.TargetNames(t, func(name string) { out[name] = true }) }
	var visit func(syntax.Node)
	visit = func(n syntax.Node) {
		switch x := n.(type) {
		case *syntax.Set:
			target(x.Target)
		case *syntax.SetBlock:
			target(x.Target)
		case *syntax.With:
			for _, t := range x.Targets {
				target(t)
			}
		case *syntax.Macro:
			out[x.Name] = true
		case *syntax.Import:
			out[x.Target] = true
		case *syntax.FromImport:
			for _, in := range x.Names {
				out[in.Alias] = true
			}
		case syntax.Expr:
			return
		}
		syntax.EachChild(n, visit)
	}
	for _, s := range body {
		visit(s)
	}
	return out
}

// nameSet is a set of names that keeps their first-insertion order, so
// the analysis walks it the same way every run without sorting it.
type nameSet struct {
	list []string
	has  map[string]struct{}
}

func (n *nameSet) add(name string) bool {
	if _, ok := n.has[name]; ok {
		return false
	}
	if n.has == nil {
		n.has = map[string]struct{}{}
	}
	n.has[name] = struct{}{}
	n.list = append(n.list, name)
	return true
}

// analyseFrame analyses the frame k under parent, records its names in
// out and returns every name (of stored) read in it and the frames
// nested in it.
func analyseFrame(k frameKey, parent *symbols, out map[frameKey][]string, stored map[string]bool, step func()) *nameSet {
	f := &frameScan{sym: &symbols{parent: parent, step: step}, stored: stored}
	switch n := k.node.(type) {
	case *syntax.Template:
		f.sym.hint = len(stored)
	case *syntax.Macro:
		// a macro's parameters are each a name of its frame (a macro of
		// 50,000 parameters grew its two maps through a dozen rehashes)
		f.sym.hint = len(n.Params)
	case *syntax.CallBlock:
		f.sym.hint = len(n.Params)
	}
	f.root(k)
	// the names read below: the largest nested frame's set, taken over,
	// and the others' added to it (each name moves up only when it joins
	// a larger set: the union costs the names times a logarithm, not the
	// names times the nesting)
	var sets []*nameSet
	for _, n := range f.nested {
		if b, ok := n.node.(*syntax.Block); ok {
			// a block is a frame of its own with no enclosing one
			// (compiler.visit_Template: block_frame = Frame(eval_ctx))
			analyseFrame(frameKey{node: b}, nil, out, stored, step)
			continue
		}
		sets = append(sets, analyseFrame(frameKey(n), f.sym, out, stored, step))
	}
	below := &nameSet{}
	for _, set := range sets {
		if len(set.list) > len(below.list) {
			below = set
		}
	}
	for _, set := range sets {
		if set == below {
			continue
		}
		for _, name := range set.list {
			step()
			below.add(name)
		}
	}
	// the frame's unassigned names read below it, sorted: only these
	// (sorting every name the frame refers to, to walk them in order,
	// was a sixth of parsing 50,000 top-level sets)
	var names []string
	//workflowcheck:ignore the names are sorted below
	for name, kind := range f.sym.refs {
		step()
		if _, ok := below.has[name]; ok && kind == symUndefined {
			names = append(names, name)
		}
	}
	if len(names) > 0 {
		slices.Sort(names)
		out[k] = names
	}
	for _, name := range f.reads.list {
		step()
		below.add(name)
	}
	return below
}

// root is RootVisitor: what of the frame's node belongs to the frame.
func (f *frameScan) root(k frameKey) {
	switch n := k.node.(type) {
	case *syntax.Template:
		f.stmts(n.Body)
	case *syntax.Block:
		f.stmts(n.Body)
	case *syntax.For:
		switch k.branch {
		case branchElse:
			f.stmts(n.Else)
			return
		case branchTest:
			f.params(n.Target)
			f.expr(n.Filter)
			return
		}
		f.params(n.Target)
		f.stmts(n.Body)
	case *syntax.Macro:
		f.macro(n.Params, n.Body)
	case *syntax.CallBlock:
		f.macro(n.Params, n.Body)
	case *syntax.SetBlock:
		// the filter is compiled in the block's frame but not analysed in
		// any (a name there is Jinja2's AssertionError; jinjabox reads it
		// from the enclosing scope, docs/COMPATIBILITY.md)
		f.stmts(n.Body)
	case *syntax.FilterBlock:
		f.stmts(n.Body)
		f.expr(n.Filter)
	case *syntax.With:
		for _, t := range n.Targets {
			f.target(t)
		}
		f.stmts(n.Body)
	case *syntax.Autoescape:
		// parsed to Scope(ScopedEvalContextModifier(...)): the value and
		// the body are the scope's
		f.expr(n.X)
		f.stmts(n.Body)
	}
}

func (f *frameScan) macro(params []syntax.Param, body []syntax.Stmt) {
	for _, p := range params {
		f.sym.param(p.Name)
	}
	for _, p := range params {
		if p.Default != nil {
			f.expr(p.Default)
		}
	}
	f.stmts(body)
}

func (f *frameScan) stmts(body []syntax.Stmt) {
	for _, s := range body {
		f.stmt(s)
	}
}

// stmt is FrameSymbolVisitor on a statement of the frame.
func (f *frameScan) stmt(s syntax.Stmt) {
	switch n := s.(type) {
	case *syntax.Output:
		f.expr(n.X)
	case *syntax.If:
		f.ifStmt(n)
	case *syntax.For:
		f.expr(n.Iter)
		f.nested = append(f.nested, nestedFrame{n, branchBody})
		if len(n.Else) > 0 {
			f.nested = append(f.nested, nestedFrame{n, branchElse})
		}
		if n.Filter != nil {
			f.nested = append(f.nested, nestedFrame{n, branchTest})
		}
	case *syntax.Set:
		f.expr(n.X)
		f.target(n.Target)
	case *syntax.SetBlock:
		f.target(n.Target)
		f.nested = append(f.nested, nestedFrame{n, branchBody})
	case *syntax.With:
		for _, v := range n.Values {
			f.expr(v)
		}
		f.nested = append(f.nested, nestedFrame{n, branchBody})
	case *syntax.Macro:
		f.sym.store(n.Name)
		f.nested = append(f.nested, nestedFrame{n, branchBody})
	case *syntax.CallBlock:
		f.expr(n.Call)
		f.nested = append(f.nested, nestedFrame{n, branchBody})
	case *syntax.FilterBlock:
		f.expr(n.Filter)
		f.nested = append(f.nested, nestedFrame{n, branchBody})
	case *syntax.Autoescape:
		f.nested = append(f.nested, nestedFrame{n, branchBody})
	case *syntax.Block:
		f.nested = append(f.nested, nestedFrame{n, branchBody})
	case *syntax.Extends:
		f.expr(n.Template)
	case *syntax.Include:
		f.expr(n.Template)
	case *syntax.Import:
		f.expr(n.Template)
		f.sym.store(n.Target)
	case *syntax.FromImport:
		f.expr(n.Template)
		for _, in := range n.Names {
			f.sym.store(in.Alias)
		}
	}
}

// ifStmt is FrameSymbolVisitor.visit_If: each branch binds in a copy of
// the frame's symbols, joined by branchUpdate. Jinja2's If holds its
// elifs in one list, analysed in one copy, and the else after them;
// jinjabox nests each elif in the Else of the one before (syntax.If.Elif).
func (f *frameScan) ifStmt(n *syntax.If) {
	f.expr(n.Cond)
	var elifs []*syntax.If
	last := n
	for len(last.Else) == 1 {
		e, ok := last.Else[0].(*syntax.If)
		if !ok || !e.Elif {
			break
		}
		elifs = append(elifs, e)
		last = e
	}
	orig := f.sym
	branch := func(visit func()) *symbols {
		f.sym = &symbols{parent: orig.parent, base: orig, step: orig.step}
		visit()
		b := f.sym
		f.sym = orig
		return b
	}
	body := branch(func() { f.stmts(n.Body) })
	elif := branch(func() {
		for _, e := range elifs {
			// an elif is an If of its own with no elif or else
			f.expr(e.Cond)
			inner := f.sym
			eb := &symbols{parent: inner.parent, base: inner, step: inner.step}
			f.sym = eb
			f.stmts(e.Body)
			f.sym = inner
			inner.branchUpdate([]*symbols{eb, {}, {}})
		}
	})
	els := branch(func() { f.stmts(last.Else) })
	f.sym.branchUpdate([]*symbols{body, elif, els})
}

// target binds an assignment target: names are stored, a namespace
// attribute reads its namespace.
func (f *frameScan) target(t syntax.Expr) {
	switch n := t.(type) {
	case *syntax.Name:
		f.sym.store(n.Name)
	case *syntax.TupleLit:
		for _, it := range n.Items {
			f.target(it)
		}
	case *syntax.NSRef:
		f.read(n.NS)
	}
}

// params binds a loop target's names as parameters.
func (f *frameScan) params(t syntax.Expr) {
	syntax.TargetNames(t, f.sym.param)
}

// read is a load of name. A name the template never assigns cannot
// start any frame missing and is skipped; a name this frame read before
// resolves as it did then (its enclosing frames are complete; a branch
// that would define it again joins to the same), so only its first read
// walks them.
func (f *frameScan) read(name string) {
	if !f.stored[name] {
		return
	}
	if !f.reads.add(name) {
		return
	}
	f.sym.load(name)
}

// expr reads every name of an expression (expressions hold no frames).
func (f *frameScan) expr(x syntax.Node) {
	if x == nil {
		return
	}
	var visit func(syntax.Node)
	visit = func(n syntax.Node) {
		if nm, ok := n.(*syntax.Name); ok {
			f.read(nm.Name)
			return
		}
		syntax.EachChild(n, visit)
	}
	visit(x)
}
