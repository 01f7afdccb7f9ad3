package syntax

import "github.com/jinjabox/jinjabox/engine/internal/errs"

// EachChild calls f for every direct child node of n (expressions and
// statements) in source order. Nil children are skipped.
func EachChild(n Node, f func(Node)) {
	stmts := func(l []Stmt) {
		for _, s := range l {
			f(s)
		}
	}
	expr := func(x Expr) {
		if x != nil {
			f(x)
		}
	}
	args := func(a *CallArgs) {
		for _, x := range a.Args {
			f(x)
		}
		for _, k := range a.Kwargs {
			expr(k.X)
		}
		expr(a.DynArgs)
		expr(a.DynKwargs)
	}
	params := func(ps []Param) {
		for _, p := range ps {
			expr(p.Default)
		}
	}
	switch n := n.(type) {
	case *Output:
		expr(n.X)
	case *If:
		expr(n.Cond)
		stmts(n.Body)
		stmts(n.Else)
	case *For:
		expr(n.Target)
		expr(n.Iter)
		expr(n.Filter)
		stmts(n.Body)
		stmts(n.Else)
	case *Set:
		expr(n.Target)
		expr(n.X)
	case *SetBlock:
		expr(n.Target)
		if n.Filter != nil {
			f(n.Filter)
		}
		stmts(n.Body)
	case *With:
		for i := range n.Targets {
			expr(n.Targets[i])
			if i < len(n.Values) {
				expr(n.Values[i])
			}
		}
		stmts(n.Body)
	case *Macro:
		params(n.Params)
		stmts(n.Body)
	case *CallBlock:
		params(n.Params)
		if n.Call != nil {
			f(n.Call)
		}
		stmts(n.Body)
	case *FilterBlock:
		if n.Filter != nil {
			f(n.Filter)
		}
		stmts(n.Body)
	case *Autoescape:
		expr(n.X)
		stmts(n.Body)
	case *Block:
		stmts(n.Body)
	case *Extends:
		expr(n.Template)
	case *Include:
		expr(n.Template)
	case *Import:
		expr(n.Template)
	case *FromImport:
		expr(n.Template)
	case *Attr:
		expr(n.X)
	case *Item:
		expr(n.X)
		expr(n.Key)
	case *Slice:
		expr(n.X)
		expr(n.Start)
		expr(n.Stop)
		expr(n.Step)
	case *Call:
		expr(n.Fn)
		args(&n.CallArgs)
	case *Filter:
		expr(n.X)
		args(&n.CallArgs)
	case *Test:
		expr(n.X)
		args(&n.CallArgs)
	case *Unary:
		expr(n.X)
	case *Binary:
		expr(n.L)
		expr(n.R)
	case *Compare:
		expr(n.First)
		for _, o := range n.Ops {
			expr(o.X)
		}
	case *CondExpr:
		expr(n.Then)
		expr(n.Cond)
		expr(n.Else)
	case *ListLit:
		for _, x := range n.Items {
			f(x)
		}
	case *TupleLit:
		for _, x := range n.Items {
			f(x)
		}
	case *DictLit:
		for i := range n.Keys {
			f(n.Keys[i])
			f(n.Values[i])
		}
	case *Fold:
		expr(n.X)
	}
}

// checkTreeDepth refuses an AST deeper than the nesting limit. Recursive
// descent already bounds the parser's own recursion, but operator, filter,
// test and postfix chains are built by loops and can still produce a deep tree,
// which a recursive evaluator would walk. Statements at the top level are
// at depth 1. An If alone in the Else of an If (an elif chain) stays at the
// depth of its parent, so that long elif chains are not refused.
func (p *parser) checkTreeDepth(body []Stmt) {
	// d counts quarter levels: a level of nesting is chainLinksPerLevel
	// quarters, a link of a filter or test chain one.
	limit := p.maxDepth * chainLinksPerLevel
	var walk func(n Node, d int)
	walk = func(n Node, d int) {
		if d > limit {
			e := errs.FromBudget(p.depthError((d + chainLinksPerLevel - 1) / chainLinksPerLevel))
			p.setPosOrig(e, n.Pos())
			panic(e)
		}
		if ifn, ok := n.(*If); ok && len(ifn.Else) == 1 {
			if elif, ok := ifn.Else[0].(*If); ok {
				walk(ifn.Cond, d+chainLinksPerLevel)
				for _, s := range ifn.Body {
					walk(s, d+chainLinksPerLevel)
				}
				walk(elif, d)
				return
			}
		}
		// A filter or test chain (x|f|g|h) nests one link at a time, as
		// the evaluator recurses into each link's operand, but a link is
		// a quarter of a level: Jinja2 renders a 200-link chain
		// (hostile nesting/ok-filter-chain-200) and stops near 400 links
		// (Python's recursion limit), so a chain of up to 4 x
		// nesting_depth links parses. Its arguments nest a full level.
		var operand Node
		switch x := n.(type) {
		case *Filter:
			if x.X != nil {
				operand = x.X
			}
		case *Test:
			operand = x.X
		}
		EachChild(n, func(c Node) {
			if operand != nil && c == operand {
				walk(c, d+1)
				return
			}
			walk(c, d+chainLinksPerLevel)
		})
	}
	for _, s := range body {
		walk(s, chainLinksPerLevel)
	}
}

// chainLinksPerLevel is how many links of a filter or test chain count as
// one level of nesting in checkTreeDepth.
const chainLinksPerLevel = 4

