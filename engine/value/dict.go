package value

import (
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
)

// DictData is an insertion-ordered dict with Python key equality
// (1, 1.0 and True are the same key; ints and floats compare exactly).
// Every hashable key kind is hashed (keyHash): lookups and inserts are one
// probe on average whatever the keys, as in Python. Templates cannot
// mutate dicts; the engine builds them once.
type DictData struct {
	keyIndex
	vals []Value
	// size caches Size plus one once computed in full (0: not yet); Set
	// clears it, as the only mutation (namespaces, dicts being built).
	size int64
	// dataOnly records that CheckData found no callable inside; Set
	// clears it.
	dataOnly bool
	// sharedKeys records that keys, and the index when there is one, are
	// arrays nothing writes: a Copier's (its last top-level names,
	// CopyMapInto; no index) or a parsed call's keyword names
	// (DictFromKw). keys is at full capacity so an add copies it first,
	// and the index with it; Reset lets both go instead of clearing them
	// or taking them as the dict's storage.
	sharedKeys bool
	// sharedVals records that vals is another dict's array too (shared,
	// with sharedKeys): a dict never written once a template holds it,
	// so both read the same entries; vals is at full capacity, and a
	// write copies it first (Set, add), as Reset lets it go.
	sharedVals bool
}

// keyIndex is keys in insertion order with their hash index: a dict's
// keys, and a KeySet's.
type keyIndex struct {
	keys []Value
	// ix is the hash index, nil while there are smallDict keys or fewer
	// (and no more were announced): those are scanned, with no hash
	// computed or stored. It is open-addressed (linear probing, at most
	// half full, a power of two); a slot holds the low 32 bits of its
	// key's hash above the key's index plus one (slotOf), 0 when empty. A
	// probe compares hashes in the table itself and reads a key only when
	// they agree, and the table is rebuilt from its own slots: no array
	// of hashes beside it, no key hashed twice.
	ix []uint64
}

const smallDict = vmem.SmallDict

// slotOf is the index slot of entry i of hash h.
func slotOf(h uint64, i int) uint64 { return h<<32 | uint64(i+1) }

// NewDict returns an empty dict with room for n entries (and, past
// smallDict, its index made at that size, so no entry is placed twice).
func NewDict(n int) *DictData {
	var d *DictData
	var buf []Value
	// a small dict and its entries are one allocation (the many small
	// dicts of copied-in data are walked with one cache miss each, not
	// two); a larger one's keys and values share one array
	switch {
	case n == 0:
		d = &DictData{}
	case n == 1:
		x := &dict1{}
		d, buf = &x.DictData, x.buf[:]
	case n == 2:
		x := &dict2{}
		d, buf = &x.DictData, x.buf[:2*n]
	case n <= 4:
		x := &dict4{}
		d, buf = &x.DictData, x.buf[:2*n]
	case n <= 6:
		x := &dict6{}
		d, buf = &x.DictData, x.buf[:2*n]
	case n <= smallDict:
		x := &dict8{}
		d, buf = &x.DictData, x.buf[:2*n]
	default:
		//scratch:ok dict storage for n entries its caller charged
		d, buf = &DictData{}, vmem.Fresh(make([]Value, 2*n))
	}
	d.keys, d.vals = buf[:0:n], buf[n:n:2*n]
	if n > smallDict {
		//scratch:ok dict storage for n entries its caller charged
		d.ix = make([]uint64, tableSize(n))
	}
	return d
}

// shapedDict returns a dict, to be filled with len(keys) values, whose
// keys are keys: an array another dict already holds, at full capacity,
// so the dict that adds a key copies them first (add), and no index
// (at most smallDict keys). The copied rows of a table share one key
// array and allocate their values alone.
func shapedDict(keys []Value) *DictData {
	var d *DictData
	var buf []Value
	switch n := len(keys); {
	case n <= 2:
		x := &vals2{}
		d, buf = &x.DictData, x.buf[:0:n]
	case n <= 4:
		x := &vals4{}
		d, buf = &x.DictData, x.buf[:0:n]
	case n <= 6:
		x := &vals6{}
		d, buf = &x.DictData, x.buf[:0:n]
	default:
		x := &vals8{}
		d, buf = &x.DictData, x.buf[:0:n]
	}
	d.keys, d.vals = keys, buf
	return d
}

