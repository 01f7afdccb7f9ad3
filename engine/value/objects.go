package value

import (
	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
)

// Namespace is the object namespace() returns: a mutable bag of data
// attributes that {% set ns.x = ... %} writes. It holds data only.
type Namespace struct {
	D *DictData
}

// TypeName implements ObjectImpl.
func (n *Namespace) TypeName() string { return "Namespace" }

// Attr implements ObjectImpl.
func (n *Namespace) Attr(c Ctx, name string) (Value, bool) {
	return n.D.GetStr(name)
}

// Set assigns an attribute; storing a callable is refused (capability rule).
func (n *Namespace) Set(c Ctx, name string, v Value) {
	CheckData(c, v, "namespace attribute")
	n.D.SetStr(name, v)
}

// CallableState is implemented by an object that has a Call method but is
// callable only in some states: a loop object is callable in a recursive
// loop only.
type CallableState interface {
	Callable() bool
}

// Holder is an object that holds values a template can read back through
// it (a cycler's items, a loop's previous, current and next items). Rule
// P10's data-only walk (CheckData) looks at every value Held returns, so
// an object that holds a callable is not data, wherever it is stored.
type Holder interface {
	Held() []Value
}

// isCallable is Python's callable(): a callable value, or an object with a
// Call method (unless it says it is not callable in its present state).
func isCallable(v Value) bool {
	switch v.k {
	case Callable:
		return true
	case Object:
		if _, ok := v.ref.(CallableImpl); !ok {
			return false
		}
		if s, ok := v.ref.(CallableState); ok {
			return s.Callable()
		}
		return true
	}
	return false
}

// CheckData refuses a callable anywhere in v where only data may be stored
// (namespace attributes: a namespace holds data, never code): list and tuple items, dict keys and
// values, the items of an iterable object (a generator is drained), at any
// depth. Objects that are not callable (self, a cycler, a module, an
// artefact) are stored as they are; a namespace is checked when its own
// attributes are set.
//
// The walk is charged a slot per item. A container found to hold data only
// is marked, so checking it again is free: containers never change, and
// without the mark a namespace that wraps its own list each round would
// pay for the whole nest every round (and a DAG of shared tuples would
// cost its exponential number of paths).
func CheckData(c Ctx, v Value, where string) { checkData(c, v, where) }

// checkData is CheckData; it reports whether v's check holds for good, so
// its container may be marked: an iterable object is drained at every
// check (it decides what it yields), so a container holding one is never
// marked. Seal marks exactly what checkData would, ahead of any render.
func checkData(c Ctx, v Value, where string) (stable bool) {
	if isCallable(v) {
		errs.Throwf(errs.Security, "a %s may hold data only, not a callable", where)
	}
	switch v.k {
	case List, Tuple:
		ld := v.ref.(*ListData)
		if ld.dataOnly {
			return true
		}
		c.Charge(int64(len(ld.Items))*budget.Slot, "checking namespace data")
		stable = true
		for _, it := range ld.Items {
			stable = checkData(c, it, where) && stable
		}
		if stable {
			ld.dataOnly = true
		}
		return stable
	case Dict:
		d := v.DictData()
		if d.dataOnly {
			return true
		}
		c.Charge(int64(d.Len())*2*budget.Slot, "checking namespace data")
		stable = true
		for i := 0; i < d.Len(); i++ {
			stable = checkData(c, d.keys[i], where) && stable
			stable = checkData(c, d.vals[i], where) && stable
		}
		if stable {
			d.dataOnly = true
		}
		return stable
	case Object:
		if _, ok := v.ref.(*Namespace); ok {
			return true
		}
		if h, ok := v.ref.(Holder); ok {
			// everything it can give back (a cycler's items, a loop's
			// previous, current and later items): not only what iterating
			// it yields next
			items := h.Held()
			c.Charge(int64(len(items))*budget.Slot, "checking namespace data")
			for _, x := range items {
				checkData(c, x, where)
			}
			return false
		}
		if it, ok := v.ref.(Iterable); ok {
			items := it.Iter(c)
			c.Charge(int64(len(items))*budget.Slot, "checking namespace data")
			for _, x := range items {
				checkData(c, x, where)
			}
			return false
		}
	}
	return true
}
