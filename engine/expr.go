package engine

import (
	"cmp"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/builtins"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/syntax"
	"github.com/jinjabox/jinjabox/engine/value"
)

// lookupName resolves a name through the scope chain, the render's data,
// the globals and `self`. A lookup charges what it walks: an element for
// the name found, and a slot for each scope it walks past the innermost
// (each level is one O(1) probe; the chain is bounded by nesting and
// render depth).
func (r *renderer) lookupName(name string, sc *scope) value.Value {
	return r.lookupNameAt(name, sc, nil)
}

// lookupNameAt is lookupName with the index guess of the Name node being
// evaluated (syntax.Name.Slot) for the top-level data (nil: none). eval
// and operand write its first steps out for a Name node and an attribute
// of one: a Value returned through one more call is copied once more.
func (r *renderer) lookupNameAt(name string, sc *scope, slot *atomic.Int32) value.Value {
	if i := r.innerIndex(name, sc); i >= 0 {
		return sc.vars[i].val
	}
	return r.lookupOuter(name, sc, slot)
}

// innerIndex charges a name lookup and returns name's index in the
// innermost scope sc (-1: not bound there): an index, so the caller
// reads the value where it returns it.
func (r *renderer) innerIndex(name string, sc *scope) int {
	if !r.spent(budget.Elem) {
		r.Charge(budget.Elem, "name lookup")
	}
	return sc.find(name)
}

// rootDataIndex is where a name's lookup from sc ends when sc is the
// root scope of a render and binds nothing yet (top-level code before any
// set: a condition, most of a prompt) and the name's index guess (slot)
// in the render's data is right: the index there, else -1, and the
// lookup takes the full way. Small enough to inline at the three sites
// of a name's lookup, which then charge the name and read the value,
// with no call between them and the data: the full way's three calls
// and two misses were most of a name's cost.
func (r *renderer) rootDataIndex(name string, sc *scope, slot *atomic.Int32) int {
	if sc.parent != nil || len(sc.vars) != 0 || sc.isolated || r.data == nil {
		return -1
	}
	if i := int(slot.Load()); r.data.HasStrAt(i, name) {
		return i
	}
	return -1
}

// lookupOuter is lookupNameAt past the innermost scope sc, which did not
// bind name: the enclosing scopes (each charged a slot), then the data,
// the globals and self.
func (r *renderer) lookupOuter(name string, sc *scope, slot *atomic.Int32) value.Value {
	s := sc
	var walked int64
	crossed := false
	for s.parent != nil {
		crossed = crossed || s.boundary
		s = s.parent
		walked++
		if i := s.find(name); i >= 0 {
			if crossed && s.vars[i].val.IsUnassigned() {
				continue
			}
			r.chargeWalk(walked)
			return s.vars[i].val
		}
	}
	r.chargeWalk(walked)
	if !s.isolated && r.data != nil {
		if i := slotIndex(r.data, name, slot); i >= 0 {
			return r.data.ValAt(i)
		}
	}
	if v, ok := r.env.globals[name]; ok {
		return v
	}
	if name == "self" && r.fr != nil {
		return value.FromObject(&selfObj{fr: r.fr})
	}
	return value.Undef(name)
}

// operand is eval for an operand that is most often a name or a
// constant (a comparison's): those are evaluated here as eval's cases
// for them do, without eval's frame, which costs more than either.
func (r *renderer) operand(e syntax.Expr, sc *scope) value.Value {
	switch n := e.(type) {
	case *syntax.Name:
		// eval's Name case
		if i := r.rootDataIndex(n.Name, sc, &n.Slot); i >= 0 && r.spent(budget.Elem) {
			return r.data.ValAt(i)
		}
		if i := r.innerIndex(n.Name, sc); i >= 0 {
			return sc.vars[i].val
		}
		return r.lookupOuter(n.Name, sc, &n.Slot)
	case *syntax.Const:
		return n.Value
	}
	return r.eval(e, sc)
}

// chargeWalk charges the scopes a lookup walked past the innermost.
func (r *renderer) chargeWalk(levels int64) {
	if levels > 0 {
		r.Charge(levels*budget.Slot, "name lookup")
	}
}

// eval evaluates an expression. A constant and a name are leaves; every
// other node may recurse, and counts one step against the render's
// recursion bound (enter) while it is evaluated.
func (r *renderer) eval(e syntax.Expr, sc *scope) value.Value {
	switch n := e.(type) {
	case *syntax.Const:
		// A constant is no work of its own: the node holding it charges
		// its slot (an operand of a charged operator, a literal's item, a
		// call argument, a statement's value).
		return n.Value
	case *syntax.Name:
		// lookupNameAt written out: a name the innermost scope binds (a
		// loop's item, a macro's argument) is read where eval returns it,
		// so is a top-level name of the data (rootDataIndex; a failed
		// spent leaves the charge to innerIndex)
		if i := r.rootDataIndex(n.Name, sc, &n.Slot); i >= 0 && r.spent(budget.Elem) {
			return r.data.ValAt(i)
		}
		if i := r.innerIndex(n.Name, sc); i >= 0 {
			return sc.vars[i].val
		}
		return r.lookupOuter(n.Name, sc, &n.Slot)
	}
	r.depth++
	if r.depth > r.maxDepth {
		r.recursionFail()
	}
	v := r.evalNode(e, sc)
	r.depth--
	return v
}

