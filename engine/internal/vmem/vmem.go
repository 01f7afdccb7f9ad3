// Package vmem is what the value model's containers really allocate, the
// sizes the budget charges before building them (a Value, a list header,
// a dict entry, a pair), and the doubling growth whose cost those charges
// count. Package value, the evaluator and the built-ins share them; a host
// has no use for them, which is why they are internal.
package vmem

import "github.com/jinjabox/jinjabox/budget"

// SmallDict is the most entries a dict holds without a hash index, and
// the least room Grown gives a slice.
const SmallDict = 8

// ValueBytes is the size of a Value: what storing one in a container
// really allocates (value.TestValueBytes holds it to unsafe.Sizeof).
const ValueBytes = 48

// ListHeaderBytes is a ListData's size (value.TestValueBytes holds it).
const ListHeaderBytes = 56

// DictEntryBytes is what one entry of a dict built at its final size
// really allocates: its key and its value (two Values) and two to four
// 8-byte slots of the index (at most half full, a power of two), three
// on average. Charges for building a dict use it (budget.Slot is far
// below a real slot).
const DictEntryBytes = 2*ValueBytes + 3*8

// DictInsertUnits is what inserting an entry by its key costs (a dict
// literal, dict.fromkeys, dict() from pairs): its bytes and the key's
// lookup (an element, as d[k] is charged). A lookup and a store of two
// Values while the collector marks ran 1.1 to 1.8 ns a unit on the bytes
// alone.
const DictInsertUnits = DictEntryBytes + budget.Elem

// KeySetEntryBytes is what a key kept in a KeySet allocates: its slot and
// its index slots, twice over for the doubling of arrays that grow with
// the keys (the set's final size is not known ahead).
const KeySetEntryBytes = 2 * (ValueBytes + 3*8)

// Grown returns s with room for one more item: a full s is copied into
// twice its capacity. Go's append grows a large slice by a quarter, so
// filling one by append allocates five times its final size; doubling
// allocates twice (what the per-item charges of growing containers
// count).
func Grown[T any](s []T) []T {
	if len(s) < cap(s) {
		return s
	}
	//scratch:ok a container's growth: every caller charges the element it adds (budget.Elem a slot) before it grows
	return append(make([]T, 0, max(2*cap(s), SmallDict)), s...)
}

// PairBytes is what one (key, value) pair of ItemPairs allocates: the
// tuple's header, its two items and its slot in the list.
const PairBytes = ListHeaderBytes + 3*ValueBytes
