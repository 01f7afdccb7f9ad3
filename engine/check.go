package engine

import (
	"cmp"
	"slices"
	"strings"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/builtins"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/syntax"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/policy"
)

// checkInfo is what the static pass learned about a template.
type checkInfo struct {
	// staticBytes is the size of the template's literal text, which sizes
	// the output buffer up front.
	staticBytes int64
	macros      map[*syntax.Macro]*macroInfo
	calls       map[*syntax.CallBlock]*macroInfo
	// unassigned holds, per frame that has any, the names the frame
	// binds to an unassigned undefined as it starts (frames.go); a
	// macro's and a caller's are in their macroInfo.
	unassigned map[frameKey][]string
	// rootUnassigned is unassigned's entry for the template's own frame,
	// looked up once here rather than at each render.
	rootUnassigned []string
	// reads is the top-level names the template can read (topNames): the
	// names of a render's data copied in; nil, all of them.
	reads *value.TopNames
}

// unassignedAt is unassigned's entry for frame k: nil, with no lookup,
// when the template has none (most templates; a lookup hashes an
// interface key, a twentieth of a one-line condition's render).
func (ci *checkInfo) unassignedAt(k frameKey) []string {
	if len(ci.unassigned) == 0 {
		return nil
	}
	return ci.unassigned[k]
}

// attrPathFilters maps each filter taking an attribute path to the
// position of that argument (-1: keyword only).
var attrPathFilters = map[string]int{
	"map": -1, "sort": 2, "groupby": 0, "selectattr": 0, "rejectattr": 0,
	"sum": 0, "unique": 1, "min": 1, "max": 1, "join": 1,
}

type checker struct {
	env  *Environment
	src  string
	name string
	info *checkInfo
	err  *errs.Error
	// reads collects the names the template reads (checkInfo.reads):
	// every name expression the check visits, each namespace a set
	// writes to; readsAll is set by an include, import or extends
	reads    []string
	readsAll bool
	// refused is the first literal underscore name (refuse)
	refused *errs.Error
	// meter is the parse's: a constant the check folds is evaluated on
	// it (fold)
	meter *budget.Meter
	// output is the expression of the {{ }} the check is in, if any
	output syntax.Expr
	// dropped holds the output Jinja2 never compiles (after an extends)
	dropped map[*syntax.Output]bool
}

// check runs the static pass: unknown filters and tests outside if/else
// are syntax errors (as Jinja's compiler does), literal underscore
// attribute names are refused before rendering (P4), and macro bodies
// are scanned for varargs/kwargs/caller.
func (e *Environment) check(t *syntax.Template, m *budget.Meter) (*checkInfo, error) {
	c := &checker{env: e, src: t.Source, name: t.Name, meter: m, info: &checkInfo{
		macros: map[*syntax.Macro]*macroInfo{},
		calls:  map[*syntax.CallBlock]*macroInfo{},
	}}
	c.dropped = syntax.DroppedOutputs(t.Body)
	c.stmts(t.Body, false)
	if c.err != nil {
		return nil, c.err
	}
	if err := c.scoping(t, m); err != nil {
		return nil, err
	}
	if c.refused != nil {
		return nil, c.refused
	}
	c.info.rootUnassigned = c.info.unassignedAt(frameKey{node: t})
	if !c.readsAll {
		c.info.reads = value.NewTopNames(c.reads)
	}
	syntax.RewriteExprs(t.Body, wrapFolds)
	return c.info, nil
}

// refuse records the first literal underscore name (P4). It is reported
// only if the template compiles: the refusal is the project's, and a
// template Jinja2 cannot compile gets Jinja2's error first, as the
// policy model of the hostile corpus checks a parsed template.
func (c *checker) refuse(pos int, msg string) {
	if c.refused != nil {
		return
	}
	c.refused = errs.New(errs.Security, msg)
	c.refused.SetPos(c.name, c.src, pos)
}

func (c *checker) fail(k errs.Kind, pos int, msg string) {
	if c.err != nil {
		return
	}
	e := errs.New(k, msg)
	e.SetPos(c.name, c.src, pos)
	c.err = e
}

func (c *checker) stmts(body []syntax.Stmt, soft bool) {
	for _, s := range body {
		if c.err != nil {
			return
		}
		c.stmt(s, soft)
	}
}

