package builtins

import (
	"fmt"
	"slices"
	"testing"

	"github.com/jinjabox/jinjabox/budget"
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

// TestLessKeysStringsAsGeneric holds lessKeys' paths for two strings and
// two integers to the generic one they stand for (value.EqualFrom, then
// value.CompareFrom): the same answer, error and units, on strings of
// equal and unequal lengths, shared prefixes, multi-byte text, longer
// lists, and integers beside the floats, bools and strings they meet.
func TestLessKeysStringsAsGeneric(t *testing.T) {
	generic := func(c value.Ctx, a, b []value.Value) bool {
		for i := 0; i < len(a) && i < len(b); i++ {
			c.Charge(budget.Elem, "comparison")
			if !value.EqualFrom(c, nil, a[i], b[i]) {
				return value.CompareFrom(c, nil, a[i], b[i], "<") == -1
			}
		}
		return len(a) < len(b)
	}
	words := []string{"", "a", "b", "ab", "abc", "abd", "ba", "\u00e9", "e\u0301", "\u00e9a", "zz", "aa", "Ab", "\U0001F600", "ab\u00e9"}
	keys := [][]value.Value{}
	for _, w := range words {
		keys = append(keys, []value.Value{value.FromString(w)})
		for _, v := range words[:5] {
			keys = append(keys, []value.Value{value.FromString(w), value.FromString(v)})
		}
	}
	keys = append(keys, []value.Value{value.FromString("a"), value.FromInt(3)}, []value.Value{value.FromString("a"), value.FromInt(2)})
	for _, n := range []int64{-1 << 63, -5, 0, 2, 3, 1<<63 - 1} {
		keys = append(keys, []value.Value{value.FromInt(n)}, []value.Value{value.FromInt(n), value.FromString("a")},
			[]value.Value{value.FromInt(n), value.FromInt(n)}, []value.Value{value.FromFloat(float64(n))}, []value.Value{value.FromBool(n > 0)})
	}
	outcome := func(f func() bool) (s string) {
		defer func() {
			if r := recover(); r != nil {
				s = fmt.Sprint(r)
			}
		}()
		return fmt.Sprint(f())
	}
	for _, a := range keys {
		for _, b := range keys {
			fast, slow := newMCtx(1<<30), newMCtx(1<<30)
			got := outcome(func() bool { return lessKeys(fast, nil, a, b) })
			want := outcome(func() bool { return generic(slow, a, b) })
			if got != want || fast.meter.Used() != slow.meter.Used() {
				t.Fatalf("lessKeys(%v, %v) = %s, %d units; generic %s, %d units", a, b, got, fast.meter.Used(), want, slow.meter.Used())
			}
		}
	}
}