// evalNode is eval's work for the nodes that may recurse (every node but
// a constant and a name, which eval reads itself), counted by eval.
func (r *renderer) evalNode(e syntax.Expr, sc *scope) value.Value {
	switch n := e.(type) {
	case *syntax.RegexLit:
		// a new object at every evaluation, as a JavaScript literal is:
		// a global test's lastIndex is never shared
		r.Charge(budget.Step, "regular expression literal")
		return builtins.NewRegexLiteral(n.Pattern, n.Flags, r.env.opts.Regex)
	case *syntax.Attr:
		// x.name on a name, the common attribute, looks the name up here
		// (the Name case above) with no call of eval for it
		var x value.Value
		if nm, ok := n.X.(*syntax.Name); ok {
			if i := r.rootDataIndex(nm.Name, sc, &nm.Slot); i >= 0 && r.spent(budget.Elem) {
				x = r.data.ValAt(i)
			} else if i := r.innerIndex(nm.Name, sc); i >= 0 {
				x = sc.vars[i].val
			} else {
				x = r.lookupOuter(nm.Name, sc, &nm.Slot)
			}
		} else {
			x = r.eval(n.X, sc)
		}
		r.pos = n.P
		if !r.spent(budget.Elem) {
			r.Charge(budget.Elem, "attribute lookup")
		}
		if x.Kind() == value.Dict {
			// Attr's dict case, with the node's inline cache
			if n.DictKey {
				// dictItemAttr written out: the value is read where
				// eval returns it, not returned through one more call
				d := x.DictData()
				if i := slotIndex(d, n.Name, &n.Slot); i >= 0 {
					return d.ValAt(i)
				}
				return noAttr(x, n.Name)
			}
			r.checkName(x, n.Name)
			return r.dictAttr(x, n.Name, &n.Slot)
		}
		return r.Attr(x, n.Name)
	case *syntax.Item:
		x := r.eval(n.X, sc)
		k := r.eval(n.Key, sc)
		r.pos = n.P
		if !r.spent(budget.Elem) {
			r.Charge(budget.Elem, "item lookup")
		}
		return r.Item(x, k)
	case *syntax.Slice:
		return r.evalSlice(n, sc)
	case *syntax.Fold:
		if r.folding {
			return r.eval(n.X, sc)
		}
		// Jinja2's optimizer keeps a folded value only if it has a safe
		// repr (nodes.Const.from_untrusted): an undefined or a method
		// is computed again at render time
		var v value.Value
		if r.evalFolded(n.X, sc, &v) && safeRepr(v) {
			return v
		}
		return r.eval(n.X, sc)
	case *syntax.Call:
		fn := r.eval(n.Fn, sc)
		args, mark := r.evalArgs(&n.CallArgs, sc)
		r.pos = n.P
		if n == r.loopIter {
			// a for loop's iterable: range itself gives its numbers
			// without its items (runLoop draws them)
			r.loopIter, r.lazyRange = nil, builtins.IsRange(fn.CallableImpl()) && !materialRanges
		}
		res := r.callValue(fn, args)
		r.lazyRange = false
		// a macro binds copies of its arguments: none is held past the
		// call, so their buffer serves the next one
		_, isMacro := fn.CallableImpl().(*macro)
		r.argsDone(mark, isMacro)
		return res
	case *syntax.Filter:
		if n.X == nil {
			errs.Throw(errs.Internal, "filter without operand")
		}
		x := r.eval(n.X, sc)
		args, kw := r.evalArgs(&n.CallArgs, sc)
		r.pos = n.P
		if !r.spent(budget.Step) {
			r.chargeNamed(budget.Step, "filter", n.Name)
		}
		// callFilter written out for the bound filter, wrapped or not (an
		// unwrapped default's admission charges its wrapper's step): a
		// function holding two calls is past Go's inlining budget, and a
		// call of it would copy x once more
		var f builtins.FilterFunc
		var step int64
		switch impl := n.Impl.(type) {
		case builtins.UnwrappedFilter:
			f, step = builtins.FilterFunc(impl), budget.Step
		case builtins.FilterFunc:
			f = impl
		}
		var v value.Value
		if f == nil {
			v = r.CallFilter(n.Name, x, args)
		} else {
			if metering {
				r.admitFilter(n.Name, &x, args, step)
			}
			v = f(r, x, args)
		}
		r.argsDone(kw, false)
		return v
	case *syntax.Test:
		x := r.eval(n.X, sc)
		args, kw := r.evalArgs(&n.CallArgs, sc)
		r.pos = n.P
		if !r.spent(budget.Step) {
			r.chargeNamed(budget.Step, "test", n.Name)
		}
		var b bool
		if t, ok := n.Impl.(builtins.TestFunc); ok {
			b = r.callTest(t, n.Name, x, args)
		} else {
			b = r.CallTest(n.Name, x, args)
		}
		r.argsDone(kw, false)
		return value.FromBool(b != n.Negated)
	case *syntax.Unary:
		x := r.eval(n.X, sc)
		r.pos = n.P
		if !r.spent(budget.Step) {
			r.chargeNamed(budget.Step, "operator", n.Op)
		}
		switch n.Op {
		case "not":
			return value.FromBool(!r.truth(x))
		case "-":
			return value.Neg(r, x)
		case "+":
			return value.Pos(r, x)
		}
		errs.Throwf(errs.Internal, "unknown unary operator %s", n.Op)
	case *syntax.Binary:
		return r.evalBinary(n, sc)
	case *syntax.Compare:
		return r.evalCompare(n, sc)
	case *syntax.CondExpr:
		r.step("conditional expression")
		if r.cond(n.Cond, sc) {
			return r.eval(n.Then, sc)
		}
		if n.Else == nil {
			return value.UndefHint("", "the inline if-expression on line evaluated to false and no else section was defined.")
		}
		return r.eval(n.Else, sc)
	case *syntax.ListLit:
		r.Charge(budget.Step+int64(len(n.Items))*(budget.Slot+budget.Elem), "list literal")
		items := vmem.Fresh(make([]value.Value, len(n.Items)))
		for i, it := range n.Items {
			items[i] = r.eval(it, sc)
		}
		return value.NewList(items)
	case *syntax.TupleLit:
		r.Charge(budget.Step+int64(len(n.Items))*(budget.Slot+budget.Elem), "tuple literal")
		items := vmem.Fresh(make([]value.Value, len(n.Items)))
		for i, it := range n.Items {
			items[i] = r.eval(it, sc)
		}
		return value.NewTuple(items)
	case *syntax.DictLit:
		r.Charge(budget.Step+int64(len(n.Keys))*vmem.DictInsertUnits, "dict literal")
		d := value.NewDict(len(n.Keys))
		for i, k := range n.Keys {
			kv := r.eval(k, sc)
			vv := r.eval(n.Values[i], sc)
			r.pos = k.Pos()
			r.hashKey(kv)
			d.Set(kv, vv)
		}
		return value.FromDict(d)
	case *syntax.NSRef:
		errs.Throw(errs.Syntax, "namespace reference outside an assignment")
	}
	errs.Throwf(errs.Internal, "unknown expression %T", e)
	return value.Value{}
}

