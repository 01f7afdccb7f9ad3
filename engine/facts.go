package engine

import (
	"maps"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/syntax"
	"github.com/jinjabox/jinjabox/policy"
)

// Facts are what static analysis learns about one parsed template, the
// way minijinja's undeclared_variables does, on the tree the template
// was parsed into: no second parse. All lists are in source walk order,
// deduplicated, so reports are deterministic.
type Facts struct {
	// Vars are the free variable names (read but never bound by the
	// template), excluding the environment's globals.
	Vars []NameAt
	// Filters are the filter names used, registered or not.
	Filters []NameAt
	// Private are underscore attribute names reached by dot or by a
	// literal |attr argument, except the names the environment's declared
	// surfaces read (SurfaceNames).
	Private []NameAt
	// Unguarded are reads of optional names (those the caller says may
	// be absent) outside a guard.
	Unguarded []NameAt
}

// Facts analyses the template. optional names the variables that may be
// absent from the data; Unguarded lists their reads outside a guard.
func (t *Template) Facts(optional map[string]bool) Facts {
	return t.env.facts(t.tree, optional)
}

// Check parses source and runs the environment's static pass, on one
// parse: the template's facts (nil when the source does not parse) and
// the parse or static-pass error (a *Error), if any. A validator reports
// both without parsing twice.
func (e *Environment) Check(name, source string, optional map[string]bool) (*Facts, error) {
	e = e.ready()
	m := budget.NewMeter(e.opts.Limits)
	m.Phase = budget.PhaseParse
	tree, err := syntax.Parse(name, source, e.synOpts, m)
	if err != nil {
		return nil, public(err)
	}
	f := e.facts(tree, optional)
	_, err = e.check(tree, m)
	return &f, public(err)
}

func (e *Environment) facts(tree *syntax.Template, optional map[string]bool) Facts {
	a := &analyzer{env: e, optional: optional, seen: map[string]bool{}}
	a.stmts(tree.Body, &factScope{bound: map[string]bool{}, guarded: map[string]bool{}})
	return a.info
}

// NameAt is a name and the byte offset of its first occurrence.
type NameAt struct {
	Name string
	Pos  int
}

// The analysis: every reference to an optional name must be guarded:
// under {% if var %} or {% if var is defined %} (or an "and" holding one;
// the guard extends to the right operand), in the then-arm of an inline
// "x if var else y", or in test position (a bare name or a
// defined/undefined/none test). The else arm is not guarded; "or" and
// "not" do not guard. Loop targets, macro parameters and names set
// earlier shadow.

type analyzer struct {
	env      *Environment
	optional map[string]bool
	info     Facts
	seen     map[string]bool // kind+name dedup
}

type factScope struct {
	bound   map[string]bool
	guarded map[string]bool
}

// child is a factScope whose bindings do not leak out (for, with, macro).
func (s *factScope) child() *factScope {
	return &factScope{bound: copySet(s.bound), guarded: s.guarded}
}

// guard is the same binding factScope with more guarded names (if bodies
// share bindings with the enclosing body, as in Jinja).
func (s *factScope) guard(names map[string]bool) *factScope {
	if len(names) == 0 {
		return s
	}
	g := copySet(s.guarded)
	// guardsOf's sets hold only true
	//workflowcheck:ignore a copy into a map is the same map in any order
	maps.Copy(g, names)
	return &factScope{bound: s.bound, guarded: g}
}

func copySet(m map[string]bool) map[string]bool {
	c := make(map[string]bool, len(m)+2)
	//workflowcheck:ignore a copy into a map is the same map in any order
	maps.Copy(c, m)
	return c
}

func (a *analyzer) add(list *[]NameAt, kind, name string, pos int) {
	if a.seen[kind+"\x00"+name] {
		return
	}
	a.seen[kind+"\x00"+name] = true
	*list = append(*list, NameAt{Name: name, Pos: pos})
}

