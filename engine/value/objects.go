package value

import (
	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/errs"
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

// CheckData refuses callables and runtime objects other than data where
// only data may be stored (namespace attributes).
//
// A container found to hold data only is marked, so checking it again is
// free: containers never change, and without the mark a namespace that
// wraps its own list each round would pay for the whole nest every round.
func CheckData(c Ctx, v Value, where string) {
	switch v.k {
	case Callable:
		Throwf(errs.Security, "a %s may hold data only, not a callable", where)
	case List, Tuple:
		ld := v.ref.(*ListData)
		if ld.dataOnly {
			return
		}
		c.Charge(int64(len(ld.Items))*budget.Slot, "checking namespace data")
		for _, it := range ld.Items {
			CheckData(c, it, where)
		}
		ld.dataOnly = true
	case Dict:
		d := v.DictData()
		if d.dataOnly {
			return
		}
		c.Charge(int64(d.Len())*budget.Slot, "checking namespace data")
		for i := 0; i < d.Len(); i++ {
			CheckData(c, d.vals[i], where)
		}
		d.dataOnly = true
	}
}