// hashKey refuses an undefined or unhashable key and charges hashing it.
func (r *renderer) hashKey(k value.Value) {
	if k.IsUndefined() && r.Strict() {
		// Jinja2's Undefined hashes (all undefineds are one key, printed
		// Undefined); StrictUndefined's __hash__ raises
		vops.ThrowUndefined(k)
	}
	value.ChargeKey(r, k, "hashing key")
}

// noArgs is the arguments of a call that passes none (a filter with no
// parentheses). Like CallArgs.Fixed it is shared: nothing may modify it;
// and like it, it is sized (0 bytes) for the scratch check.
var noArgs = &value.Args{Sized: 1}

// argBuf holds a call's arguments with room for the common few inline, so
// a call allocates once, not twice.
type argBuf struct {
	a   value.Args
	pos [3]value.Value
}

// takeArgs returns an empty argument buffer, recycled when the renderer
// has one (releaseArgs).
func (r *renderer) takeArgs() *argBuf {
	if n := len(r.argBufs); n > 0 {
		ab := r.argBufs[n-1]
		r.argBufs = r.argBufs[:n-1]
		return ab
	}
	return &argBuf{}
}

// releaseArgs recycles the buffer of arguments evalArgs built, once the
// callee holds none of them; shared arguments (CallArgs.Fixed, noArgs)
// are not a buffer and stay. Cleared, so the pool holds no value.
func (r *renderer) releaseArgs(ab *argBuf) {
	if len(r.argBufs) < maxPooledArgs {
		clear(ab.pos[:])
		ab.a = value.Args{}
		r.argBufs = append(r.argBufs, ab)
	}
}

// maxPooledArgs is the most argument buffers a renderer keeps (one a
// nested call in flight).
const maxPooledArgs = 64

// kvBytes is the size of a keyword argument (its name and its value).
const kvBytes = 16 + vmem.ValueBytes

// The keyword arguments of the calls being evaluated live on r.kwStack,
// each call's above those of the calls around it, until the call returns
// (argsDone): a call's keywords were 64 bytes of garbage each (dict() with
// 16,384 of them allocated 2.2 bytes a unit). A callee that keeps its
// arguments past its return copies them (copyArgs), as it always had to;
// a callee's Kw has no spare capacity, so appending to it copies too.

// growKw makes room for n more keyword arguments, charging the new array
// before it is made (doubling: a render's stack grows a few times, to
// what its most keywords in flight need; a render whose calls pass one
// keyword pays for one).
func (r *renderer) growKw(n int) {
	need := len(r.kwStack) + n
	if need <= cap(r.kwStack) {
		return
	}
	size := max(2*cap(r.kwStack), need)
	r.Charge(budget.Mul(int64(size), kvBytes), "call arguments")
	r.kwStack = vmem.Append(vmem.Fresh(make([]value.KV, 0, size)), r.kwStack...)
}

