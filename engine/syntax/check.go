package syntax

import "github.com/jinjabox/jinjabox/engine/internal/errs"

// Structural checks that Jinja2 makes while compiling (jinja2/compiler.py)
// and reports as TemplateAssertionError, a syntax error. They need no
// knowledge of filters, tests or the policy, so they live with the parser.

// checkCompile runs the compiler's structural checks over body:
//   - extends only at template level or inside if (a "toplevel" frame);
//   - no store to `loop` anywhere inside a for statement;
//   - a macro or call block that names a `caller` parameter without a
//     default and uses `caller` in its body.
func (p *parser) checkCompile(body []Stmt) {
	c := compileChecker{p: p}
	c.stmts(body, true, 0)
}

type compileChecker struct{ p *parser }

func (c *compileChecker) fail(pos int, msg string) {
	e := newAssertion(msg)
	c.p.setPosOrig(e, pos)
	panic(e)
}

// stmts checks a statement list; toplevel says whether the frame is
// Jinja's toplevel frame, inFor counts enclosing for statements.
func (c *compileChecker) stmts(l []Stmt, toplevel bool, inFor int) {
	for _, s := range l {
		c.stmt(s, toplevel, inFor)
	}
}

func (c *compileChecker) target(x Expr, inFor int) {
	if inFor == 0 {
		return
	}
	switch n := x.(type) {
	case *Name:
		if n.Name == "loop" {
			c.fail(n.P, "Can't assign to special loop variable in for-loop target")
		}
	case *TupleLit:
		for _, it := range n.Items {
			c.target(it, inFor)
		}
	}
}

func (c *compileChecker) stmt(s Stmt, toplevel bool, inFor int) {
	switch n := s.(type) {
	case *Extends:
		if !toplevel {
			c.fail(n.P, "cannot use extend from a non top-level scope")
		}
	case *If:
		c.stmts(n.Body, toplevel, inFor)
		c.stmts(n.Else, toplevel, inFor)
	case *For:
		c.target(n.Target, inFor+1)
		c.stmts(n.Body, false, inFor+1)
		c.stmts(n.Else, false, inFor+1)
	case *Set:
		c.target(n.Target, inFor)
	case *SetBlock:
		c.target(n.Target, inFor)
		c.stmts(n.Body, false, inFor)
	case *With:
		c.stmts(n.Body, false, inFor)
	case *Macro:
		c.caller(n.P, n.Params, n.Body)
		c.stmts(n.Body, false, inFor)
	case *CallBlock:
		c.caller(n.P, n.Params, n.Body)
		c.stmts(n.Body, false, inFor)
	case *FilterBlock:
		c.stmts(n.Body, false, inFor)
	case *Autoescape:
		c.stmts(n.Body, false, inFor)
	case *Block:
		c.stmts(n.Body, false, inFor)
	}
}

// caller mirrors the check in CodeGenerator.macro_body.
func (c *compileChecker) caller(pos int, params []Param, body []Stmt) {
	for _, prm := range params {
		if prm.Name == "caller" && prm.Default == nil {
			if usesCaller(body) {
				c.fail(pos, `When defining macros or call blocks the special "caller" argument must be omitted or be given a default.`)
			}
			return
		}
	}
}

// usesCaller mirrors find_undeclared(body, ("caller",)): a load of the
// name `caller`, in visiting order, before any store or parameter of that
// name, not looking inside blocks.
func usesCaller(body []Stmt) bool {
	const (
		watching = iota
		found
		discarded
	)
	state := watching
	var visit func(n Node)
	bind := func(x Expr) { // a store or param target
		var names func(x Expr)
		names = func(x Expr) {
			switch t := x.(type) {
			case *Name:
				if state == watching && t.Name == "caller" {
					state = discarded
				}
			case *TupleLit:
				for _, it := range t.Items {
					names(it)
				}
			default:
				if x != nil {
					visit(x)
				}
			}
		}
		names(x)
	}
	params := func(ps []Param) {
		for _, p := range ps {
			if state == watching && p.Name == "caller" {
				state = discarded
			}
		}
		for _, p := range ps {
			if p.Default != nil {
				visit(p.Default)
			}
		}
	}
	visit = func(n Node) {
		if state != watching {
			return
		}
		switch t := n.(type) {
		case *Name:
			if t.Name == "caller" {
				state = found
			}
			return
		case *Block:
			return
		case *For:
			bind(t.Target)
			visit(t.Iter)
			for _, s := range t.Body {
				visit(s)
			}
			for _, s := range t.Else {
				visit(s)
			}
			if t.Filter != nil {
				visit(t.Filter)
			}
			return
		case *Set:
			bind(t.Target)
			visit(t.X)
			return
		case *SetBlock:
			bind(t.Target)
			if t.Filter != nil {
				visit(t.Filter)
			}
			for _, s := range t.Body {
				visit(s)
			}
			return
		case *With:
			for _, x := range t.Targets {
				bind(x)
			}
			for _, x := range t.Values {
				visit(x)
			}
			for _, s := range t.Body {
				visit(s)
			}
			return
		case *Macro:
			params(t.Params)
			for _, s := range t.Body {
				visit(s)
			}
			return
		case *CallBlock:
			visit(t.Call)
			params(t.Params)
			for _, s := range t.Body {
				visit(s)
			}
			return
		case *CondExpr:
			visit(t.Cond)
			visit(t.Then)
			if t.Else != nil {
				visit(t.Else)
			}
			return
		}
		EachChild(n, visit)
	}
	for _, s := range body {
		visit(s)
	}
	return state == found
}