// RewriteExprs replaces every expression that is a direct part of a
// statement of body (its condition, value, arguments; not an assignment
// target) with f's result, in nested bodies too. f decides how deep it
// goes into an expression (MapExprChildren).
func RewriteExprs(body []Stmt, f func(Expr) Expr) {
	ex := func(x Expr) Expr {
		if x == nil {
			return nil
		}
		return f(x)
	}
	params := func(ps []Param) {
		for i := range ps {
			ps[i].Default = ex(ps[i].Default)
		}
	}
	for _, s := range body {
		switch n := s.(type) {
		case *Output:
			n.X = ex(n.X)
		case *If:
			n.Cond = ex(n.Cond)
			RewriteExprs(n.Body, f)
			RewriteExprs(n.Else, f)
		case *For:
			n.Iter = ex(n.Iter)
			n.Filter = ex(n.Filter)
			RewriteExprs(n.Body, f)
			RewriteExprs(n.Else, f)
		case *Set:
			n.X = ex(n.X)
		case *SetBlock:
			if n.Filter != nil {
				MapExprChildren(n.Filter, f)
			}
			RewriteExprs(n.Body, f)
		case *With:
			for i := range n.Values {
				n.Values[i] = ex(n.Values[i])
			}
			RewriteExprs(n.Body, f)
		case *Macro:
			params(n.Params)
			RewriteExprs(n.Body, f)
		case *CallBlock:
			params(n.Params)
			if n.Call != nil {
				MapExprChildren(n.Call, f)
			}
			RewriteExprs(n.Body, f)
		case *FilterBlock:
			if n.Filter != nil {
				MapExprChildren(n.Filter, f)
			}
			RewriteExprs(n.Body, f)
		case *Autoescape:
			n.X = ex(n.X)
			RewriteExprs(n.Body, f)
		case *Block:
			RewriteExprs(n.Body, f)
		case *Extends:
			n.Template = ex(n.Template)
		case *Include:
			n.Template = ex(n.Template)
		case *Import:
			n.Template = ex(n.Template)
		case *FromImport:
			n.Template = ex(n.Template)
		}
	}
}

// MapExprChildren replaces each direct expression child of the
// expression n with f's result.
func MapExprChildren(n Expr, f func(Expr) Expr) {
	ex := func(x Expr) Expr {
		if x == nil {
			return nil
		}
		return f(x)
	}
	args := func(a *CallArgs) {
		for i := range a.Args {
			a.Args[i] = ex(a.Args[i])
		}
		for i := range a.Kwargs {
			a.Kwargs[i].X = ex(a.Kwargs[i].X)
		}
		a.DynArgs = ex(a.DynArgs)
		a.DynKwargs = ex(a.DynKwargs)
	}
	switch n := n.(type) {
	case *Attr:
		n.X = ex(n.X)
	case *Item:
		n.X = ex(n.X)
		n.Key = ex(n.Key)
	case *Slice:
		n.X = ex(n.X)
		n.Start = ex(n.Start)
		n.Stop = ex(n.Stop)
		n.Step = ex(n.Step)
	case *Call:
		n.Fn = ex(n.Fn)
		args(&n.CallArgs)
	case *Filter:
		n.X = ex(n.X)
		args(&n.CallArgs)
	case *Test:
		n.X = ex(n.X)
		args(&n.CallArgs)
	case *Unary:
		n.X = ex(n.X)
	case *Binary:
		n.L = ex(n.L)
		n.R = ex(n.R)
	case *Compare:
		n.First = ex(n.First)
		for i := range n.Ops {
			n.Ops[i].X = ex(n.Ops[i].X)
		}
	case *CondExpr:
		n.Cond = ex(n.Cond)
		n.Then = ex(n.Then)
		n.Else = ex(n.Else)
	case *ListLit:
		for i := range n.Items {
			n.Items[i] = ex(n.Items[i])
		}
	case *TupleLit:
		for i := range n.Items {
			n.Items[i] = ex(n.Items[i])
		}
	case *DictLit:
		for i := range n.Keys {
			n.Keys[i] = ex(n.Keys[i])
			n.Values[i] = ex(n.Values[i])
		}
	case *Fold:
		n.X = ex(n.X)
	}
}

// TargetNames calls f for each name an assignment target binds (a name,
// or the names of a tuple of them, nested).
func TargetNames(t Expr, f func(string)) {
	switch n := t.(type) {
	case *Name:
		f(n.Name)
	case *TupleLit:
		for _, it := range n.Items {
			TargetNames(it, f)
		}
	}
}

// DroppedOutputs returns the output statements Jinja2's code generator
// never compiles, so that nothing in them is checked: once an extends at
// the template's root level has been compiled, output outside a block,
// macro, call block or set block is dropped (CodeGenerator.visit_Output
// returns when has_known_extends is set and the frame requires output
// checks; visit_Extends sets has_known_extends at the root level only,
// and macro_body, visit_AssignBlock and every block's own frame turn the
// output check off). Nil when there is none.
func DroppedOutputs(body []Stmt) map[*Output]bool {
	var dropped map[*Output]bool
	var walk func(n Node)
	walk = func(n Node) {
		switch n := n.(type) {
		case *Output:
			if dropped == nil {
				dropped = map[*Output]bool{}
			}
			dropped[n] = true
			return
		case *Macro, *CallBlock, *SetBlock, *Block, Expr:
			return // their own frames, or no output at all
		}
		EachChild(n, walk)
	}
	extended := false
	for _, s := range body {
		if extended {
			walk(s)
		}
		if _, ok := s.(*Extends); ok {
			extended = true
		}
	}
	return dropped
}