// argsMark is what a call's arguments hold until the call returns
// (argsDone): their place on r.kwStack and the buffer they were built in
// (nil for shared arguments).
type argsMark struct {
	kw  int
	buf *argBuf
}

// argsDone drops the keyword arguments of a call that returned and, when
// the callee kept none of its arguments (recycle), recycles their buffer.
func (r *renderer) argsDone(m argsMark, recycle bool) {
	r.kwStack = r.kwStack[:m.kw]
	if recycle && m.buf != nil {
		r.releaseArgs(m.buf)
	}
}

// evalArgs evaluates a call's arguments; the keywords are on r.kwStack
// above the mark it returns, to be dropped after the call (argsDone).
func (r *renderer) evalArgs(ca *syntax.CallArgs, sc *scope) (*value.Args, argsMark) {
	// Each argument is a slot: a constant argument is otherwise free, and
	// a call may pass thousands of them.
	if n := int64(len(ca.Args)+len(ca.Kwargs)) * budget.Slot; n > 0 && !r.spent(n) {
		r.Charge(n, "call arguments")
	}
	switch {
	case ca.Fixed != nil:
		return ca.Fixed, argsMark{kw: len(r.kwStack)} // constants only: built at parse time
	case ca.Args == nil && ca.Kwargs == nil && ca.DynArgs == nil && ca.DynKwargs == nil:
		return noArgs, argsMark{kw: len(r.kwStack)}
	}
	ab := r.takeArgs()
	a := &ab.a
	mark := len(r.kwStack)
	if len(ca.Args) > 0 {
		if len(ca.Args) <= len(ab.pos) {
			a.Pos = ab.pos[:0:len(ca.Args)]
		} else {
			a.Pos = vmem.Fresh(make([]value.Value, 0, len(ca.Args)))
		}
		for _, x := range ca.Args {
			a.Pos = append(a.Pos, r.eval(x, sc))
		}
	}
	if len(ca.Kwargs) > 0 {
		// the calls in the values push and pop above this call's
		// keywords, within the room made here: no append reallocates
		r.growKw(len(ca.Kwargs))
		for _, kw := range ca.Kwargs {
			v := r.eval(kw.X, sc)
			if ca.DupKwarg != "" {
				// a folded filter or test of constants (syntax.CallArgs.
				// DupKwarg): as in a dict, the first place, the last value
				if i := slices.IndexFunc(r.kwStack[mark:], func(x value.KV) bool { return x.Key == kw.Name }); i >= 0 {
					r.kwStack[mark+i].Val = v
					continue
				}
			}
			r.kwStack = append(r.kwStack, value.KV{Key: kw.Name, Val: v})
		}
		a.Kw = r.kwStack[mark:len(r.kwStack):len(r.kwStack)]
		a.Keys = ca.Keys // nil when ** adds to them
	}
	if ca.DynArgs != nil {
		a.Pos = vmem.Append(a.Pos, r.elements(r.eval(ca.DynArgs, sc), "argument unpacking")...)
	}
	if ca.DynKwargs != nil {
		v := r.eval(ca.DynKwargs, sc)
		d := v.DictData()
		if v.Kind() != value.Dict {
			errs.Throwf(errs.Type, "argument after ** must be a mapping, not %s", v.TypeName())
		}
		r.Charge(int64(d.Len())*budget.Elem, "argument unpacking")
		if need := len(a.Kw) + d.Len(); cap(a.Kw) < need {
			// one allocation, not a doubling's copies, its pages touched
			// before the keywords' pointers are stored (vmem.Fresh)
			a.Kw = vmem.Append(vmem.Fresh(make([]value.KV, 0, need)), a.Kw...)
		}
		for i := 0; i < d.Len(); i++ {
			k := d.KeyAt(i)
			if !k.IsString() {
				errs.Throw(errs.Type, "keywords must be strings")
			}
			a.Kw = append(a.Kw, value.KV{Key: k.Str(), Val: d.ValAt(i)})
		}
		if len(ca.Kwargs) == 0 {
			// the keywords are d's entries alone: a dict of them shares
			// d's arrays (value.DictFromKw)
			a.Keys = d.KwKeys()
		}
	}
	return a, argsMark{kw: mark, buf: ab}
}

// CallValue implements value.Ctx.
func (r *renderer) CallValue(f value.Value, args *value.Args) value.Value {
	return r.callValue(f, args)
}

func (r *renderer) callValue(f value.Value, args *value.Args) value.Value {
	switch f.Kind() {
	case value.Callable:
		r.Charge(budget.Call, "call")
		c := f.CallableImpl()
		if _, isMacro := c.(*macro); !isMacro {
			r.capability("call", c.CallName())
		}
		return c.Call(r, args)
	case value.Undefined:
		vops.ThrowUndefined(f)
	case value.Object:
		if c, ok := f.ObjectImpl().(value.CallableImpl); ok {
			r.Charge(budget.Call, "call")
			return c.Call(r, args)
		}
	}
	errs.Throwf(errs.Type, "%s object is not callable", errs.Quote(f.TypeName()))
	return value.Value{}
}