// runtimeNames are always bound while rendering.
var runtimeNames = map[string]bool{"loop": true, "self": true, "varargs": true, "kwargs": true, "caller": true}

// callable analyses a macro's or call block's body: the parameter
// defaults read the defining scope, the parameters are bound in the body's.
func (a *analyzer) callable(params []syntax.Param, body []syntax.Stmt, s *factScope) {
	inner := s.child()
	for _, p := range params {
		if p.Default != nil {
			a.expr(p.Default, s, false)
		}
		inner.bound[p.Name] = true
	}
	a.stmts(body, inner)
}

func (a *analyzer) stmts(body []syntax.Stmt, s *factScope) {
	for _, st := range body {
		a.stmt(st, s)
	}
}

func (a *analyzer) bindTarget(t syntax.Expr, s *factScope) {
	switch n := t.(type) {
	case *syntax.Name:
		s.bound[n.Name] = true
	case *syntax.TupleLit:
		for _, it := range n.Items {
			a.bindTarget(it, s)
		}
	case *syntax.NSRef:
		a.name(n.NS, n.P, s, false)
	}
}

func (a *analyzer) stmt(st syntax.Stmt, s *factScope) {
	switch n := st.(type) {
	case *syntax.Output:
		a.expr(n.X, s, false)
	case *syntax.If:
		a.expr(n.Cond, s, true)
		a.stmts(n.Body, s.guard(guardsOf(n.Cond)))
		a.stmts(n.Else, s)
	case *syntax.For:
		a.expr(n.Iter, s, false)
		body := s.child()
		a.bindTarget(n.Target, body)
		if n.Filter != nil {
			a.expr(n.Filter, body, true)
		}
		a.stmts(n.Body, body)
		a.stmts(n.Else, s)
	case *syntax.Set:
		a.expr(n.X, s, false)
		a.bindTarget(n.Target, s)
	case *syntax.SetBlock:
		a.stmts(n.Body, s)
		if n.Filter != nil {
			a.expr(n.Filter, s, false)
		}
		a.bindTarget(n.Target, s)
	case *syntax.With:
		body := s.child()
		for i, v := range n.Values {
			a.expr(v, s, false)
			if i < len(n.Targets) {
				a.bindTarget(n.Targets[i], body)
			}
		}
		a.stmts(n.Body, body)
	case *syntax.Macro:
		s.bound[n.Name] = true
		a.callable(n.Params, n.Body, s)
	case *syntax.CallBlock:
		a.expr(n.Call, s, false)
		a.callable(n.Params, n.Body, s)
	case *syntax.FilterBlock:
		a.stmts(n.Body, s)
		if n.Filter != nil {
			a.expr(n.Filter, s, false)
		}
	case *syntax.Autoescape:
		a.expr(n.X, s, false)
		a.stmts(n.Body, s)
	case *syntax.Block:
		a.stmts(n.Body, s.child())
	case *syntax.Extends:
		a.expr(n.Template, s, false)
	case *syntax.Include:
		a.expr(n.Template, s, false)
	case *syntax.Import:
		a.expr(n.Template, s, false)
		s.bound[n.Target] = true
	case *syntax.FromImport:
		a.expr(n.Template, s, false)
		for _, nm := range n.Names {
			s.bound[nm.Alias] = true
		}
	}
}

// guardsOf returns the names a condition guards: a bare name, a
// "name is defined" test, or either inside an "and".
func guardsOf(e syntax.Expr) map[string]bool {
	out := map[string]bool{}
	var walk func(e syntax.Expr)
	walk = func(e syntax.Expr) {
		switch n := e.(type) {
		case *syntax.Name:
			out[n.Name] = true
		case *syntax.Test:
			if nm, ok := n.X.(*syntax.Name); ok && n.Name == "defined" && !n.Negated {
				out[nm.Name] = true
			}
		case *syntax.Binary:
			if n.Op == "and" {
				walk(n.L)
				walk(n.R)
			}
		}
	}
	walk(e)
	return out
}

