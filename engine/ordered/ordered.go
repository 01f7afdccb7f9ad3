// Package ordered is the engine's one way to iterate over a Go map: by
// its keys in sorted order. Go randomises map iteration, and the engine
// runs inside Temporal workflow code, where a render must give the same
// bytes, errors and units on every replay (docs/INVARIANTS.md). AppendKeys
// (and Keys, built on it) is the only function of the engine that ranges
// over a map (the strict workflowcheck of `make lint` exempts its range
// statement by line: its result is sorted); a copy of a map into a map,
// whose result cannot depend on the order, uses the standard library's
// maps.Copy, each call exempted by line the same way.
package ordered

import (
	"cmp"
	"slices"
)

// Keys returns m's keys in ascending order.
func Keys[M ~map[K]V, K cmp.Ordered, V any](m M) []K {
	return AppendKeys(make([]K, 0, len(m)), m)
}

// AppendKeys appends m's keys, sorted, to dst and returns the extended
// slice (only the appended part is sorted): a caller that walks many
// maps reuses one buffer instead of allocating a key list per map.
func AppendKeys[M ~map[K]V, K cmp.Ordered, V any](dst []K, m M) []K {
	start := len(dst)
	//workflowcheck:ignore the keys are sorted below
	for k := range m {
		dst = append(dst, k)
	}
	slices.Sort(dst[start:])
	return dst
}