func (r *renderer) evalBinary(n *syntax.Binary, sc *scope) value.Value {
	switch n.Op {
	case "and":
		l := r.eval(n.L, sc)
		r.step("operator and")
		if !r.truth(l) {
			return l
		}
		return r.eval(n.R, sc)
	case "or":
		l := r.eval(n.L, sc)
		r.step("operator or")
		if r.truth(l) {
			return l
		}
		return r.eval(n.R, sc)
	}
	l := r.eval(n.L, sc)
	rv := r.eval(n.R, sc)
	r.pos = n.P
	if !r.spent(budget.Step) {
		r.chargeNamed(budget.Step, "operator", n.Op)
	}
	switch n.Op {
	case "+":
		return value.Add(r, l, rv)
	case "-":
		return value.Sub(r, l, rv)
	case "*":
		return value.Mul(r, l, rv)
	case "/":
		return value.Div(r, l, rv)
	case "//":
		return value.FloorDiv(r, l, rv)
	case "%":
		return builtins.Mod(r, l, rv)
	case "**":
		return value.Pow(r, l, rv)
	case "~":
		if r.autoescape && (l.IsSafe() || rv.IsSafe()) && constExpr(n) {
			// Jinja folds a constant ~ at compile time with str(), which
			// drops the markup; the printed result is then escaped.
			return value.FromString(r.stringify(l) + r.stringify(rv))
		}
		return r.concat(l, rv)
	}
	errs.Throwf(errs.Internal, "unknown operator %s", n.Op)
	return value.Value{}
}

// constExpr reports whether Jinja's optimizer would fold e at compile
// time: literals and operators, filters and tests over them.
func constExpr(e syntax.Expr) bool {
	switch n := e.(type) {
	case *syntax.Const:
		return true
	case *syntax.Fold:
		return constExpr(n.X)
	case *syntax.Binary:
		return constExpr(n.L) && constExpr(n.R)
	case *syntax.Unary:
		return constExpr(n.X)
	case *syntax.Filter:
		if n.X == nil || !constExpr(n.X) || n.DynArgs != nil || n.DynKwargs != nil {
			return false
		}
		for _, a := range n.Args {
			if !constExpr(a) {
				return false
			}
		}
		for _, kw := range n.Kwargs {
			if !constExpr(kw.X) {
				return false
			}
		}
		return true
	case *syntax.ListLit:
		for _, it := range n.Items {
			if !constExpr(it) {
				return false
			}
		}
		return true
	case *syntax.TupleLit:
		for _, it := range n.Items {
			if !constExpr(it) {
				return false
			}
		}
		return true
	}
	return false
}

// safeRepr is Jinja2's has_safe_repr: what its optimizer can write into
// the code it generates as a constant.
func safeRepr(v value.Value) bool {
	switch v.Kind() {
	case value.None, value.Bool, value.Int, value.Float, value.String:
		return true
	case value.List, value.Tuple:
		if vops.IsDictView(v) {
			return false
		}
		for _, it := range v.Items() {
			if !safeRepr(it) {
				return false
			}
		}
		return true
	case value.Dict:
		d := v.DictData()
		for i := 0; i < d.Len(); i++ {
			if !safeRepr(d.KeyAt(i)) || !safeRepr(d.ValAt(i)) {
				return false
			}
		}
		return true
	}
	return false
}

// constOperand reports whether Jinja2's as_const folds e: constExpr
// widened by the lookups of constants (nodes.Getattr, Getitem and Slice
// fold through the sandbox's getattr and getitem), tests, comparisons,
// conditional expressions and dict literals of constants.
func constOperand(e syntax.Expr) bool {
	switch n := e.(type) {
	case nil:
		return true
	case *syntax.Fold:
		return true
	case *syntax.Attr:
		return constOperand(n.X)
	case *syntax.Item:
		return constOperand(n.X) && constOperand(n.Key)
	case *syntax.Slice:
		return n.X != nil && constOperand(n.X) && constOperand(n.Start) && constOperand(n.Stop) && constOperand(n.Step)
	case *syntax.Test:
		return constOperand(n.X) && constArgs(&n.CallArgs)
	case *syntax.Filter:
		return n.X != nil && constOperand(n.X) && constArgs(&n.CallArgs)
	case *syntax.Compare:
		if !constOperand(n.First) {
			return false
		}
		for _, o := range n.Ops {
			if !constOperand(o.X) {
				return false
			}
		}
		return true
	case *syntax.CondExpr:
		return constOperand(n.Cond) && constOperand(n.Then) && constOperand(n.Else)
	case *syntax.Binary:
		return constOperand(n.L) && constOperand(n.R)
	case *syntax.Unary:
		return constOperand(n.X)
	case *syntax.DictLit:
		for i := range n.Keys {
			if !constOperand(n.Keys[i]) || !constOperand(n.Values[i]) {
				return false
			}
		}
		return true
	case *syntax.ListLit:
		for _, it := range n.Items {
			if !constOperand(it) {
				return false
			}
		}
		return true
	case *syntax.TupleLit:
		for _, it := range n.Items {
			if !constOperand(it) {
				return false
			}
		}
		return true
	}
	return constExpr(e)
}

func constArgs(a *syntax.CallArgs) bool {
	if a.DynArgs != nil || a.DynKwargs != nil {
		return false
	}
	for _, x := range a.Args {
		if !constOperand(x) {
			return false
		}
	}
	for _, k := range a.Kwargs {
		if !constOperand(k.X) {
			return false
		}
	}
	return true
}

