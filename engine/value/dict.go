package value

import "github.com/jinjabox/jinjabox/engine/errs"

// DictData is an insertion-ordered dict with Python key equality
// (1, 1.0 and True are the same key; ints and floats compare exactly).
// Every hashable key kind is hashed (keyHash): lookups and inserts are one
// probe on average whatever the keys, as in Python. Templates cannot
// mutate dicts; the engine builds them once.
type DictData struct {
	keys []Value
	vals []Value
	// ix is the hash index, nil while the dict has smallDict entries or
	// fewer: those are scanned, with no hash computed or stored.
	ix *dictIndex
	// size caches Size plus one once computed in full (0: not yet); Set
	// clears it, as the only mutation (namespaces, dicts being built).
	size int64
	// dataOnly records that CheckData found no callable inside; Set
	// clears it.
	dataOnly bool
}

const smallDict = 8

// dictIndex is a dict's hash index: hashes[i] is keyHash(keys[i]); table
// is open-addressed (linear probing, at most half full), each slot the
// entry index plus one, 0 when empty.
type dictIndex struct {
	hashes []uint64
	table  []int32
}

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
	kv := FromString(k)
	var h uint64
	if d.ix != nil {
		h, _ = keyHash(kv)
	}
	d.add(kv, v, h)
}

// add appends an entry whose (hashable) key is not present and indexes it
// once the dict is past smallDict entries; h is the key's hash when the
// dict has its index already.
func (d *DictData) add(k, v Value, h uint64) {
	d.keys = append(d.keys, k)
	d.vals = append(d.vals, v)
	n := len(d.keys)
	switch {
	case d.ix == nil && n <= smallDict:
	case d.ix == nil:
		d.ix = &dictIndex{hashes: make([]uint64, n, cap(d.keys))}
		for i, k := range d.keys {
			d.ix.hashes[i], _ = keyHash(k)
		}
		d.rehash()
	default:
		d.ix.hashes = append(d.ix.hashes, h)
		if 2*n > len(d.ix.table) {
			d.rehash()
		} else {
			d.place(n - 1)
		}
	}
}

// rehash builds the index at twice the entries or more (a power of two).
func (d *DictData) rehash() {
	size := 16
	for size < 2*len(d.keys)+2 {
		size *= 2
	}
	d.ix.table = make([]int32, size)
	for i := range d.keys {
		d.place(i)
	}
}

// place puts entry i in its first free slot.
func (d *DictData) place(i int) {
	t := d.ix.table
	mask := uint64(len(t) - 1)
	for j := d.ix.hashes[i] & mask; ; j = (j + 1) & mask {
		if t[j] == 0 {
			t[j] = int32(i + 1)
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

// find returns the index of the entry whose key equals k, or -1 (always
// for an unhashable k, which equals no key), and k's hash when the dict
// has its index.
func (d *DictData) find(k Value) (int, uint64) {
	if d == nil {
		return -1, 0
	}
	if d.ix == nil {
		for i := range d.keys {
			if keyEqual(d.keys[i], k) {
				return i, 0
			}
		}
		return -1, 0
	}
	h, ok := keyHash(k)
	if !ok {
		return -1, 0
	}
	t, hashes := d.ix.table, d.ix.hashes
	mask := uint64(len(t) - 1)
	for j := h & mask; ; j = (j + 1) & mask {
		e := t[j]
		if e == 0 {
			return -1, h
		}
		if i := int(e - 1); hashes[i] == h && keyEqual(d.keys[i], k) {
			return i, h
		}
	}
}

// Get returns the value for k (absent when k is unhashable).
func (d *DictData) Get(k Value) (Value, bool) {
	i, _ := d.find(k)
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
	if !Hashable(k) {
		Throwf(errs.Type, "unhashable type: %s", errs.Quote(k.TypeName()))
	}
	i, h := d.find(k)
	if i >= 0 {
		d.vals[i] = v
		return
	}
	d.add(k, v, h)
}

// Add inserts k when no equal key is present and reports whether it did
// (a set's add: unique's seen keys).
func (d *DictData) Add(k Value) bool {
	if !Hashable(k) {
		return false
	}
	i, h := d.find(k)
	if i >= 0 {
		return false
	}
	d.size, d.dataOnly = 0, false
	d.add(k, NoneValue, h)
	return true
}

// SetStr sets a string key.
func (d *DictData) SetStr(k string, v Value) { d.Set(FromString(k), v) }

// Reset empties d, keeping its storage (with room for n entries), and
// clears what it held so it keeps no value alive. Only for a dict nothing
// else refers to.
func (d *DictData) Reset(n int) {
	clear(d.keys[:cap(d.keys)])
	clear(d.vals[:cap(d.vals)])
	if cap(d.keys) < n || cap(d.vals) < n {
		*d = *NewDict(n)
		return
	}
	*d = DictData{keys: d.keys[:0], vals: d.vals[:0]}
}

// Copy returns a shallow copy.
func (d *DictData) Copy() *DictData {
	n := NewDict(d.Len())
	n.keys = append(n.keys, d.keys...)
	n.vals = append(n.vals, d.vals...)
	if d.ix != nil {
		n.ix = &dictIndex{hashes: append([]uint64(nil), d.ix.hashes...), table: append([]int32(nil), d.ix.table...)}
	}
	return n
}