// name records a variable read.
func (a *analyzer) name(name string, pos int, s *factScope, testPos bool) {
	if s.bound[name] || runtimeNames[name] {
		return
	}
	if _, global := a.env.globals[name]; global {
		return
	}
	a.add(&a.info.Vars, "var", name, pos)
	if a.optional[name] && !s.guarded[name] && !testPos {
		a.add(&a.info.Unguarded, "unguarded", name, pos)
	}
}

func (a *analyzer) private(name string, pos int) {
	if privateName(name) && !policy.SurfaceReadable(name) {
		a.add(&a.info.Private, "private", name, pos)
	}
}

func (a *analyzer) args(c *syntax.CallArgs, s *factScope) {
	for _, x := range c.Args {
		a.expr(x, s, false)
	}
	for _, kw := range c.Kwargs {
		a.expr(kw.X, s, false)
	}
	if c.DynArgs != nil {
		a.expr(c.DynArgs, s, false)
	}
	if c.DynKwargs != nil {
		a.expr(c.DynKwargs, s, false)
	}
}

// presenceTests are tests that probe presence, so their operand is a
// safe reference to an optional name.
var presenceTests = map[string]bool{"defined": true, "undefined": true, "none": true}

func (a *analyzer) expr(e syntax.Expr, s *factScope, testPos bool) {
	switch n := e.(type) {
	case nil:
	case *syntax.Name:
		a.name(n.Name, n.P, s, testPos)
	case *syntax.Attr:
		a.private(n.Name, n.P)
		a.expr(n.X, s, false)
	case *syntax.Item:
		a.expr(n.X, s, false)
		a.expr(n.Key, s, false)
	case *syntax.Fold:
		a.expr(n.X, s, testPos)
	case *syntax.Slice:
		a.expr(n.X, s, false)
		a.expr(n.Start, s, false)
		a.expr(n.Stop, s, false)
		a.expr(n.Step, s, false)
	case *syntax.Call:
		a.expr(n.Fn, s, false)
		a.args(&n.CallArgs, s)
	case *syntax.Filter:
		a.expr(n.X, s, false) // source order: the operand comes first
		a.add(&a.info.Filters, "filter", n.Name, n.P)
		if n.Name == "attr" && len(n.Args) > 0 {
			if name, ok := constString(n.Args[0]); ok {
				a.private(name, n.Args[0].Pos())
			}
		}
		a.args(&n.CallArgs, s)
	case *syntax.Test:
		a.expr(n.X, s, presenceTests[n.Name])
		a.args(&n.CallArgs, s)
	case *syntax.Unary:
		a.expr(n.X, s, testPos && n.Op == "not")
	case *syntax.Binary:
		if n.Op == "and" || n.Op == "or" {
			a.expr(n.L, s, testPos)
			r := s
			if n.Op == "and" {
				r = s.guard(guardsOf(n.L))
			}
			a.expr(n.R, r, testPos)
			return
		}
		a.expr(n.L, s, false)
		a.expr(n.R, s, false)
	case *syntax.Compare:
		a.expr(n.First, s, false)
		for _, op := range n.Ops {
			a.expr(op.X, s, false)
		}
	case *syntax.CondExpr:
		a.expr(n.Cond, s, true)
		a.expr(n.Then, s.guard(guardsOf(n.Cond)), testPos)
		a.expr(n.Else, s, testPos)
	case *syntax.ListLit:
		for _, it := range n.Items {
			a.expr(it, s, false)
		}
	case *syntax.TupleLit:
		for _, it := range n.Items {
			a.expr(it, s, false)
		}
	case *syntax.DictLit:
		for i := range n.Keys {
			a.expr(n.Keys[i], s, false)
			a.expr(n.Values[i], s, false)
		}
	case *syntax.Const, *syntax.NSRef, *syntax.RegexLit:
	}
}
