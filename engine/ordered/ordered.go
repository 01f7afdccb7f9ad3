// Package ordered is the engine's one way to iterate over a Go map: by
// its keys in sorted order. Go randomises map iteration, and the engine
// runs inside Temporal workflow code, where a render must give the same
// bytes, errors and units on every replay (docs/INVARIANTS.md). Keys is
// the only function of the engine that ranges over a map (the strict
// workflowcheck of `make lint` exempts it by name: its result is sorted);
// a copy of a map into a map, whose result cannot depend on the order,
// uses the standard library's maps.Copy, exempted the same way.
package ordered

import (
	"cmp"
	"slices"
)

// Keys returns m's keys in ascending order.
func Keys[M ~map[K]V, K cmp.Ordered, V any](m M) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
