package value

import "github.com/jinjabox/jinjabox/engine/internal/vmem"

// Arena is storage a pooled renderer lends the copy-in of its renders:
// the headers and value arrays of the dicts and lists a render's data is
// copied into are taken from it, and handed out again, cleared, to the
// next render of the same renderer. A render copying in the rows of a
// table then allocates nothing for them once its renderer is warm: the
// collector had a fifth of a render-mode table render and a quarter of a
// prompt's, paid for the data copied in and dropped every render.
//
// What the copy-in makes from an Arena must not outlive the render: the
// renderer resets it (Reset) only when nothing but the engine could have
// kept a value of the render (no host filter, test or global in its
// environment, no host object in its data: Copier.SawObject), and drops
// it otherwise. The strings of the data are the caller's and never live
// in an Arena; only the containers' headers and slots do.
type Arena struct {
	vals  chunks[Value]
	dicts chunks[DictData]
	lists chunks[ListData]
}

// maxArenaValues bounds the slots an Arena keeps between renders (48
// bytes each: 6 MiB); past it, Reset lets the storage go.
const maxArenaValues = 1 << 17

// Reset clears what the last render took, so the Arena holds no value of
// it, and keeps the storage for the next (none when it grew past
// maxArenaValues).
func (a *Arena) Reset() {
	if a.vals.size > maxArenaValues {
		*a = Arena{}
		return
	}
	// a small render's arrays are the first of each, which it may not
	// have used (a one-line condition takes no dict): those are cleared
	// here, with no call
	if v := a.vals.list; a.vals.cur == 0 && len(v) > 0 {
		clearValues(v[0])
		v[0] = v[0][:0]
	} else {
		a.vals.reset(clearValues)
	}
	if d := a.dicts.list; a.dicts.cur != 0 || len(d) > 0 && len(d[0]) > 0 {
		a.dicts.reset(clearFew[DictData])
	}
	if l := a.lists.list; a.lists.cur == 0 && len(l) > 0 {
		clearLists(l[0])
		l[0] = l[0][:0]
	} else {
		a.lists.reset(clearLists)
	}
}

// chunks is a list of arrays of T handed out in order: take cuts the next
// n items from the current array, or moves on to the next array (made,
// twice the size of the last up to chunkMax items, when there is none).
type chunks[T any] struct {
	list [][]T // each array's taken part is list[i][:len]
	cur  int
	size int // the items of all arrays
}

const (
	chunkMin = 64
	chunkMax = 1 << 13
)

// take returns n zero items, in an array of capacity n (an append to it
// copies: it never reaches the next items handed out).
func (c *chunks[T]) take(n int) []T {
	for ; c.cur < len(c.list); c.cur++ {
		a := c.list[c.cur]
		if cap(a)-len(a) >= n {
			c.list[c.cur] = a[:len(a)+n]
			return a[len(a) : len(a)+n : len(a)+n]
		}
	}
	size := chunkMin
	if k := len(c.list); k > 0 {
		size = min(2*cap(c.list[k-1]), chunkMax)
	}
	size = max(size, n)
	//scratch:ok the arena's storage for values a caller paid for (the copy-in's ceilings, a charged builder)
	a := vmem.Fresh(make([]T, n, size))
	c.list = append(c.list, a)
	c.size += size
	return a[:n:n]
}

// reset clears the items taken and makes every array available again:
// those up to cur, as take leaves the ones past it untouched (a pooled
// renderer's arena keeps the arrays a large render grew, and the one-line
// renders after it paid a store for each of them).
//
// clearItems clears a taken part: clearValues and clearLists are
// clearFew written for their type (a generic function's stores go
// through its shape's dictionary, about twice the instructions).
func (c *chunks[T]) reset(clearItems func([]T)) {
	if c.cur == 0 {
		// a small render's: its first array alone
		if len(c.list) > 0 && len(c.list[0]) > 0 {
			clearItems(c.list[0])
			c.list[0] = c.list[0][:0]
		}
		return
	}
	for i := 0; i <= c.cur && i < len(c.list); i++ {
		if len(c.list[i]) > 0 {
			clearItems(c.list[i])
			// sliced in place: the compiler stores the length alone, no
			// pointer and no write barrier check
			c.list[i] = c.list[i][:0]
		}
	}
	c.cur = 0
}

// newDict is NewDict taking its storage from a (nil: NewDict), for a
// dict of at most smallDict entries (no index); a larger one is NewDict's.
func (a *Arena) newDict(n int) *DictData {
	if a == nil || n > smallDict || n == 0 {
		return NewDict(n)
	}
	d := &a.dicts.take(1)[0]
	buf := a.vals.take(2 * n)
	d.keys, d.vals = buf[:0:n], buf[n:n:2*n]
	return d
}

// shapedDict is the package's shapedDict taking its storage from a (nil:
// from the heap).
func (a *Arena) shapedDict(keys []Value) *DictData {
	if a == nil {
		return shapedDict(keys)
	}
	d := &a.dicts.take(1)[0]
	d.keys, d.vals = keys, a.vals.take(len(keys))[:0]
	return d
}

// listWith is the package's listWith taking its storage from a (nil:
// from the heap).
func (a *Arena) listWith(n int) (*ListData, []Value) {
	if a == nil {
		return listWith(n)
	}
	ld := &a.lists.take(1)[0]
	if n == 0 {
		return ld, nil
	}
	return ld, a.vals.take(n)
}

// maxClearFew is the longest slice clearFew zeroes an item at a time.
const maxClearFew = 8

// clearFew is clear for the few items of a small container or a render's
// arena: up to maxClearFew, one store an item. clear of a slice of
// pointers calls the runtime's bulk clear and its write-barrier pass, some
// sixty instructions whatever the length, and a one-line condition's
// render cleared six such slices of one to four items.
func clearFew[T any](s []T) {
	if len(s) > maxClearFew {
		clear(s)
		return
	}
	var zero T
	for i := 0; i < len(s); i++ { // not a range loop: the compiler makes that a clear
		s[i] = zero
	}
}

// clearValues is clearFew for values, not generic (chunks.reset).
func clearValues(s []Value) {
	if len(s) > maxClearFew {
		clear(s)
		return
	}
	for i := 0; i < len(s); i++ { // not a range loop: the compiler makes that a clear
		s[i] = Value{}
	}
}

// clearLists is clearFew for list headers, not generic (chunks.reset).
func clearLists(s []ListData) {
	if len(s) > maxClearFew {
		clear(s)
		return
	}
	for i := 0; i < len(s); i++ { // not a range loop: the compiler makes that a clear
		s[i] = ListData{}
	}
}

// clearAnys is clearFew for the caller's values a copy placed, not
// generic (CopyMapInto).
func clearAnys(s []any) {
	if len(s) > maxClearFew {
		clear(s)
		return
	}
	for i := 0; i < len(s); i++ { // not a range loop: the compiler makes that a clear
		s[i] = nil
	}
}

// copyFew is copy(dst, src) for a few items, one store an item (clearFew).
func copyFew[T any](dst, src []T) {
	if len(src) > maxClearFew {
		vmem.Copy(dst, src)
		return
	}
	//lint:ignore S1001 a loop of stores, not copy's bulk call with its write-barrier pass (clearFew)
	for i := 0; i < len(src); i++ {
		dst[i] = src[i]
	}
}