func (c *checker) stmt(s syntax.Stmt, soft bool) {
	switch n := s.(type) {
	case *syntax.Text:
		c.info.staticBytes += int64(len(n.Text))
	case *syntax.Output:
		if c.dropped[n] {
			// never compiled (syntax.DroppedOutputs): nothing there is
			// checked but the literal name rule
			c.deadOperand(n.X)
			return
		}
		c.output = n.X
		c.expr(n.X, soft)
		c.output = nil
		// only a slice evaluates otherwise when folded: the flag costs
		// the others nothing
		n.Const = hasSlice(n.X) && constOperand(n.X)
	case *syntax.If:
		c.expr(n.Cond, true)
		c.stmts(n.Body, true)
		c.stmts(n.Else, true)
	case *syntax.For:
		c.expr(n.Iter, soft)
		c.target(n.Target)
		if n.Filter != nil {
			c.expr(n.Filter, false)
		}
		c.stmts(n.Body, false)
		c.stmts(n.Else, false)
	case *syntax.Set:
		c.target(n.Target)
		c.expr(n.X, soft)
	case *syntax.SetBlock:
		// Jinja2's frames decide where an unknown filter or test is a
		// compile-time error: an if's test and branches and a conditional
		// expression are soft (deferred to the render); every inner frame
		// is not (compiler.py: visit_AssignBlock's block_frame holds the
		// body and the filter; visit_With visits its values in the outer
		// frame, its body in an inner one; autoescape parses to a Scope)
		c.target(n.Target)
		if n.Filter != nil {
			c.expr(n.Filter, false)
		}
		c.stmts(n.Body, false)
	case *syntax.With:
		for i := range n.Targets {
			c.target(n.Targets[i])
			c.expr(n.Values[i], soft)
		}
		c.stmts(n.Body, false)
	case *syntax.Macro:
		c.params(n.Params)
		c.info.macros[n] = scanMacro(n.Body, n.Params)
		c.stmts(n.Body, false)
	case *syntax.CallBlock:
		c.params(n.Params)
		c.info.calls[n] = scanMacro(n.Body, n.Params)
		c.expr(n.Call, soft)
		c.stmts(n.Body, false)
	case *syntax.FilterBlock:
		c.expr(n.Filter, false)
		c.stmts(n.Body, false)
	case *syntax.Autoescape:
		c.expr(n.X, false)
		c.stmts(n.Body, false)
	case *syntax.Block:
		c.stmts(n.Body, false)
	case *syntax.Extends:
		c.readsAll = true
		c.expr(n.Template, soft)
	case *syntax.Include:
		c.readsAll = true
		c.expr(n.Template, soft)
	case *syntax.Import:
		c.readsAll = true
		c.expr(n.Template, soft)
	case *syntax.FromImport:
		c.readsAll = true
		c.expr(n.Template, soft)
		for _, in := range n.Names {
			if strings.HasPrefix(in.Name, "_") {
				c.fail(errs.Syntax, n.P, "names starting with an underline can not be imported")
			}
		}
	}
}

func (c *checker) params(ps []syntax.Param) {
	for _, p := range ps {
		if p.Default != nil {
			c.expr(p.Default, false)
		}
	}
}

func (c *checker) target(t syntax.Expr) {
	switch n := t.(type) {
	case *syntax.NSRef:
		c.reads = append(vmem.Grown(c.reads), n.NS) // the namespace is read, then written
		if privateName(n.Attr) {
			c.refuse(n.P, "assignment to attribute "+errs.Quote(n.Attr)+" of a namespace is unsafe")
		}
	case *syntax.TupleLit:
		for _, it := range n.Items {
			c.target(it)
		}
	}
}

// privateAttr is the literal name rule (P4): an underscore attribute name
// is refused before rendering, except the names a template surface
// declares, which the lookup chokepoint checks on the receiver (P12).
func (c *checker) privateAttr(pos int, name string) {
	if privateName(name) && !policy.SurfaceReadable(name) {
		c.refuse(pos, "access to attribute "+errs.Quote(name)+" is unsafe")
	}
}

func (c *checker) args(a *syntax.CallArgs, soft bool) {
	for _, x := range a.Args {
		c.expr(x, soft)
	}
	for _, kw := range a.Kwargs {
		c.expr(kw.X, soft)
	}
	if a.DynArgs != nil {
		c.expr(a.DynArgs, soft)
	}
	if a.DynKwargs != nil {
		c.expr(a.DynKwargs, soft)
	}
}

func constString(e syntax.Expr) (string, bool) {
	k, ok := e.(*syntax.Const)
	if !ok || !k.Value.IsString() {
		return "", false
	}
	return k.Value.Str(), true
}

