package vmem

// Fresh memory is touched by writing before it is filled.
//
// A large array comes from pages the process has never written (fresh
// from the kernel, or handed back to it by the runtime's scavenger). The
// first store of a pointer into such an array while the collector marks
// runs the write barrier, which first reads the slot's old value: the
// read maps the kernel's shared zero page, and the store right after it
// faults again to replace that page with a real one, which also flushes
// the page from the TLB of every other core running the process. That is
// two faults and a shootdown a page where one write fault would do. On a
// virtual machine whose faults are slow (11 to 13 us each on the
// project's machines), a goroutine that spends its time in faults is
// also one the collector cannot stop to scan its stack, so a mark worker
// spins beside it. Writing one non-pointer word on each page first (no
// barrier, no read) makes each page one fault (docs/COSTS.md, "Fresh
// pages").

// TouchBytes is the least array Fresh touches: the runtime's smallest
// large object, which gets pages of its own. A smaller array shares a
// span of its size class with others.
const TouchBytes = 32 << 10

// pageBytes is the page Fresh writes a word on: the smallest page of the
// platforms Go runs on (a larger page is written several times, a store
// each).
const pageBytes = 4 << 10

// MaxTouchedItem is the largest item a Toucher takes, so Fresh skips an
// array too small to be TouchBytes whatever its type without looking
// the type up.
const MaxTouchedItem = 128

// toucher is how a fresh array of T is touched: items size bytes each,
// set writes a zero into one non-pointer word of item i.
type toucher[T any] struct {
	size int
	set  func(s []T, i int)
}

// touchers are the registered toucher[T] values, set by Toucher from
// package initialisers and only read after.
var touchers []any

// Toucher registers how a fresh array of T is touched: size is an item's
// bytes (each registering package's tests hold it to unsafe.Sizeof) and
// set must write a zero into one non-pointer word of item i of s, and
// nothing else. Call it from an init function: the list is read without
// a lock.
func Toucher[T any](size int, set func(s []T, i int)) {
	if size <= 0 || size > MaxTouchedItem {
		panic("vmem.Toucher: item size out of range")
	}
	touchers = append(touchers, toucher[T]{size, set})
}

// Touches reports whether Fresh touches arrays of T.
func Touches[T any]() bool {
	_, ok := lookup[T]()
	return ok
}

func lookup[T any]() (toucher[T], bool) {
	for _, t := range touchers {
		if tt, ok := t.(toucher[T]); ok {
			return tt, true
		}
	}
	return toucher[T]{}, false
}

// Fresh returns s, an array just made by make, after writing one word on
// each page of its capacity when that is at least TouchBytes of a
// registered type. scratchlint holds every call's argument to a make:
// on live items the touch would zero what they hold.
func Fresh[T any](s []T) []T {
	if cap(s) < TouchBytes/MaxTouchedItem {
		return s
	}
	if t, ok := lookup[T](); ok {
		touchPages(s[:cap(s)], t)
	}
	return s
}

// touchPages writes every TouchStride(size)-th item of s, and its last:
// written words are at most a page apart and the first and last items'
// are written, so every page that holds an item's word holds a written
// one. Only a last page that holds nothing but the tail of the last
// item (fewer bytes than an item) can be left to the barrier.
func touchPages[T any](s []T, t toucher[T]) {
	n := len(s)
	if n*t.size < TouchBytes {
		return
	}
	step := TouchStride(t.size)
	for i := 0; i < n; i += step {
		t.set(s, i)
	}
	t.set(s, n-1)
}

// TouchStride is how many items of size bytes apart Fresh writes: at
// most a page.
func TouchStride(size int) int {
	return max(1, pageBytes/size)
}
