package builtins

import (
	"slices"
	"testing"

	"github.com/jinjabox/jinjabox/engine/value"
)

// TestNaturalMergeSortStable checks the run-merging sort against the
// standard library's stable sort on inputs full of ties and runs.
func TestNaturalMergeSortStable(t *testing.T) {
	c := newCtx(0, false)
	seed := uint64(1)
	next := func() int64 {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int64(seed >> 59) // 0..31: many ties
	}
	for n := 0; n < 300; n += 7 {
		for _, shape := range []string{"random", "sorted", "reversed", "sawtooth"} {
			ks := make([]keyed, n)
			for i := range ks {
				var k int64
				switch shape {
				case "random":
					k = next()
				case "sorted":
					k = int64(i / 3)
				case "reversed":
					k = int64((n - i) / 3)
				case "sawtooth":
					k = int64(i % 5)
				}
				ks[i] = keyed{key: []value.Value{num(k)}, i: i}
			}
			for _, rev := range []bool{false, true} {
				got := slices.Clone(ks)
				sortKeyed(c, got, rev, false)
				want := slices.Clone(ks)
				slices.SortStableFunc(want, func(x, y keyed) int {
					a, b := x.key[0].Int(), y.key[0].Int()
					if rev {
						a, b = b, a
					}
					switch {
					case a < b:
						return -1
					case a > b:
						return 1
					}
					return 0
				})
				for i := range got {
					if got[i].i != want[i].i {
						t.Fatalf("n=%d %s rev=%v: mismatch at %d", n, shape, rev, i)
					}
				}
			}
		}
	}
}