// filterArgs applies the literal name rule to the arguments that name
// attributes: |attr's name, the attribute paths of attrPathFilters (each
// dotted or comma-separated segment), and, through map('f', ...), the
// same arguments of the filter map applies.
func (c *checker) filterArgs(n *syntax.Filter) {
	c.namedFilterArgs(n.P, n.Name, n.Args, n.Kwargs)
}

func (c *checker) namedFilterArgs(pos int, name string, args []syntax.Expr, kwargs []syntax.Kwarg) {
	if name == "attr" && len(args) > 0 {
		if s, ok := constString(args[0]); ok {
			c.privateAttr(pos, s)
		}
	}
	if name == "map" && len(args) > 0 && !hasKwarg(kwargs, "attribute") {
		// map(filter_name, *args, **kwargs): the rest goes to that filter
		if f, ok := constString(args[0]); ok {
			c.namedFilterArgs(pos, f, args[1:], kwargs)
		}
	}
	if at, ok := builtins.RegexPatternArg[name]; ok && c.env.opts.Regex && c.env.opts.Filters[name] == nil {
		// a literal pattern is checked now: a syntax error, or a construct
		// RE2 lacks, fails the parse rather than a render
		var lit syntax.Expr
		if at.Pos < len(args) {
			lit = args[at.Pos]
		}
		for _, kw := range kwargs {
			if kw.Name == at.Kw {
				lit = kw.X
			}
		}
		if s, ok := constString(lit); ok {
			if err := builtins.CheckRegexPattern(s); err != nil {
				c.fail(errs.Syntax, pos, name+"(): "+err.(*errs.Error).Message)
			}
		}
	}
	idx, ok := attrPathFilters[name]
	if !ok {
		return
	}
	var lits []syntax.Expr
	for _, kw := range kwargs {
		if kw.Name == "attribute" {
			lits = append(lits, kw.X)
		}
	}
	if idx >= 0 && idx < len(args) {
		lits = append(lits, args[idx])
	}
	for _, l := range lits {
		s, ok := constString(l)
		if !ok {
			continue
		}
		for _, seg := range strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == ',' }) {
			c.privateAttr(pos, strings.TrimSpace(seg))
		}
	}
}

func hasKwarg(kwargs []syntax.Kwarg, name string) bool {
	for _, kw := range kwargs {
		if kw.Name == name {
			return true
		}
	}
	return false
}

func (c *checker) expr(e syntax.Expr, soft bool) {
	if c.err != nil || e == nil {
		return
	}
	switch n := e.(type) {
	case *syntax.Name:
		c.reads = append(vmem.Grown(c.reads), n.Name)
	case *syntax.Const, *syntax.NSRef:
	case *syntax.RegexLit:
		// with execution enabled, a literal RE2 cannot run fails the
		// parse, as a regex filter's literal pattern does
		if c.env.opts.Regex {
			if err := builtins.CheckRegexLiteral(n.Pattern, n.Flags); err != nil {
				c.fail(errs.Syntax, n.P, err.(*errs.Error).Message)
			}
		}
	case *syntax.Attr:
		c.privateAttr(n.P, n.Name)
		n.DictKey = !privateName(n.Name) && !policy.MayHave(policy.Dict, n.Name)
		c.expr(n.X, soft)
	case *syntax.Item:
		c.expr(n.X, soft)
		c.expr(n.Key, soft)
	case *syntax.Slice:
		c.expr(n.X, soft)
		c.expr(n.Start, soft)
		c.expr(n.Stop, soft)
		c.expr(n.Step, soft)
	case *syntax.Call:
		c.expr(n.Fn, soft)
		c.args(&n.CallArgs, soft)
	case *syntax.Filter:
		f, ok := c.env.filters[n.Name]
		if !ok && !soft {
			msg := "no filter named " + errs.Quote(n.Name)
			if _, re := builtins.RegexFilters[n.Name]; re {
				msg += " (the regular-expression filters are off; an environment enables them with Options.Regex, the CLI with --regex)"
			}
			c.fail(errs.Syntax, n.P, msg)
		}
		if u, builtin := c.env.unwrapped[n.Name]; builtin {
			n.Impl = u
		} else if ok {
			n.Impl = f
		}
		c.filterArgs(n)
		c.expr(n.X, soft)
		c.args(&n.CallArgs, soft)
	case *syntax.Test:
		t, ok := c.env.tests[n.Name]
		if !ok && !soft {
			c.fail(errs.Syntax, n.P, "no test named "+errs.Quote(n.Name))
		}
		if ok {
			n.Impl = t
		}
		c.expr(n.X, soft)
		c.args(&n.CallArgs, soft)
	case *syntax.Unary:
		c.expr(n.X, soft)
	case *syntax.Binary:
		c.expr(n.L, soft)
		failed := c.err != nil
		c.expr(n.R, soft)
		if !failed && c.err != nil && c.deadRight(n) {
			// Jinja2's optimizer folds the operator to its left operand
			// (nodes.Or.as_const, And.as_const), so the right one is
			// never compiled: nothing there is checked but the literal
			// name rule
			c.err = nil
			c.deadOperand(n.R)
		}
	case *syntax.Compare:
		c.expr(n.First, soft)
		for _, op := range n.Ops {
			c.expr(op.X, soft)
		}
	case *syntax.CondExpr:
		c.expr(n.Cond, true)
		c.expr(n.Then, true)
		c.expr(n.Else, true)
	case *syntax.ListLit:
		for _, it := range n.Items {
			c.expr(it, soft)
		}
	case *syntax.TupleLit:
		for _, it := range n.Items {
			c.expr(it, soft)
		}
	case *syntax.DictLit:
		for i := range n.Keys {
			c.expr(n.Keys[i], soft)
			c.expr(n.Values[i], soft)
		}
	}
}

