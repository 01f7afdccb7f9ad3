package value

import "github.com/jinjabox/jinjabox/engine/errs"

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
func (n *Namespace) Set(name string, v Value) {
	CheckData(v, "namespace attribute")
	n.D.SetStr(name, v)
}

// CheckData refuses callables and runtime objects other than data where
// only data may be stored (namespace attributes).
func CheckData(v Value, where string) {
	switch v.k {
	case Callable:
		Throwf(errs.Security, "a %s may hold data only, not a callable", where)
	case List, Tuple:
		for _, it := range v.Items() {
			CheckData(it, where)
		}
	case Dict:
		d := v.DictData()
		for i := 0; i < d.Len(); i++ {
			CheckData(d.vals[i], where)
		}
	}
}
