package value

import (
	"fmt"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
)

// Ctx is what builtins and callables see of the running render. It carries
// the meter explicitly (never a context.Context: workflow code has none).
// Methods that can fail panic with *errs.Error; the engine recovers at its
// API boundary.
type Ctx interface {
	// Charge spends n work units for op or panics with the budget error.
	Charge(n int64, op string)
	// Meter is the render's meter.
	Meter() *budget.Meter
	// Spender is the meter a hot loop may spend from directly (strutil.Spent)
	// before it falls back to Charge, or nil when every charge must go
	// through Charge (a render that polls its host's context on its
	// charges, or one that does not meter).
	Spender() *budget.Meter
	// Autoescape reports whether output is being HTML-escaped.
	Autoescape() bool
	// Attr reads an attribute through the policy chokepoint.
	Attr(v Value, name string) Value
	// Item reads an item (subscript) through the policy chokepoint.
	Item(v Value, key Value) Value
	// Lookup reads one segment of an attribute path (the attribute=
	// arguments of map, sort, groupby, selectattr, sum, ...) with Jinja's
	// getitem-then-getattr rule; a segment of digits indexes a sequence.
	// Underscore segments are refused (security) before the lookup.
	Lookup(v Value, seg string) Value
	// CallFilter runs a registered filter by name.
	CallFilter(name string, v Value, args *Args) Value
	// CallTest runs a registered test by name.
	CallTest(name string, v Value, args *Args) bool
	// HasFilter and HasTest report whether a name is registered.
	HasFilter(name string) bool
	HasTest(name string) bool
	// Rand returns the next number of the render's deterministic generator.
	Rand() uint64
	// Strict reports strict undefined mode.
	Strict() bool
	// CallValue calls a callable value (macros, globals, bound methods).
	// Filters must not use it on values handed to them (capability rule).
	CallValue(f Value, args *Args) Value
}

// KV is one keyword argument.
type KV struct {
	Key string
	Val Value
}

// Args are the arguments of a call.
type Args struct {
	Pos []Value
	Kw  []KV
	// Keys, when set, holds Kw's names in their order, distinct, with
	// their hash index: a call's keyword names, indexed once at parse
	// time, or the mapping a call unpacks with ** (taken at the call, and
	// read before anything runs that could change it). A dict of the
	// keywords is then made with no name hashed or compared (DictFromKw).
	// Whoever builds Args with other keywords leaves it nil.
	Keys *KwKeys
	// Sized is 1 + the Size of all the arguments when it was computed
	// once for arguments that never change (a call's constant arguments,
	// built at parse time: ArgsSize), else 0.
	Sized int64
}

// ArgsSize is the Size of a's arguments together (each sized up to
// limit), taken from a.Sized when that is set and within limit.
func ArgsSize(a *Args, limit int64) int64 {
	if a.Sized > 0 && a.Sized-1 <= limit {
		return a.Sized - 1
	}
	return argsSizeWalk(a, limit)
}

// argsSizeWalk is ArgsSize's walk, apart so that ArgsSize's common case
// (arguments sized at parse time) inlines into the filter call.
func argsSizeWalk(a *Args, limit int64) int64 {
	var n int64
	for i := range a.Pos {
		k, leaf := LeafSize(&a.Pos[i])
		if !leaf {
			k = Size(a.Pos[i], limit)
		}
		n += k
	}
	for i := range a.Kw {
		k, leaf := LeafSize(&a.Kw[i].Val)
		if !leaf {
			k = Size(a.Kw[i].Val, limit)
		}
		n += k
	}
	return n
}

var missingMarker = &undefInfo{Hint: "missing argument"}

// Missing is the value Bind leaves for an argument that was not passed.
var Missing = Value{k: Undefined, ref: missingMarker}

// IsMissing reports whether v is the Missing marker from Bind.
func (v Value) IsMissing() bool { return v.k == Undefined && v.ref == missingMarker }

// unassignedMarker marks the undefined a frame binds to a name it assigns
// later (Jinja2's "missing" local, engine/frames.go). Its hint is empty:
// it reads as the plain undefined name it stands for.
var unassignedMarker = &undefInfo{}

// Unassigned returns the undefined value a frame binds to name before its
// assignment runs.
func Unassigned(name string) Value { return Value{k: Undefined, s: name, ref: unassignedMarker} }

// IsUnassigned reports whether v is a binding made by Unassigned.
func (v Value) IsUnassigned() bool { return v.k == Undefined && v.ref == unassignedMarker }

// Bind matches positional and keyword arguments to names, as Python does
// for a function with those parameters (all optional). Parameters not
// passed are Missing. Extra or unknown arguments are a type error.
func (a *Args) Bind(fn string, names []string, out []Value) {
	if a == nil {
		for i := range out {
			out[i] = Missing
		}
		return
	}
	if len(a.Pos) > len(names) {
		errs.Throw(errs.Type, fmt.Sprintf("%s() takes at most %d positional arguments (%d given)", fn, len(names), len(a.Pos)))
	}
	for i := range out {
		if i < len(a.Pos) {
			out[i] = a.Pos[i]
		} else {
			out[i] = Missing
		}
	}
	for _, kv := range a.Kw {
		found := false
		for i, n := range names {
			if n == kv.Key {
				if i < len(a.Pos) {
					errs.Throw(errs.Type, fmt.Sprintf("%s() got multiple values for argument %s", fn, errs.Quote(kv.Key)))
				}
				out[i] = kv.Val
				found = true
				break
			}
		}
		if !found {
			errs.Throw(errs.Type, fmt.Sprintf("%s() got an unexpected keyword argument %s", fn, errs.Quote(kv.Key)))
		}
	}
}

// Len is the number of arguments.
func (a *Args) Len() int {
	if a == nil {
		return 0
	}
	return len(a.Pos) + len(a.Kw)
}