// scopingStepUnits is what a step of the scoping analysis is charged: a
// map probe or an insert with its share of the map's growth, up to about
// 100 ns (measured on 12,000 names read 150 frames deep), at the
// calibration's 1.9 ns a unit.
const scopingStepUnits = 64

// scoping runs the scoping analysis (frames.go) under the parse meter,
// charged a chunk of steps at a time before they run, and hands each
// macro and caller its names.
func (c *checker) scoping(t *syntax.Template, m *budget.Meter) (err error) {
	const chunk = 4 // steps charged at a time: 256 units, small beside any budget
	left := 0
	var refused error
	step := func() {
		if left == 0 {
			if refused = m.Charge(chunk*scopingStepUnits, "scoping analysis"); refused != nil {
				panic(refused)
			}
			left = chunk
		}
		left--
	}
	defer func() {
		if r := recover(); r != nil {
			if r != refused || refused == nil {
				panic(r)
			}
			be := errs.FromBudget(refused)
			be.SetPos(c.name, c.src, 0)
			err = be
		}
	}()
	c.info.unassigned = unassignedNames(t, step)
	for _, k := range sortedFrameKeys(c.info.unassigned) {
		switch n := k.node.(type) {
		case *syntax.Macro:
			c.info.macros[n].unassigned = c.info.unassigned[k]
		case *syntax.CallBlock:
			c.info.calls[n].unassigned = c.info.unassigned[k]
		}
	}
	return nil
}

// sortedFrameKeys orders frame keys by their node's position.
func sortedFrameKeys(m map[frameKey][]string) []frameKey {
	//fresh:ok the check's array of a template's frames, as many as its source has blocks: made once a parse, not a render
	keys := make([]frameKey, 0, len(m))
	//workflowcheck:ignore the keys are sorted below
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b frameKey) int {
		pa, pb := 0, 0
		if n, ok := a.node.(syntax.Node); ok {
			pa = n.Pos()
		}
		if n, ok := b.node.(syntax.Node); ok {
			pb = n.Pos()
		}
		return cmp.Or(cmp.Compare(pa, pb), cmp.Compare(a.branch, b.branch))
	})
	return keys
}

// deadOperand walks an operand Jinja2 never compiles for the literal
// name rule alone (P4 holds in code that never runs): an unknown filter
// or test there is no error.
func (c *checker) deadOperand(e syntax.Expr) {
	saved := c.err
	c.err = nil
	c.expr(e, true)
	c.err = saved
}

// deadRight reports whether Jinja2 never compiles the right operand of
// the and/or n because its left operand is constant and decides it (a
// true one for or, a false one for and): Jinja2's optimizer folds every expression node whose
// as_const succeeds, children first (optimizer.Optimizer.generic_visit),
// filters and tests over constants included. The check asks only where
// the right operand failed it, so a template that passes the check
// spends nothing on this.
func (c *checker) deadRight(n *syntax.Binary) bool {
	if n.Op != "or" && n.Op != "and" {
		return false
	}
	v, ok := c.asConst(n.L)
	if !ok || v.Truth() != (n.Op == "or") {
		return false
	}
	// the optimizer keeps a value it cannot write as code
	// (Const.from_untrusted), unless the whole {{ }} is constant: the
	// code generator then prints it at compile time
	// (CodeGenerator._output_child_to_const) and needs no repr
	if safeRepr(v) {
		return true
	}
	if c.output == nil {
		return false
	}
	_, ok = c.asConst(c.output)
	return ok
}