// vals2 to vals8 are a shaped dict with its values inline.
type vals2 struct {
	DictData
	buf [2]Value
}

type vals4 struct {
	DictData
	buf [4]Value
}

type vals6 struct {
	DictData
	buf [6]Value
}

type vals8 struct {
	DictData
	buf [smallDict]Value
}

// dict1, dict2 and dict4 are a dict with room for 1, 2 or 4 entries
// inline.
type dict1 struct {
	DictData
	buf [2]Value
}

type dict2 struct {
	DictData
	buf [4]Value
}

type dict4 struct {
	DictData
	buf [8]Value
}

type dict6 struct {
	DictData
	buf [12]Value
}

// dict8 holds up to smallDict entries: every dict small enough to have no
// index is one allocation (a row of a table's data).
type dict8 struct {
	DictData
	buf [2 * smallDict]Value
}

// tableSize is the index table's size for n entries: a power of two at
// least twice n.
func tableSize(n int) int {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return size
}

// appendStr adds a string key known not to be present (copy-in of a Go
// map, whose keys are unique).
func (d *DictData) appendStr(k string, v Value) { d.appendKey(FromString(k), v) }

// fillKeys gives an empty dict, reset for len(keys) entries (Reset),
// whose values vals holds in order, the distinct keys keys: copied in
// whole where the dict has no index (Reset keeps the index a larger dict
// had, which the keys must then be placed in), else added one by one.
func (d *DictData) fillKeys(keys, vals []Value) {
	d.size = 0
	if d.ix == nil && len(keys) <= smallDict && cap(d.keys) >= len(keys) && cap(d.vals) >= len(vals) {
		d.keys, d.vals = d.keys[:len(keys)], d.vals[:len(vals)]
		copyFew(d.keys, keys)
		copyFew(d.vals, vals)
		return
	}
	for i := range keys {
		d.appendKey(keys[i], vals[i])
	}
}

// appendKey is appendStr for the string value k.
func (d *DictData) appendKey(k, v Value) {
	d.size = 0
	var h uint64
	if d.ix != nil {
		h, _ = keyHash(k)
	}
	d.add(k, v, h)
}

// add appends an entry whose (hashable) key is not present; h is the
// key's hash when the dict has its index.
func (d *DictData) add(k, v Value, h uint64) {
	if len(d.keys) == cap(d.keys) {
		// keys and values grow together, into one array again
		n := max(2*cap(d.keys), smallDict)
		//scratch:ok dict storage: callers charge each entry (budget.Elem a slot) before adding it; the arrays at most double it
		buf := vmem.Fresh(make([]Value, 2*n))
		d.keys = vmem.Append(buf[:0:n], d.keys...)
		d.vals = vmem.Append(buf[n:n:2*n], d.vals...)
		if d.sharedKeys {
			// the index is shared too: this dict's own from here on
			if d.ix != nil {
				//scratch:ok dict index: at most twice the entries its callers charged
				d.ix = vmem.Append(make([]uint64, 0, len(d.ix)), d.ix...)
			}
			d.sharedKeys, d.sharedVals = false, false
		}
	}
	d.vals = append(d.vals, v)
	d.push(k, h)
}

// push appends a key that is not present and indexes it once there are
// more than smallDict keys; h is its hash when the index exists.
func (x *keyIndex) push(k Value, h uint64) {
	if k.ref != nil && k.k == String {
		// a key is stored built: lookups by a Go string read its bytes
		k = Value{k: String, safe: k.safe, s: k.Str(), n: k.n}
	}
	x.keys = append(vmem.Grown(x.keys), k)
	n := len(x.keys)
	switch {
	case x.ix == nil && n <= smallDict:
	case x.ix == nil:
		//scratch:ok dict index: at most twice the entries its callers charged
		x.ix = make([]uint64, tableSize(cap(x.keys)))
		for i, k := range x.keys {
			h, _ := keyHash(k)
			x.place(slotOf(h, i))
		}
	default:
		if 2*n > len(x.ix) {
			x.resize(tableSize(cap(x.keys)))
		}
		x.place(slotOf(h, n-1))
	}
}

