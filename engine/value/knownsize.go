package value

// knownSize is the cached Size (plus one) of a list or tuple made of
// items, when every item's size is known without a walk (a leaf, or a
// container whose size is cached), else 0. NewList and NewTuple set it,
// so a container nested by a loop one level at a time knows its size at
// every level and Size never walks the chain: a list nested 90,000 deep
// (redteam/deep/print-90k-nested-list) was first sized when printed, by
// a recursion 90,000 frames deep whose stack grew by copying to tens of
// megabytes (68 MiB of peak RSS, 350 ms of CPU a process, most of it
// faulting the stack in). The work is a look at each item, which the
// caller charged a slot and an element. A size past knownSizeMax is
// left to Size, which stops at its limit (a tuple DAG doubles its size a
// level: 2^60 leaves in 60 steps).
func knownSize(items []Value) int64 {
	total := int64(len(items)) * 8
	for i := range items {
		if total > knownSizeMax {
			return 0
		}
		it := &items[i]
		switch it.k {
		case String:
			total += int64(it.byteLen())
		case List, Tuple:
			n := it.ref.(*ListData).size
			if n == 0 {
				return 0
			}
			total += n - 1
		case Dict:
			n := it.DictData().size
			if n == 0 {
				return 0
			}
			total += n - 1
		case Object:
			return 0 // a namespace can change; another object decides what it prints
		}
	}
	if total > knownSizeMax {
		return 0
	}
	return total + 1
}

// knownSizeMax bounds the sizes knownSize caches, so its sums of at most
// a slice's length of them never overflow.
const knownSizeMax = 1 << 48
