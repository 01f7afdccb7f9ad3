package builtins

import (
	"strconv"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/policy"
)

// methodFunc implements one audited method of a plain value. args is nil
// for a data attribute (Method.Attr).
type methodFunc func(c value.Ctx, recv value.Value, args *value.Args) value.Value

// boundMethod is a method bound to its receiver: what reading 'x'.upper
// yields. It is a callable, so storing it in a namespace is refused (P10).
type boundMethod struct {
	recv value.Value
	name string
	fn   methodFunc
}

// CallName implements value.CallableImpl.
func (b *boundMethod) CallName() string { return b.recv.TypeName() + "." + b.name }

// Call implements value.CallableImpl: every method call costs budget.Call
// before the method's own size-proportional charges.
func (b *boundMethod) Call(c value.Ctx, args *value.Args) value.Value {
	c.Charge(budget.Call, "method call")
	return b.fn(c, b.recv, args)
}

// impls maps each receiver to its implementations; the policy tables say
// which names are reachable, these say how they run. TestImplsMatchPolicy
// keeps the two in step.
var impls = map[policy.Receiver]map[string]methodFunc{}

func receiverOf(v value.Value) policy.Receiver {
	switch v.Kind() {
	case value.String:
		if v.IsSafe() {
			return policy.Markup
		}
		return policy.Str
	case value.Dict:
		return policy.Dict
	case value.List:
		return policy.List
	case value.Tuple:
		return policy.Tuple
	case value.Int, value.Bool:
		return policy.Int
	case value.Float:
		return policy.Float
	}
	return 0
}

// LookupMethod returns the bound method name of a plain value (str, dict,
// list, tuple, int, float), through the audited allowlist in package policy.
// The underscore rule has already been applied by the caller. For a data
// attribute (int.real) the returned value is the attribute itself.
func LookupMethod(c value.Ctx, recv value.Value, name string) (m value.Value, st MethodStatus, reason string) {
	switch vops.ViewOf(recv) {
	case "":
	case "range":
		// a range has a list's count and index, nothing else of it
		if name != "count" && name != "index" {
			return value.Value{}, MethodNotFound, ""
		}
	default:
		// a dict view has none of a list's methods
		return value.Value{}, MethodNotFound, ""
	}
	r := receiverOf(recv)
	// MayHave first: a bit mask answers most lookups (a dict's keys read
	// as attributes, where a method name wins over a key)
	if !policy.MayHave(r, name) || policy.IsPrivateName(name) {
		return value.Value{}, MethodNotFound, ""
	}
	ent, pst, why := policy.Lookup(r, name)
	switch pst {
	case policy.Refused:
		return value.Value{}, MethodRefused, r.String() + "." + name + " " + why
	case policy.NotFound:
		return value.Value{}, MethodNotFound, ""
	}
	fn := impls[r][name]
	if fn == nil {
		return value.Value{}, MethodNotFound, ""
	}
	if ent.Attr {
		return fn(c, recv, nil), MethodFound, ""
	}
	return value.FromCallable(&boundMethod{recv: recv, name: name, fn: fn}), MethodFound, ""
}

// pyErr raises an engine error carrying the Python exception class.
func pyErr(k errs.Kind, pyClass, msg string) {
	e := errs.New(k, msg)
	e.PyError = pyClass
	panic(e)
}

func valueError(msg string) { pyErr(errs.Render, "ValueError", msg) }
func typeError(msg string)  { pyErr(errs.Type, "TypeError", msg) }

// posArgs returns the positional arguments of a positional-only method,
// checking their number; missing optional ones are value.Missing.
func posArgs(fn string, args *value.Args, min, max int) []value.Value {
	//scratch:ok max is the method's arity, a constant of its table
	out := vmem.Fresh(make([]value.Value, max))
	n := 0
	if args != nil {
		if len(args.Kw) > 0 {
			typeError(fn + "() takes no keyword arguments")
		}
		n = len(args.Pos)
		//scratch:ok out is the method's few parameters: at most that many items move
		copy(out, args.Pos)
	}
	if n < min || n > max {
		switch {
		case min == max:
			typeError(fn + "() takes exactly " + plural(min, "argument") + " (" + strconv.Itoa(n) + " given)")
		case n < min:
			typeError(fn + "() takes at least " + plural(min, "argument") + " (" + strconv.Itoa(n) + " given)")
		default:
			typeError(fn + "() takes at most " + plural(max, "argument") + " (" + strconv.Itoa(n) + " given)")
		}
	}
	for i := n; i < max; i++ {
		out[i] = value.Missing
	}
	return out
}

func plural(n int, w string) string {
	if n == 1 {
		return "1 " + w
	}
	return strconv.Itoa(n) + " " + w + "s"
}

// pyTypeName is the Python class name of a value in argument type errors
// (Jinja's undefined is an instance of Undefined).
func pyTypeName(v value.Value) string {
	if v.IsUndefined() {
		return "Undefined"
	}
	return v.TypeName()
}

// intArg converts an integer argument (int or bool; Python's __index__).
// Jinja's Undefined has no __index__: passing one is a type error.
func intArg(v value.Value) int64 {
	if v.Kind() == value.Int || v.Kind() == value.Bool {
		return v.Int()
	}
	typeError("'" + pyTypeName(v) + "' object cannot be interpreted as an integer")
	return 0
}

// strArg requires a string argument (an undefined one is a type error, as
// in Jinja2 where Undefined is not a str).
func strArg(fn string, v value.Value) string {
	if v.Kind() != value.String {
		typeError(fn + "() argument must be str, not " + pyTypeName(v))
	}
	return v.Str()
}

// optIndex reads an optional start/end argument (None means absent).
func optIndex(v value.Value, def int64) int64 {
	if v.IsMissing() || v.IsNone() {
		return def
	}
	return intArg(v)
}

// adjust clamps Python slice indices to [0, n].
func adjust(start, end, n int64) (int64, int64) {
	if end > n {
		end = n
	} else if end < 0 {
		end += n
		if end < 0 {
			end = 0
		}
	}
	if start < 0 {
		start += n
		if start < 0 {
			start = 0
		}
	}
	return start, end
}

// chargeElems charges a produced container of n items.
func chargeElems(c value.Ctx, n int, op string) {
	c.Charge(budget.Mul(int64(n), budget.Slot+budget.Elem), op)
}
