package value

import (
	"math"

	"github.com/jinjabox/jinjabox/engine/internal/vmem"
)

// Seal fills every cache a render would otherwise fill lazily on the
// containers of v (their Size, and CheckData's data-only mark), so the
// graph is read-only from then on: a prepared context (and an
// environment's globals) is shared by concurrent renders, and a lazily
// filled cache written by one render while another reads it would be a
// data race. A cache Seal leaves empty (a container whose size can change,
// one holding a callable) is one no render ever fills either.
//
// Any new lazily filled field of ListData or DictData must be filled here.
func Seal(v Value) {
	Size(v, math.MaxInt64)
	sealData(v)
	sealObjects(v, map[any]bool{})
}

// Sealer is implemented by a host object that holds containers a render
// reads (an artefact's content fields): Seal calls SealData on every one
// it finds, which seals them (with Seal), so a graph shared by concurrent
// renders holds no cache left to fill.
type Sealer interface {
	SealData()
}

// sealObjects calls SealData on every Sealer in v, walking each container
// once (seen: a host's shared values may form a DAG).
func sealObjects(v Value, seen map[any]bool) {
	switch v.k {
	case List, Tuple, Dict:
		if seen[v.ref] {
			return
		}
		seen[v.ref] = true
		if d, ok := v.ref.(*DictData); ok {
			for i := range d.keys {
				sealObjects(d.keys[i], seen)
				sealObjects(d.vals[i], seen)
			}
			return
		}
		for _, it := range v.Items() {
			sealObjects(it, seen)
		}
	case Object:
		if s, ok := v.ref.(Sealer); ok && !seen[v.ref] {
			seen[v.ref] = true
			s.SealData()
		}
	}
}

// sealData marks every container of v that checkData would mark (no
// callable at any depth, no iterable object) and reports whether v is
// such a value (markable, once its containers are marked).
func sealData(v Value) bool {
	switch v.k {
	case List, Tuple:
		ld := v.ref.(*ListData)
		if !ld.dataOnly {
			ok := true
			for _, it := range ld.Items {
				ok = sealData(it) && ok
			}
			ld.dataOnly = ok
		}
		return ld.dataOnly
	case Dict:
		d := v.DictData()
		if !d.dataOnly {
			ok := true
			for i := range d.keys {
				ok = sealData(d.keys[i]) && ok
				ok = sealData(d.vals[i]) && ok
			}
			d.dataOnly = ok
		}
		return d.dataOnly
	}
	return markable(v)
}

// markable reports whether checkData finds v data only for good, without
// walking it: a container by its mark, an object unless it is callable or
// iterable (drained at every check), any other value unless callable.
func markable(v Value) bool {
	switch v.k {
	case List, Tuple:
		return v.ref.(*ListData).dataOnly
	case Dict:
		return v.DictData().dataOnly
	case Object:
		if _, iterable := v.ref.(Iterable); iterable {
			return false
		}
	}
	return !isCallable(v)
}

// copiedList is a list the copier built, marked as checkData would mark
// it: copy-in builds data, so a render storing it in a namespace (or a
// prepared context's Seal) has nothing to walk. m is what its copy met
// below it (Copier.leaveContainer): with no value the host made below
// it, the list is data only and its Size, which Size would walk for (a
// filter's scratch check, on every render of data copied in), is set
// from its items' (TestCopiedMarksAsCheckData holds both).
func copiedList(ld *ListData, items []Value, m copyMarks) Value {
	ld.Items, ld.dataOnly = items, m&markImpure == 0
	if m&markUnsized == 0 {
		// sizeOf's sum: 8 a slot, plus a string's bytes or a
		// container's size (set, as the copier built it)
		total := int64(len(items)) * 8
		for i := range items {
			total += copiedSize(&items[i], 0)
		}
		ld.size = total + 1
	}
	return Value{k: List, ref: ld}
}

// copiedSize is what a copied value adds to its container's Size: a
// string its bytes, a container the copier built its size, any other
// value leaf (0 in a list, 8 in a dict, as sizeOf counts them).
func copiedSize(v *Value, leaf int64) int64 {
	switch v.k {
	case String:
		return int64(v.byteLen())
	case List, Tuple:
		return v.ref.(*ListData).size - 1
	case Dict:
		return v.DictData().size - 1
	}
	return leaf
}

// listWith returns a list's header and room for its n items (at their
// exact capacity: an append copies): a small list and its items are one
// allocation, as a small dict and its entries are (NewDict), so the short
// lists of copied-in records (their tags) cost one allocation each.
func listWith(n int) (*ListData, []Value) {
	switch {
	case n == 0:
		return &ListData{}, nil
	case n <= 2:
		x := &list2{}
		return &x.ListData, x.buf[:n:n]
	case n <= 4:
		x := &list4{}
		return &x.ListData, x.buf[:n:n]
	case n <= 8:
		x := &list8{}
		return &x.ListData, x.buf[:n:n]
	}
	//scratch:ok list storage for n elements its caller charged
	return &ListData{}, vmem.Fresh(make([]Value, n))
}

type list2 struct {
	ListData
	buf [2]Value
}

type list4 struct {
	ListData
	buf [4]Value
}

type list8 struct {
	ListData
	buf [8]Value
}

// copiedDict marks a dict the copier built (string keys) as checkData
// would mark it, and sets its Size, as copiedList.
func copiedDict(d *DictData, m copyMarks) Value {
	d.dataOnly = m&markImpure == 0
	if m&markUnsized == 0 {
		total := int64(d.Len()) * 16
		for i := range d.keys {
			total += int64(len(d.keys[i].s)) + copiedSize(&d.vals[i], 8)
		}
		d.size = total + 1
	}
	return FromDict(d)
}