// concat is Jinja's ~: str_join, or markup_join under autoescape when an
// operand is markup.
func (r *renderer) concat(a, b value.Value) value.Value {
	if a.Kind() == value.String && b.Kind() == value.String && !(r.autoescape && (a.IsSafe() || b.IsSafe())) {
		// str(a) + str(b) of two strings is Python's str + str: charged
		// before a lazy operand is built, lazy itself when long (the
		// chunked build + has; loops/doubling-tilde)
		return value.ConcatPlain(r, a, b)
	}
	as, bs := r.stringify(a), r.stringify(b)
	// inputs read, then the result allocated: doubling adds up twice
	r.Charge(2*(int64(len(as))+int64(len(bs))), "string concatenation")
	if r.autoescape && (a.IsSafe() || b.IsSafe()) {
		if !a.IsSafe() {
			r.Charge(int64(len(as))*budget.EscapeFactor, "escaping")
			as = value.EscapeHTML(as)
		}
		if !b.IsSafe() {
			r.Charge(int64(len(bs))*budget.EscapeFactor, "escaping")
			bs = value.EscapeHTML(bs)
		}
		return value.Safe(as + bs)
	}
	return value.FromString(as + bs)
}

func (r *renderer) evalCompare(n *syntax.Compare, sc *scope) value.Value {
	return value.FromBool(r.compare(n, sc))
}

// cond is r.truth(r.eval(e, sc)) for an expression whose truth is all
// that is used (an if's test, a conditional expression's, a loop
// filter): a comparison, and/or and not of ones are decided without the
// Values eval makes for them and the truth taken of each. The same steps
// are charged in the same order and the same errors raised as eval's:
// an operand's truth is taken before its operator's step only where it
// cannot raise (truthRaises).
func (r *renderer) cond(e syntax.Expr, sc *scope) bool {
	if condsByEval {
		return r.truth(r.eval(e, sc))
	}
	switch n := e.(type) {
	case *syntax.Compare:
		if len(n.Ops) == 1 && !comparesChained {
			return r.compareOne(n, sc) // compare's first test, without its call
		}
		return r.compare(n, sc)
	case *syntax.Binary:
		if n.Op != "and" && n.Op != "or" {
			break
		}
		op := "operator and" // eval's step names, constants
		if n.Op == "or" {
			op = "operator or"
		}
		var l bool
		if truthRaises(n.L) {
			v := r.eval(n.L, sc)
			r.step(op)
			l = r.truth(v)
		} else {
			l = r.cond(n.L, sc)
			r.step(op)
		}
		if l != (n.Op == "and") {
			return l // and of a false operand, or of a true one
		}
		return r.cond(n.R, sc)
	case *syntax.Unary:
		if n.Op != "not" || truthRaises(n.X) {
			break
		}
		x := r.cond(n.X, sc)
		r.pos = n.P
		if !r.spent(budget.Step) {
			r.chargeNamed(budget.Step, "operator", n.Op)
		}
		return !x
	}
	return r.truth(r.eval(e, sc))
}

// condsByEval makes cond take the truth of eval's value for every
// expression: set only by the test that holds cond to it.
var condsByEval bool

// truthRaises reports whether the truth of e's value may raise (an
// undefined's, in strict mode), as that of a comparison or of a not,
// which are bools, never does.
func truthRaises(e syntax.Expr) bool {
	switch n := e.(type) {
	case *syntax.Compare:
		return false
	case *syntax.Unary:
		return n.Op != "not"
	}
	return true
}

// compare evaluates a (chained) comparison.
func (r *renderer) compare(n *syntax.Compare, sc *scope) bool {
	if len(n.Ops) == 1 && !comparesChained {
		return r.compareOne(n, sc)
	}
	l := r.operand(n.First, sc)
	for i := range n.Ops {
		op := &n.Ops[i] // not a copy of each
		rv := r.operand(op.X, sc)
		r.pos = op.P
		r.step("comparison")
		var ok bool
		switch op.Op {
		case "==":
			ok = value.EqualFrom(r, nil, l, rv)
		case "!=":
			ok = !value.EqualFrom(r, nil, l, rv)
		case "<":
			ok = value.CompareFrom(r, nil, l, rv, "<") == -1
		case "<=":
			c := value.CompareFrom(r, nil, l, rv, "<=")
			ok = c == -1 || c == 0
		case ">":
			ok = value.CompareFrom(r, nil, l, rv, ">") == 1
		case ">=":
			c := value.CompareFrom(r, nil, l, rv, ">=")
			ok = c == 1 || c == 0
		case "in":
			ok = value.Contains(r, rv, l)
		case "notin":
			ok = !value.Contains(r, rv, l)
		default:
			errs.Throwf(errs.Internal, "unknown comparison %s", op.Op)
		}
		if !ok {
			return false
		}
		l = rv
	}
	return true
}

// comparesChained makes compare take its chain's way for one operator
// too: set only by the test that holds compareOne to it.
var comparesChained bool

