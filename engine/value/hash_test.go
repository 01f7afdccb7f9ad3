package value

import (
	"math"
	"testing"
)

// TestKeyHashEquality: keys Python calls equal hash alike and find each
// other in a dict of any size (the scanned small form and the indexed
// one); keys it calls different do not.
func TestKeyHashEquality(t *testing.T) {
	big := int64(1) << 53
	for _, c := range []struct {
		name  string
		a, b  Value
		equal bool
	}{
		{"int-float", FromInt(1), FromFloat(1), true},
		{"bool-int", True, FromInt(1), true},
		{"zero-negzero", FromInt(0), FromFloat(math.Copysign(0, -1)), true},
		{"2^53+1-vs-2^53.0", FromInt(big + 1), FromFloat(float64(big)), false},
		{"maxint-vs-2^63.0", FromInt(math.MaxInt64), FromFloat(math.Exp2(63)), false},
		{"minint-vs--2^63.0", FromInt(math.MinInt64), FromFloat(-math.Exp2(63)), true},
		{"half", FromFloat(0.5), FromInt(0), false},
		{"same-nan", FromFloat(math.NaN()), FromFloat(math.NaN()), true},
		{"str-int", FromString("1"), FromInt(1), false},
		{"tuple-num", NewTuple([]Value{FromInt(1), FromString("a")}), NewTuple([]Value{FromFloat(1), FromString("a")}), true},
		{"tuple-len", NewTuple([]Value{FromInt(1)}), NewTuple([]Value{FromInt(1), FromInt(1)}), false},
		{"none-undefined", NoneValue, UndefinedValue, false},
	} {
		for _, n := range []int{1, 100} {
			d := NewDict(0)
			for i := 1; i < n; i++ {
				d.Set(FromInt(int64(1000+i)), NoneValue)
			}
			d.Set(c.a, True)
			_, found := d.Get(c.b)
			if found != c.equal {
				t.Errorf("%s (dict of %d): found %v, want %v", c.name, n, found, c.equal)
			}
		}
	}
}

// TestHashableBoundedWithoutBudget: a host that asks Hashable with no
// budget behind it walks each distinct tuple once: a 200-level tuple DAG
// (2^200 paths) and a 1,000,000-deep chain answer at once, and a
// dict lookup of the DAG by itself needs no walk.
func TestHashableBoundedWithoutBudget(t *testing.T) {
	v := FromInt(1)
	for i := 0; i < 200; i++ {
		v = NewTuple([]Value{v, v})
	}
	if !hashable(v) {
		t.Fatal("DAG of ints not hashable")
	}
	d := NewDict(1)
	d.Set(v, True)
	if _, ok := d.Get(v); !ok {
		t.Fatal("DAG key not found by itself")
	}
	bad := NewTuple([]Value{v, NewList(nil)})
	if hashable(bad) || hashable(NewTuple([]Value{bad, v})) {
		t.Fatal("tuple holding a list hashable")
	}
	chain := NewTuple(nil)
	for i := 0; i < 1_000_000; i++ {
		chain = NewTuple([]Value{chain})
	}
	if !hashable(chain) {
		t.Fatal("deep chain not hashable")
	}
}

// TestDictKeepsInsertionOrder across the switch from the scanned form to
// the index, with replacements keeping the first key's form.
func TestDictKeepsInsertionOrder(t *testing.T) {
	d := NewDict(0)
	for i := 0; i < 1000; i++ {
		d.Set(FromInt(int64(i*7%1000)), FromInt(int64(i)))
	}
	d.Set(FromFloat(7), FromString("x"))
	if d.Len() != 1000 {
		t.Fatalf("len %d", d.Len())
	}
	for i := 0; i < 1000; i++ {
		if k := d.KeyAt(i); k.Kind() != Int || k.Int() != int64(i*7%1000) {
			t.Fatalf("key %d is %v", i, k)
		}
	}
	if v, _ := d.Get(FromInt(7)); v.Str() != "x" {
		t.Fatalf("replaced value %v", v)
	}
}
