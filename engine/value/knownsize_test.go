package value

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestKnownSizeIsSize holds the size NewList and NewTuple cache when they
// make a container to the size Size's walk gives the same container made
// without the cache (and requires it cached when no dict is inside), on
// random nestings of strings, numbers, lists,
// tuples and dicts.
func TestKnownSizeIsSize(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var build func(depth int) (cached, walked Value)
	build = func(depth int) (Value, Value) {
		switch k := rng.IntN(6); {
		case depth > 4 || k == 0:
			s := FromString(string(make([]byte, rng.IntN(40))))
			return s, s
		case k == 1:
			return FromInt(int64(rng.IntN(100))), FromInt(int64(rng.IntN(100)))
		case k == 5:
			d := NewDict(0)
			return FromDict(d), FromDict(d)
		}
		n := rng.IntN(5)
		ci, wi := make([]Value, n), make([]Value, n)
		for i := range ci {
			ci[i], wi[i] = build(depth + 1)
		}
		if rng.IntN(2) == 0 {
			return NewTuple(ci), Value{k: Tuple, ref: &ListData{Items: wi}}
		}
		return NewList(ci), Value{k: List, ref: &ListData{Items: wi}}
	}
	for range 5000 {
		c, w := build(0)
		if c.k != List && c.k != Tuple {
			continue
		}
		// a dict's size is cached once walked, not when it is made
		if c.ref.(*ListData).size == 0 && !strings.Contains(Repr(c), "{}") {
			t.Fatalf("%s: no size cached when made", Repr(c))
		}
		if got, want := Size(c, 1<<40), Size(w, 1<<40); got != want {
			t.Fatalf("%s: cached size %d, walked %d", Repr(c), got, want)
		}
	}
}