// newAssertion builds the syntax error for a TemplateAssertionError, which
// Jinja raises from compile-time checks.
func newAssertion(msg string) *errs.Error {
	e := errs.New(errs.Syntax, msg)
	e.PyError = "TemplateAssertionError"
	return e
}

// checkDupKwargs refuses the first call that gives a keyword twice, in
// source order. Jinja2 generates a Python call with the keyword twice,
// which Python's compiler refuses (SyntaxError "keyword argument
// repeated") once the template has parsed, whether the call would run or
// not: not a TemplateSyntaxError, so its kind is a render error's. A
// filter or test whose operand and arguments are all constants is spared:
// Jinja2's optimizer folds it first (_FilterTestCommon.as_const, its
// keywords in a dict), so no such call is generated; the evaluator then
// passes the last value of the keyword. (When Jinja2's fold fails, the
// call is generated and refused; jinjabox then raises the call's own
// error when it runs: docs/COMPATIBILITY.md.)
// deferredDupKwargs is checkDupKwargs returning its error.
func (p *parser) deferredDupKwargs(body []Stmt) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = p.convert(r)
		}
	}()
	p.checkDupKwargs(body)
	return nil
}

func (p *parser) checkDupKwargs(body []Stmt) {
	dropped := DroppedOutputs(body)
	var visit func(n Node)
	visit = func(n Node) {
		if o, ok := n.(*Output); ok && dropped[o] {
			return // never compiled: Python never sees its call
		}
		var a *CallArgs
		var operand Expr
		folds := false
		switch n := n.(type) {
		case *Call:
			a = &n.CallArgs
		case *Filter:
			a, operand, folds = &n.CallArgs, n.X, true
		case *Test:
			a, operand, folds = &n.CallArgs, n.X, true
		}
		if x, ok := n.(Expr); ok {
			if kept := foldedAway(x); kept != nil {
				// Jinja2's optimizer folds the node to a constant operand:
				// the rest is never compiled, so Python never sees its call
				visit(kept)
				return
			}
		}
		if a != nil && a.DupKwarg != "" && !(folds && constCall(operand, a)) {
			e := errs.New(errs.Render, "keyword argument repeated: "+a.DupKwarg)
			e.PyError = "SyntaxError"
			p.setPosOrig(e, n.(Expr).Pos())
			panic(e)
		}
		EachChild(n, visit)
	}
	for _, s := range body {
		visit(s)
	}
}

// foldedAway returns, for an and/or whose left operand is a constant that
// decides it (false for and, true for or), or a conditional whose test
// is a constant and whose chosen branch is a literal, the operand Jinja2's
// optimizer folds the node to (nodes.And.as_const short-circuits, as
// CondExpr.as_const does); nil for any other node, whose operands are all
// compiled.
func foldedAway(x Expr) Expr {
	switch n := x.(type) {
	case *Binary:
		if n.Op == "and" || n.Op == "or" {
			if t, ok := constTruth(n.L); ok && t == (n.Op == "or") {
				return n.L
			}
		}
	case *CondExpr:
		if t, ok := constTruth(n.Cond); ok {
			chosen := n.Else
			if t {
				chosen = n.Then
			}
			// no else: the undefined result is made at runtime
			// (Impossible), so nothing is folded
			if chosen != nil && constExpr(chosen) {
				return chosen
			}
		}
	}
	return nil
}

// constTruth is the truth of an expression Jinja2 folds to a constant:
// a literal, or not of one.
func constTruth(x Expr) (truth, ok bool) {
	switch n := x.(type) {
	case *Const:
		return n.Value.Truth(), true
	case *ListLit:
		return len(n.Items) > 0, allConst(n.Items)
	case *TupleLit:
		return len(n.Items) > 0, allConst(n.Items)
	case *DictLit:
		return len(n.Keys) > 0, allConst(n.Keys) && allConst(n.Values)
	case *Unary:
		if n.Op == "not" {
			t, ok := constTruth(n.X)
			return !t, ok
		}
	}
	return false, false
}

// constCall reports whether a filter or test applies to a constant with
// constant arguments only (Jinja2 folds such a node at compile time).
func constCall(operand Expr, a *CallArgs) bool {
	if operand == nil || !constExpr(operand) || a.DynArgs != nil || a.DynKwargs != nil {
		return false
	}
	for _, x := range a.Args {
		if !constExpr(x) {
			return false
		}
	}
	for _, k := range a.Kwargs {
		if !constExpr(k.X) {
			return false
		}
	}
	return true
}

// constExpr reports whether x is a literal: a constant, or a list,
// tuple or dict literal of literals.
func constExpr(x Expr) bool {
	switch n := x.(type) {
	case *Const:
		return true
	case *ListLit:
		return allConst(n.Items)
	case *TupleLit:
		return allConst(n.Items)
	case *DictLit:
		return allConst(n.Keys) && allConst(n.Values)
	}
	return false
}

func allConst(l []Expr) bool {
	for _, x := range l {
		if !constExpr(x) {
			return false
		}
	}
	return true
}