// asConst is Jinja2's as_const on e: an and/or or a conditional
// expression evaluates only the operands it needs (nodes.Or.as_const,
// CondExpr.as_const); anything else folds when every part is constant
// and its filters and tests fold (foldable) and its evaluation succeeds.
func (c *checker) asConst(e syntax.Expr) (value.Value, bool) {
	switch n := e.(type) {
	case *syntax.Binary:
		if n.Op == "and" || n.Op == "or" {
			l, ok := c.asConst(n.L)
			if !ok || l.Truth() == (n.Op == "or") {
				return l, ok
			}
			return c.asConst(n.R)
		}
	case *syntax.CondExpr:
		t, ok := c.asConst(n.Cond)
		switch {
		case !ok:
			return value.Value{}, false
		case t.Truth():
			return c.asConst(n.Then)
		case n.Else != nil:
			return c.asConst(n.Else)
		}
	}
	if !constOperand(e) || !c.foldable(e) {
		return value.Value{}, false
	}
	return c.fold(e)
}

// passContext names Jinja2's built-in filters that take the render's
// context (@pass_context): their as_const raises Impossible, so they are
// never folded.
var passContext = map[string]bool{
	"random": true, "map": true, "select": true, "reject": true,
	"selectattr": true, "rejectattr": true,
}

// foldable reports whether every filter and test in x is one Jinja2's
// as_const calls at compile time: a built-in of Jinja2's own that takes
// no context. An application's filters and tests, and the regex filters
// (not Jinja2's), are never run while a template is parsed.
func (c *checker) foldable(x syntax.Expr) bool {
	ok := true
	var walk func(n syntax.Node)
	walk = func(n syntax.Node) {
		switch f := n.(type) {
		case *syntax.Filter:
			_, host := c.env.opts.Filters[f.Name]
			_, builtin := builtins.Filters[f.Name]
			ok = ok && builtin && !host && !passContext[f.Name]
		case *syntax.Test:
			_, host := c.env.opts.Tests[f.Name]
			_, builtin := builtins.Tests[f.Name]
			ok = ok && builtin && !host
		}
		if ok {
			syntax.EachChild(n, walk)
		}
	}
	walk(x)
	return ok
}

// fold evaluates the constant x as Jinja2's as_const does at compile
// time, on the parse's meter. ok is false where Jinja2 keeps the node
// (nodes.Impossible: the evaluation raised). A budget or internal error
// is not Jinja2's and cannot fold: it stays the check's error.
func (c *checker) fold(x syntax.Expr) (v value.Value, ok bool) {
	phase := c.meter.Phase
	defer func() { c.meter.Phase = phase }()
	r := (&Template{env: c.env, name: c.name}).newRenderer(c.meter, nil)
	if err := r.run(func() { ok = r.evalFolded(x, r.newRoot(), &v) }); err != nil {
		return value.Value{}, false
	}
	return v, ok
}

// wrapFolds wraps every constant part of e that holds a slice in a
// syntax.Fold, inner parts first: Jinja2's optimizer tries each such node
// from the innermost out, and the outermost that folds decides.
func wrapFolds(e syntax.Expr) syntax.Expr {
	syntax.MapExprChildren(e, wrapFolds)
	if _, ok := e.(*syntax.Const); !ok && hasSlice(e) && constOperand(e) {
		return &syntax.Fold{Base: syntax.Base{P: e.Pos()}, X: e}
	}
	return e
}

// hasSlice reports whether an expression holds a slice.
func hasSlice(x syntax.Node) bool {
	if _, ok := x.(*syntax.Slice); ok {
		return true
	}
	found := false
	syntax.EachChild(x, func(c syntax.Node) { found = found || hasSlice(c) })
	return found
}