// compareOne is compare for one operator (score > 0.7, 'urgent' in
// tags), most comparisons: the operands are read and compared in place,
// and the common cases are compared here, without CompareFrom's or
// Contains' call and copies of both operands (a float or an int against
// one of the same kind; a string in a list or tuple of strings). Every
// charge, its order, and every result and error are compare's: any other
// case is CompareFrom's, EqualFrom's or Contains'.
func (r *renderer) compareOne(n *syntax.Compare, sc *scope) bool {
	// operand's two leaves read here, in place, with no call and no copy
	// (an operand is most often a constant or a top-level name of the
	// data, which nothing writes during a render); operand takes any
	// other expression, and a name that is not a top-level one (its
	// rootDataIndex fails again, and its spent, which changes nothing
	// when it fails)
	var lbuf, rbuf value.Value
	var l, rv *value.Value
	switch x := n.First.(type) {
	case *syntax.Const:
		l = &x.Value
	case *syntax.Name:
		if i := r.rootDataIndex(x.Name, sc, &x.Slot); i >= 0 && r.spent(budget.Elem) {
			l = &r.data.Values()[i]
		} else {
			lbuf = r.operand(x, sc)
			l = &lbuf
		}
	default:
		lbuf = r.eval(x, sc)
		l = &lbuf
	}
	op := &n.Ops[0]
	switch x := op.X.(type) {
	case *syntax.Const:
		rv = &x.Value
	case *syntax.Name:
		if i := r.rootDataIndex(x.Name, sc, &x.Slot); i >= 0 && r.spent(budget.Elem) {
			rv = &r.data.Values()[i]
		} else {
			rbuf = r.operand(x, sc)
			rv = &rbuf
		}
	default:
		rbuf = r.eval(x, sc)
		rv = &rbuf
	}
	r.pos = op.P
	r.step("comparison")
	switch op.Op {
	case "==":
		return value.EqualFrom(r, nil, *l, *rv)
	case "!=":
		return !value.EqualFrom(r, nil, *l, *rv)
	case "in":
		return r.contains(rv, l)
	case "notin":
		return !r.contains(rv, l)
	}
	var c int
	switch lk, rk := l.Kind(), rv.Kind(); {
	case lk == value.Float && rk == value.Float:
		// numCompare's float case: 2 (every comparison false) for a NaN
		switch x, y := l.Float(), rv.Float(); {
		case x < y:
			c = -1
		case x > y:
			c = 1
		case x == y:
			c = 0
		default:
			c = 2
		}
	case lk == value.Int && rk == value.Int:
		c = cmp.Compare(l.Int(), rv.Int())
	default:
		c = value.CompareFrom(r, nil, *l, *rv, op.Op)
	}
	switch op.Op {
	case "<":
		return c == -1
	case "<=":
		return c == -1 || c == 0
	case ">":
		return c == 1
	case ">=":
		return c == 1 || c == 0
	}
	errs.Throwf(errs.Internal, "unknown comparison %s", op.Op)
	return false
}

// contains is value.Contains(r, *hay, *needle) with a string needle in a
// list or tuple (no dict view, whose membership hashes the needle)
// tested here, item by item as Contains does: an element charged for
// each item reached, and the needle's bytes for an item of its length.
func (r *renderer) contains(hay, needle *value.Value) bool {
	k := hay.Kind()
	ld, ok := hay.Ref().(*value.ListData)
	if needle.Kind() != value.String || (k != value.List && k != value.Tuple) || !ok ||
		k == value.List && ld.View() != "" {
		return value.Contains(r, *hay, *needle)
	}
	s := needle.Str()
	for i := range ld.Items {
		if !r.spent(budget.Elem) {
			r.Charge(budget.Elem, "membership test")
		}
		it := &ld.Items[i]
		if it.Kind() != value.String || len(it.Str()) != len(s) {
			continue
		}
		if n := int64(len(s)); !r.spent(n) {
			r.Charge(n, "string comparison")
		}
		if it.Str() == s {
			return true
		}
	}
	return false
}

