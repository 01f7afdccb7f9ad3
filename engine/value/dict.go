package value

import "github.com/jinjabox/jinjabox/engine/errs"

// DictData is an insertion-ordered dict with Python key equality
// (1, 1.0 and True are the same key; ints and floats compare exactly).
// Every hashable key kind is hashed (keyHash): lookups and inserts are one
// probe on average whatever the keys, as in Python. Templates cannot
// mutate dicts; the engine builds them once.
type DictData struct {
	keys   []Value
	vals   []Value
	hashes []uint64 // hashes[i] is keyHash(keys[i])
	// table is an open-addressed index (linear probing, at most half
	// full): entry index plus one, 0 for an empty slot; nil while the
	// dict has smallDict entries or fewer, which are scanned.
	table []int32
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
	return &DictData{keys: buf[:0:n], vals: buf[n : n : 2*n], hashes: make([]uint64, 0, n)}
}

// appendStr adds a string key known not to be present (copy-in of a Go
// map, whose keys are unique).
func (d *DictData) appendStr(k string, v Value) {
	kv := FromString(k)
	h, _ := keyHash(kv)
	d.size = 0
	d.add(kv, v, h)
}

// add appends an entry whose key is not present and indexes it.
func (d *DictData) add(k, v Value, h uint64) {
	d.keys = append(d.keys, k)
	d.vals = append(d.vals, v)
	d.hashes = append(d.hashes, h)
	n := len(d.keys)
	switch {
	case d.table == nil && n <= smallDict:
	case 2*n > len(d.table):
		d.rehash()
	default:
		d.place(n - 1)
	}
}

// rehash builds the index at twice the entries or more (a power of two).
func (d *DictData) rehash() {
	size := 16
	for size < 2*len(d.keys)+2 {
		size *= 2
	}
	d.table = make([]int32, size)
	for i := range d.keys {
		d.place(i)
	}
}

// place puts entry i in its first free slot.
func (d *DictData) place(i int) {
	mask := uint64(len(d.table) - 1)
	for j := d.hashes[i] & mask; ; j = (j + 1) & mask {
		if d.table[j] == 0 {
			d.table[j] = int32(i + 1)
			return
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

// find returns the index of the entry whose key equals k (hash h), or -1.
func (d *DictData) find(k Value, h uint64) int {
	if d == nil {
		return -1
	}
	if d.table == nil {
		for i := range d.keys {
			if d.hashes[i] == h && keyEqual(d.keys[i], k) {
				return i
			}
		}
		return -1
	}
	mask := uint64(len(d.table) - 1)
	for j := h & mask; ; j = (j + 1) & mask {
		e := d.table[j]
		if e == 0 {
			return -1
		}
		if i := int(e - 1); d.hashes[i] == h && keyEqual(d.keys[i], k) {
			return i
		}
	}
}

// Get returns the value for k (absent when k is unhashable).
func (d *DictData) Get(k Value) (Value, bool) {
	h, ok := keyHash(k)
	if !ok {
		return Value{}, false
	}
	i := d.find(k, h)
	if i < 0 {
		return Value{}, false
	}
	return d.vals[i], true
}

// GetStr returns the value for a string key.
func (d *DictData) GetStr(k string) (Value, bool) {
	return d.Get(Value{k: String, s: k})
}

// Set inserts or replaces (an existing equal key keeps its first form, as
// in Python). Only the engine calls it while building a dict; the caller
// has refused an unhashable key already (a type error here otherwise).
func (d *DictData) Set(k, v Value) {
	d.size, d.dataOnly = 0, false
	h, ok := keyHash(k)
	if !ok {
		Throwf(errs.Type, "unhashable type: %s", errs.Quote(k.TypeName()))
	}
	if i := d.find(k, h); i >= 0 {
		d.vals[i] = v
		return
	}
	d.add(k, v, h)
}

// Add inserts k when no equal key is present and reports whether it did
// (a set's add: unique's seen keys).
func (d *DictData) Add(k Value) bool {
	h, ok := keyHash(k)
	if !ok || d.find(k, h) >= 0 {
		return false
	}
	d.size, d.dataOnly = 0, false
	d.add(k, NoneValue, h)
	return true
}

// SetStr sets a string key.
func (d *DictData) SetStr(k string, v Value) { d.Set(FromString(k), v) }

// Copy returns a shallow copy.
func (d *DictData) Copy() *DictData {
	n := NewDict(d.Len())
	for i := range d.keys {
		n.add(d.keys[i], d.vals[i], d.hashes[i])
	}
	return n
}