// scanMacro finds whether a macro body reads varargs, kwargs or caller
// (which makes the macro accept them) as Jinja2's compiler does
// (macro_body: find_undeclared(node.body, ("caller", "kwargs",
// "varargs"))): a read of one counts anywhere in the body, nested macros
// and call blocks included, blocks excluded, unless the name was assigned
// or declared as a parameter before it in the source; a parameter of the
// macro itself of that name stands instead. It also records whether the
// body makes a value that holds its scope (closes).
func scanMacro(body []syntax.Stmt, params []syntax.Param) *macroInfo {
	mi := &macroInfo{}
	// only three names are asked about: a scan of the parameters for
	// them, not a set of every parameter (50,000 names a macro)
	var declared [3]bool
	for _, p := range params {
		switch p.Name {
		case "varargs":
			declared[0] = true
		case "kwargs":
			declared[1] = true
		case "caller":
			declared[2] = true
		}
	}
	if len(params) > smallScope {
		mi.paramIdx = make(map[string]int, len(params))
		for i := len(params) - 1; i >= 0; i-- {
			mi.paramIdx[params[i].Name] = i // the first of a repeated name
		}
	}
	u := undeclared{names: map[string]bool{"caller": true, "kwargs": true, "varargs": true}}
	u.stmts(body)
	mi.usesVarargs = u.found["varargs"] && !declared[0]
	mi.usesKwargs = u.found["kwargs"] && !declared[1]
	mi.usesCaller = u.found["caller"] && !declared[2]
	var closes func(n syntax.Node)
	closes = func(n syntax.Node) {
		switch x := n.(type) {
		case *syntax.Macro:
			mi.closes = true
			return
		case *syntax.CallBlock:
			mi.closes = true
			return
		case *syntax.For:
			if x.Recursive {
				mi.closes = true
			}
		case *syntax.Include, *syntax.Import, *syntax.FromImport, *syntax.Block, *syntax.Extends:
			mi.closes = true
		}
		if !mi.closes {
			syntax.EachChild(n, closes)
		}
	}
	for _, s := range body {
		closes(s)
	}
	return mi
}

// undeclared is Jinja2's UndeclaredNameVisitor: it walks statements in
// the order of their fields in Jinja2's nodes (a loop's target before its
// iterable and body, an assignment's target before its value), so that a
// name assigned before it is read is not counted.
type undeclared struct {
	names map[string]bool // still looked for
	found map[string]bool
}

func (u *undeclared) name(n string, load bool) {
	if load && u.names[n] {
		if u.found == nil {
			u.found = map[string]bool{}
		}
		u.found[n] = true
		return
	}
	delete(u.names, n)
}

func (u *undeclared) stmts(body []syntax.Stmt) {
	for _, s := range body {
		u.stmt(s)
	}
}

func (u *undeclared) params(ps []syntax.Param) {
	for _, p := range ps {
		u.name(p.Name, false)
	}
	for _, p := range ps {
		u.expr(p.Default)
	}
}

func (u *undeclared) stmt(s syntax.Stmt) {
	switch n := s.(type) {
	case *syntax.Output:
		u.expr(n.X)
	case *syntax.If:
		u.expr(n.Cond)
		u.stmts(n.Body)
		u.stmts(n.Else)
	case *syntax.For:
		u.target(n.Target)
		u.expr(n.Iter)
		u.stmts(n.Body)
		u.stmts(n.Else)
		u.expr(n.Filter)
	case *syntax.Set:
		u.target(n.Target)
		u.expr(n.X)
	case *syntax.SetBlock:
		u.target(n.Target)
		if n.Filter != nil {
			u.expr(n.Filter)
		}
		u.stmts(n.Body)
	case *syntax.With:
		for _, t := range n.Targets {
			u.target(t)
		}
		for _, v := range n.Values {
			u.expr(v)
		}
		u.stmts(n.Body)
	case *syntax.Macro:
		u.params(n.Params)
		u.stmts(n.Body)
	case *syntax.CallBlock:
		if n.Call != nil {
			u.expr(n.Call)
		}
		u.params(n.Params)
		u.stmts(n.Body)
	case *syntax.FilterBlock:
		u.stmts(n.Body)
		if n.Filter != nil {
			u.expr(n.Filter)
		}
	case *syntax.Autoescape:
		u.expr(n.X)
		u.stmts(n.Body)
	case *syntax.Block:
		// UndeclaredNameVisitor.visit_Block: a block is not visited
	default:
		syntax.EachChild(s, func(c syntax.Node) { u.expr(c) })
	}
}

// target visits an assignment target: its names are stores.
func (u *undeclared) target(t syntax.Expr) {
	syntax.TargetNames(t, func(name string) { u.name(name, false) })
}

// expr visits an expression, whose names are all reads.
func (u *undeclared) expr(x syntax.Node) {
	if x == nil {
		return
	}
	if nm, ok := x.(*syntax.Name); ok {
		u.name(nm.Name, true)
		return
	}
	syntax.EachChild(x, u.expr)
}
