package value

import "math"

// DictData is an insertion-ordered dict with Python key equality
// (1, 1.0 and True are the same key). Templates cannot mutate dicts; the
// engine builds them once.
type DictData struct {
	keys []Value
	vals []Value
	idx  map[string]int // string keys, built lazily past smallDict entries
	// size caches Size plus one once computed in full (0: not yet); Set
	// clears it, as the only mutation (namespaces, dicts being built).
	size int64
	// dataOnly records that CheckData found no callable inside; Set
	// clears it.
	dataOnly bool
}

const smallDict = 8

// NewDict returns an empty dict with room for n entries.
func NewDict(n int) *DictData {
	// keys and values share one backing array: one allocation, not two.
	buf := make([]Value, 2*n)
	return &DictData{keys: buf[:0:n], vals: buf[n : n : 2*n]}
}

// appendStr adds a string key known not to be present (copy-in of a Go
// map, whose keys are unique).
func (d *DictData) appendStr(k string, v Value) {
	d.size = 0
	d.keys = append(d.keys, Value{k: String, s: k})
	d.vals = append(d.vals, v)
	if d.idx != nil {
		d.idx[k] = len(d.keys) - 1
	} else if len(d.keys) > smallDict {
		d.idx = make(map[string]int, cap(d.keys))
		for i, kk := range d.keys {
			if kk.k == String {
				d.idx[kk.s] = i
			}
		}
	}
}

// Len returns the number of entries.
func (d *DictData) Len() int {
	if d == nil {
		return 0
	}
	return len(d.keys)
}

// Keys returns the keys in insertion order (not to be modified).
func (d *DictData) Keys() []Value { return d.keys }

// Values returns the values in insertion order (not to be modified).
func (d *DictData) Values() []Value { return d.vals }

// KeyAt and ValAt return the i-th entry.
func (d *DictData) KeyAt(i int) Value { return d.keys[i] }

// ValAt returns the i-th value.
func (d *DictData) ValAt(i int) Value { return d.vals[i] }

// Hashable reports whether v can be a dict key (Python's hashable plain
// values: None, bool, numbers, strings, tuples of hashables).
func Hashable(v Value) bool {
	switch v.k {
	case None, Bool, Int, Float, String:
		return true
	case Tuple:
		for _, it := range v.Items() {
			if !Hashable(it) {
				return false
			}
		}
		return true
	case Callable, Object:
		return true
	}
	return false
}

func (d *DictData) find(k Value) int {
	if d == nil {
		return -1
	}
	if k.k == String {
		if d.idx != nil {
			if i, ok := d.idx[k.s]; ok {
				return i
			}
			return -1
		}
		for i := range d.keys {
			if d.keys[i].k == String && d.keys[i].s == k.s {
				return i
			}
		}
		return -1
	}
	for i := range d.keys {
		if d.keys[i].k != String && keyEqual(d.keys[i], k) {
			return i
		}
	}
	return -1
}

func keyEqual(a, b Value) bool {
	switch a.k {
	case Bool, Int, Float:
		if !b.IsNumber() {
			return false
		}
		if a.k != Float && b.k != Float {
			return a.n == b.n
		}
		af, bf := a.Float(), b.Float()
		return af == bf || (math.IsNaN(af) && math.IsNaN(bf) && a.n == b.n)
	case None:
		return b.k == None
	case Tuple:
		if b.k != Tuple {
			return false
		}
		ai, bi := a.Items(), b.Items()
		if len(ai) != len(bi) {
			return false
		}
		for i := range ai {
			if !keyEqual(ai[i], bi[i]) {
				return false
			}
		}
		return true
	case String:
		return b.k == String && a.s == b.s
	}
	return a.k == b.k && a.ref == b.ref
}

// Get returns the value for k.
func (d *DictData) Get(k Value) (Value, bool) {
	i := d.find(k)
	if i < 0 {
		return Value{}, false
	}
	return d.vals[i], true
}

// GetStr returns the value for a string key.
func (d *DictData) GetStr(k string) (Value, bool) {
	return d.Get(Value{k: String, s: k})
}

// Set inserts or replaces. Only the engine calls it while building a dict.
func (d *DictData) Set(k, v Value) {
	d.size, d.dataOnly = 0, false
	if i := d.find(k); i >= 0 {
		d.vals[i] = v
		return
	}
	d.keys = append(d.keys, k)
	d.vals = append(d.vals, v)
	if k.k == String && d.idx != nil {
		d.idx[k.s] = len(d.keys) - 1
	} else if d.idx == nil && len(d.keys) > smallDict {
		d.idx = make(map[string]int, len(d.keys)*2)
		for i, kk := range d.keys {
			if kk.k == String {
				d.idx[kk.s] = i
			}
		}
	}
}

// SetStr sets a string key.
func (d *DictData) SetStr(k string, v Value) { d.Set(Value{k: String, s: k}, v) }

// Copy returns a shallow copy.
func (d *DictData) Copy() *DictData {
	n := NewDict(d.Len())
	for i := range d.keys {
		n.Set(d.keys[i], d.vals[i])
	}
	return n
}
