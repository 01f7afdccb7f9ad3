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
	return Append(Fresh(make([]T, 0, max(2*cap(s), SmallDict))), s...)
}

// PairBytes is what one (key, value) pair of ItemPairs allocates: the
// tuple's header, its two items and its slot in the list.
const PairBytes = ListHeaderBytes + 3*ValueBytes

// CopyChunk is the most items Append and Copy move in one runtime call.
// A copy is one call that cannot be preempted, and while the collector
// marks, a copy of items with pointers also runs a write barrier over
// each of them: a collector that must scan the copying goroutine's stack
// spins until the call returns. One 16 MB copy of a list doubled to the
// budget's edge (hostile loops/doubling-list) kept a mark worker spinning
// for 270 ms of CPU. 8,192 items of 48 bytes is 384 kB: tens of
// microseconds a call, faults of fresh pages included.
const CopyChunk = 8192

// Append is append(dst, src...) in calls of at most CopyChunk items,
// each a point where the goroutine can be preempted. When dst has no
// room it is first moved, the same way, into an array grown as append
// grows a large one (at least a quarter), so a caller appending again
// and again stays linear.
func Append[T any](dst []T, src ...T) []T {
	room := cap(dst)-len(dst) >= len(src)
	if len(src) <= CopyChunk && (room || len(dst) <= CopyChunk) {
		//scratch:ok at most 2*CopyChunk items move in this call: src's, and dst's when append grows it
		return append(dst, src...)
	}
	if !room {
		//scratch:ok the caller's result: what it charged for dst and src together, grown as append grows it
		grown := Fresh(make([]T, 0, max(len(dst)+len(src), cap(dst)+cap(dst)/4)))
		dst = Append(grown, dst...)
	}
	for len(src) > 0 {
		n := min(len(src), CopyChunk)
		dst = appendChunk(dst, src[:n])
		src = src[n:]
	}
	return dst
}

// appendChunk is one call of Append: never inlined, so each chunk's call
// is a preemption point.
//
//go:noinline
func appendChunk[T any](dst, src []T) []T {
	//scratch:ok one chunk: Append's callers hand at most CopyChunk items and the room for them
	return append(dst, src...)
}

// Copy is copy(dst, src) in calls of at most CopyChunk items (Append).
func Copy[T any](dst, src []T) int {
	n := min(len(dst), len(src))
	for i := 0; i < n; i += CopyChunk {
		copyChunk(dst[i:n], src[i:min(i+CopyChunk, n)])
	}
	return n
}

// copyChunk is one call of Copy, never inlined (appendChunk).
//
//go:noinline
func copyChunk[T any](dst, src []T) {
	//scratch:ok one chunk: Copy hands at most CopyChunk items
	copy(dst, src)
}