// resize rebuilds the index at size from its own slots (made for the
// keys' capacity: once a doubling, each slot placed once in it).
func (x *keyIndex) resize(size int) {
	old := x.ix
	//scratch:ok dict index: at most twice the entries its callers charged
	x.ix = make([]uint64, size)
	for _, s := range old {
		if s != 0 {
			x.place(s)
		}
	}
}

// place puts slot s in its first free place.
func (x *keyIndex) place(s uint64) {
	t := x.ix
	mask := uint64(len(t) - 1)
	for j := (s >> 32) & mask; ; j = (j + 1) & mask {
		if t[j] == 0 {
			t[j] = s
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

// find returns the index of the key equal to k, or -1 (always for an
// unhashable k, which equals no key).
func (x *keyIndex) find(k Value) int {
	if x.ix == nil {
		return x.scan(k)
	}
	h, ok := keyHash(k)
	if !ok {
		return -1
	}
	return x.probe(k, h)
}

// locate is find for an insertion: it also returns k's hash when there is
// an index, and whether k is hashable at all (hashing it without an index
// only when it is not found: a key found is hashable).
func (x *keyIndex) locate(k Value) (i int, h uint64, ok bool) {
	if x.ix == nil {
		if i := x.scan(k); i >= 0 {
			return i, 0, true
		}
		return -1, 0, hashable(k)
	}
	h, ok = keyHash(k)
	if !ok {
		return -1, 0, false
	}
	return x.probe(k, h), h, true
}

// scan is find without the index.
func (x *keyIndex) scan(k Value) int {
	for i := range x.keys {
		if keyEqual(x.keys[i], k) {
			return i
		}
	}
	return -1
}

// scanStr is scan for the string key k: only a string key equals a
// string (keyEqual), so the scan compares strings alone, inline.
func (x *keyIndex) scanStr(k string) int {
	for i := range x.keys {
		if key := &x.keys[i]; key.k == String && key.s == k {
			return i
		}
	}
	return -1
}

// probe is find in the index for k of hash h.
func (x *keyIndex) probe(k Value, h uint64) int {
	t := x.ix
	mask := uint64(len(t) - 1)
	for j := h & mask; ; j = (j + 1) & mask {
		e := t[j]
		if e == 0 {
			return -1
		}
		if uint32(e>>32) == uint32(h) {
			if i := int(uint32(e)) - 1; keyEqual(x.keys[i], k) {
				return i
			}
		}
	}
}

// Get returns the value for k (absent when k is unhashable).
func (d *DictData) Get(k Value) (Value, bool) {
	if d == nil {
		return Value{}, false
	}
	i := d.find(k)
	if i < 0 {
		return Value{}, false
	}
	return d.vals[i], true
}

// GetStr returns the value for a string key.
func (d *DictData) GetStr(k string) (Value, bool) {
	i := d.IndexStr(k, -1)
	if i < 0 {
		return Value{}, false
	}
	return d.vals[i], true
}

// GetStrAt is GetStr with a guess at k's index (IndexStr). It also
// returns the index found (-1 when absent), the caller's next guess.
func (d *DictData) GetStrAt(k string, guess int) (Value, int, bool) {
	i := d.IndexStr(k, guess)
	if i < 0 {
		return Value{}, -1, false
	}
	return d.vals[i], i, true
}

// HasStrAt reports whether the key at i is the string k (i may be out of
// range): IndexStr's guess, for a caller that tries it inline.
func (d *DictData) HasStrAt(i int, k string) bool {
	return uint(i) < uint(len(d.keys)) && d.keys[i].k == String && d.keys[i].s == k
}

// IndexStr returns the index of the string key k (-1 when absent) with a
// guess at it: when the key at guess is the string k, that is the entry
// (a dict's keys are unique), with no scan or hash; otherwise the lookup
// is GetStr's. An index, not the value: a caller reading the value at
// its destination (ValAt) copies it once, where a Value returned
// through each call on the way was copied at each.
func (d *DictData) IndexStr(k string, guess int) int {
	if d == nil {
		return -1
	}
	if d.HasStrAt(guess, k) {
		return guess
	}
	if d.ix == nil {
		return d.scanStr(k) // a row's keys when the guess was another shape's
	}
	return d.find(Value{k: String, s: k})
}

// Set inserts or replaces (an existing equal key keeps its first form, as
// in Python). Only the engine calls it while building a dict; the caller
// has refused an unhashable key already (a type error here otherwise).
func (d *DictData) Set(k, v Value) {
	d.size, d.dataOnly = 0, false
	i, h, ok := d.locate(k)
	if !ok {
		errs.Throwf(errs.Type, "unhashable type: %s", errs.Quote(k.TypeName()))
	}
	if i >= 0 {
		if d.sharedVals {
			//scratch:ok dict storage: a copy of the entries the dict holds
			d.vals, d.sharedVals = vmem.Append(vmem.Fresh(make([]Value, 0, len(d.vals))), d.vals...), false
		}
		d.vals[i] = v
		return
	}
	d.add(k, v, h)
}

// SetStr sets a string key.
func (d *DictData) SetStr(k string, v Value) { d.Set(FromString(k), v) }

// Reset empties d, keeping its storage (with room for n entries), and
// clears what it held so it keeps no value alive. Only for a dict nothing
// else refers to. The storage past the entries is already zero (appends
// fill it in order, and every Reset clears what they filled), so only the
// entries are cleared: a reset of an empty dict costs nothing.
func (d *DictData) Reset(n int) {
	if d.sharedKeys {
		// no storage for keys: the next copy most often shares its
		// names' again, and an add grows a dict's keys when it must
		// (so only the values' room is checked below)
		d.keys, d.ix, d.sharedKeys = nil, nil, false
	}
	if d.sharedVals {
		d.vals, d.sharedVals = nil, false
	}
	if len(d.vals) > 0 {
		clearValues(d.keys)
		clearValues(d.vals)
		if d.ix != nil { // clear of a nil map is still a runtime call
			clear(d.ix)
		}
	}
	if cap(d.vals) < n {
		*d = *NewDict(n)
		return
	}
	// field by field, not a struct literal: that stores every field
	// again, pointers with their write barriers (a render resets its
	// top-level dict twice)
	d.keys, d.vals = d.keys[:0], d.vals[:0]
	d.size, d.dataOnly = 0, false
}

// shareKeys makes an empty dict with room for len(keys) values and no
// index hold vals as its values under keys, an array that nothing writes
// (sharedKeys), at full capacity, which it keeps rather than copies.
func (d *DictData) shareKeys(keys []Value, vals int) {
	d.keys, d.sharedKeys = keys[:len(keys):len(keys)], true
	d.vals = d.vals[:vals]
}

// Update sets every entry of src, in its order (Python's dict.update). An
// empty d takes src's entries and index as they are, with no key hashed
// or compared again (dict(d), namespace(d)).
func (d *DictData) Update(src *DictData) {
	if d.Len() > 0 || cap(d.keys) < src.Len() {
		for i := range src.keys {
			d.Set(src.keys[i], src.vals[i])
		}
		return
	}
	d.size, d.dataOnly = 0, src.dataOnly
	d.keys = vmem.Append(d.keys, src.keys...)
	d.vals = vmem.Append(d.vals, src.vals...)
	switch {
	case src.ix == nil && d.ix == nil:
	case src.ix == nil:
		for i, k := range d.keys {
			h, _ := keyHash(k)
			d.place(slotOf(h, i))
		}
	case len(d.ix) == len(src.ix):
		vmem.Copy(d.ix, src.ix)
	default:
		if d.ix == nil {
			//scratch:ok dict index: at most twice the entries its callers charged
			d.ix = make([]uint64, tableSize(cap(d.keys)))
		}
		for _, s := range src.ix {
			if s != 0 {
				d.place(s)
			}
		}
	}
}

// KwKeys is the distinct string keys of a call's keywords, in order, with
// their index (Args.Keys): either a parsed call's names (x), arrays
// nothing ever writes, or the dict the keywords were unpacked from whole
// and alone (src, **d).
type KwKeys struct {
	x   keyIndex
	src *DictData
}

// NewKwKeys indexes names, the keyword names of a call, once: nil when
// there are smallDict or fewer (a dict of them has no index to share) or
// when a name repeats.
func NewKwKeys(names []string) *KwKeys {
	if len(names) <= smallDict {
		return nil
	}
	//scratch:ok a call's keyword names, parsed from its source
	x := keyIndex{keys: vmem.Fresh(make([]Value, 0, len(names))), ix: make([]uint64, tableSize(len(names)))}
	for _, name := range names {
		k := FromString(name)
		i, h, _ := x.locate(k)
		if i >= 0 {
			return nil
		}
		x.push(k, h)
	}
	return &KwKeys{x: x}
}

// KwKeys returns d as the keys of keywords unpacked from it whole (nil
// when d has no index); the caller has checked every key is a string.
func (d *DictData) KwKeys() *KwKeys {
	if d.ix == nil {
		return nil
	}
	return &KwKeys{src: d}
}

// Len returns the number of keys.
func (k *KwKeys) Len() int {
	if k.src != nil {
		return k.src.Len()
	}
	return len(k.x.keys)
}

// DictFromKw returns a new dict of the keywords kw, whose names keys
// holds in order, with no key hashed or compared: it shares the parsed
// call's keys and index and allocates its values alone, or shares every
// array of the dict they were unpacked from (a template never writes a
// dict it holds). A dict that shares arrays copies them before it writes
// them (Set, add).
func DictFromKw(keys *KwKeys, kw []KV) *DictData {
	n := len(kw)
	if keys.Len() != n {
		panic("value.DictFromKw: keywords and keys differ")
	}
	if src := keys.src; src != nil {
		return &DictData{keyIndex: keyIndex{keys: src.keys[:n:n], ix: src.ix}, vals: src.vals[:n:n],
			size: src.size, dataOnly: src.dataOnly, sharedKeys: true, sharedVals: true}
	}
	//scratch:ok dict storage for n entries its caller charged
	vals := vmem.Fresh(make([]Value, n))
	for i := range kw {
		vals[i] = kw[i].Val
	}
	return &DictData{keyIndex: keyIndex{keys: keys.x.keys[:n:n], ix: keys.x.ix}, vals: vals, sharedKeys: true}
}

// Copy returns a shallow copy.
func (d *DictData) Copy() *DictData {
	n := NewDict(d.Len())
	n.Update(d)
	return n
}

// KeySet is a set of hashable keys with Python key equality (unique's
// seen keys): a dict's keys and index without the values, half the
// memory of a dict of None.
type KeySet struct {
	x keyIndex
}

// Add inserts k when no equal key is present, charging its entry (op
// names the charge) before it is stored, and reports whether it did (an
// unhashable k is never added: the caller refused it already).
func (s *KeySet) Add(c Ctx, k Value, op string) bool {
	i, h, ok := s.x.locate(k)
	if !ok || i >= 0 {
		return false
	}
	c.Charge(vmem.KeySetEntryBytes, op)
	s.x.push(k, h)
	return true
}

// Len returns the number of keys.
func (s *KeySet) Len() int { return len(s.x.keys) }

// ItemPairs returns d's entries as (key, value) tuples (dict.items(),
// the items and dictsort filters): the tuples' headers in one array and
// their items in another, not two allocations a pair.
func ItemPairs(d *DictData) []Value {
	n := d.Len()
	//scratch:ok every caller charges value.PairBytes a pair before (dict.items, dictsort, items)
	heads := vmem.Fresh(make([]ListData, n))
	//scratch:ok every caller charges value.PairBytes a pair before (dict.items, dictsort, items)
	cells := vmem.Fresh(make([]Value, 2*n))
	//scratch:ok every caller charges value.PairBytes a pair before (dict.items, dictsort, items)
	out := vmem.Fresh(make([]Value, n))
	for i := range out {
		kv := cells[2*i : 2*i+2 : 2*i+2]
		kv[0], kv[1] = d.keys[i], d.vals[i]
		heads[i].Items = kv
		out[i] = Value{k: Tuple, ref: &heads[i]}
	}
	return out
}