func (r *renderer) evalSlice(n *syntax.Slice, sc *scope) (v value.Value) {
	if n.X == nil {
		// a slice inside a tuple subscript (x[1:2, 3]): Python builds a
		// slice object, which no plain value accepts as a key
		r.pos = n.P
		errs.Throw(errs.Type, "slices inside a tuple subscript are not supported")
	}
	x := r.eval(n.X, sc)
	// The bounds are evaluated first and checked when the object takes
	// them, as Python builds slice(a, b, c) and list.__getitem__ reads
	// it: an undefined object is its own error, and an undefined bound
	// is a TypeError like any other non-integer.
	bound := func(e syntax.Expr) value.Value {
		if e == nil {
			return value.NoneValue
		}
		return r.eval(e, sc)
	}
	sv, ev, pv := bound(n.Start), bound(n.Stop), bound(n.Step)
	if x.Kind() == value.Undefined {
		vops.ThrowUndefined(x)
	}
	r.pos = n.P
	// A slice in a constant expression is computed by Jinja2's
	// optimizer through the sandbox's getitem, which turns the TypeError
	// of an object that takes no slice, or of bounds that are not
	// integers, into an undefined value (Getitem.as_const; syntax.Fold,
	// Output.Const, renderer.folding); any other slice is Python's
	// subscript, and the TypeError stands. Python checks the object
	// first, then the step (its type, then zero), then start and stop
	// (PySlice_Unpack).
	if r.folding {
		defer func() {
			if p := recover(); p != nil {
				if e, ok := p.(*errs.Error); ok && e.Kind == errs.Type && e.PyError == "" {
					v = value.Undef("")
					return
				}
				panic(p)
			}
		}()
	}
	idx := func(v value.Value) (int64, bool) {
		switch v.Kind() {
		case value.None:
			return 0, false
		case value.Int, value.Bool:
			return v.Int(), true
		}
		errs.Throw(errs.Type, "slice indices must be integers or None or have an __index__ method")
		return 0, false
	}
	switch x.Kind() {
	case value.String:
	case value.List, value.Tuple:
		if vops.IsDictView(x) {
			errs.Throwf(errs.Type, "%s object is not subscriptable", errs.Quote(x.TypeName()))
		}
	default:
		errs.Throwf(errs.Type, "%s object is not subscriptable", errs.Quote(x.TypeName()))
	}
	step, hasStep := idx(pv)
	if !hasStep {
		step = 1
	}
	if step == 0 {
		errs.Throw(errs.Render, "slice step cannot be zero")
	}
	start, hasStart := idx(sv)
	stop, hasStop := idx(ev)
	r.step("slice")
	var length int
	var runes []rune
	var items []value.Value
	if x.Kind() == value.String {
		r.Charge(int64(x.ByteLen()), "slice") // before a lazy string is built
		s := x.Str()
		if strutil.RuneLen(s) == len(s) {
			length = len(s)
		} else {
			// the code points are indexed: 4 bytes each, paid first
			r.Charge(4*int64(len(s)), "slice")
			runes = []rune(s)
			length = len(runes)
		}
	} else {
		items = x.Items()
		length = len(items)
	}
	lo, hi := sliceBounds(int64(length), start, hasStart, stop, hasStop, step)
	count := sliceLen(lo, hi, step)
	rStart, _, rStep, isRange := value.RangeOf(x)
	// the result is charged before it is built: a string's bytes, a
	// list's elements each a slot and an element found (8 units an item
	// ran 3.8 ns and 5.9 bytes a unit, docs/COSTS.md)
	if items != nil {
		r.Charge(budget.Mul(int64(count), budget.Slot+budget.Elem), "slice")
	} else {
		r.Charge(int64(count)*budget.Elem/8, "slice")
	}
	// at yields the count picked indices in order (no index list is built)
	at := func(yield func(int)) {
		i := lo
		for k := 0; k < count; k++ {
			yield(int(i))
			if k+1 < count {
				i += step
			}
		}
	}
	switch x.Kind() {
	case value.String:
		s := x.Str()
		if runes == nil && step == 1 && count > 0 {
			return value.StringLike(x, s[lo:lo+int64(count)])
		}
		var sb strings.Builder
		if runes == nil {
			sb.Grow(count)
			at(func(p int) { sb.WriteByte(s[p]) })
		} else {
			// the picked code points are at most the string's bytes
			// (invalid bytes aside): grown once, not by doubling
			sb.Grow(len(s))
			at(func(p int) { sb.WriteRune(runes[p]) })
		}
		return value.StringLike(x, sb.String())
	}
	out := vmem.Fresh(make([]value.Value, 0, count))
	at(func(p int) { out = append(out, items[p]) })
	if x.Kind() == value.Tuple {
		return value.NewTuple(out)
	}
	if isRange {
		// Python's range(start, stop, step)[lo:hi:k] is range(start +
		// lo*step, start + hi*step, step*k), lo and hi the slice's indices
		return value.NewRange(vops.AddInt(r, rStart, vops.MulInt(r, lo, rStep)),
			vops.AddInt(r, rStart, vops.MulInt(r, hi, rStep)), vops.MulInt(r, rStep, step), out)
	}
	return value.NewList(out)
}

// sliceLen is the number of indices range(lo, hi, step) holds (step != 0;
// lo and hi within [-1, length]), without overflow for any int64 step.
func sliceLen(lo, hi, step int64) int {
	switch {
	case step > 0 && lo < hi:
		return int(uint64(hi-lo-1)/uint64(step)) + 1
	case step < 0 && lo > hi:
		return int(uint64(lo-hi-1)/uint64(-step)) + 1 // uint64(-MinInt64) is 2^63
	}
	return 0
}

// sliceBounds is Python's slice.indices.
func sliceBounds(length, start int64, hasStart bool, stop int64, hasStop bool, step int64) (int64, int64) {
	var lo, hi int64
	if step > 0 {
		lo, hi = 0, length
	} else {
		lo, hi = length-1, -1
	}
	adj := func(v int64, isStart bool) int64 {
		if v < 0 {
			v += length
			if v < 0 {
				if step < 0 {
					return -1
				}
				return 0
			}
		} else if v >= length {
			if step < 0 {
				return length - 1
			}
			return length
		}
		return v
	}
	if hasStart {
		lo = adj(start, true)
	}
	if hasStop {
		hi = adj(stop, false)
	}
	return lo, hi
}
