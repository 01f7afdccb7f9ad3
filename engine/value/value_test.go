package value

import (
	"testing"
	"unsafe"

	"github.com/jinjabox/jinjabox/engine/internal/vmem"
)

// TestStringCountKept holds that re-marking or re-wrapping a string value
// keeps the code-point count it knows instead of scanning again: the
// count field is the O(1) len() that `s|safe`, Markup methods and
// unchanged slices rely on (each used to rescan a long string for one
// step's charge).
func TestStringCountKept(t *testing.T) {
	s := "aé€" + string(rune(0x1F600))
	v := FromString(s)
	known := Value{k: String, s: s, n: 42} // a deliberately wrong count proves no recount
	cases := []struct {
		name string
		got  Value
		safe bool
		n    int64
	}{
		{"MarkSafe", known.MarkSafe(), true, 42},
		{"Plain", known.MarkSafe().Plain(), false, 42},
		{"StringLike same text", StringLike(known, s), false, 42},
		{"StringLike same text, markup", StringLike(known.MarkSafe(), s), true, 42},
		{"StringLike other text", StringLike(known.MarkSafe(), s[:1]), true, 2},
		{"StringLike unknown count", StringLike(Value{k: String, s: s}, s), false, 5},
		{"FromString", v, false, 5},
	}
	for _, c := range cases {
		if c.got.IsSafe() != c.safe || c.got.n != c.n || c.got.Str() != c.got.s {
			t.Errorf("%s: safe=%v n=%d, want safe=%v n=%d", c.name, c.got.IsSafe(), c.got.n, c.safe, c.n)
		}
	}
}

// TestValueBytes: the size the charges count for a stored value (and a
// dict's or a key set's entry) is a Value's real size.
func TestValueBytes(t *testing.T) {
	if got := unsafe.Sizeof(Value{}); got != vmem.ValueBytes {
		t.Fatalf("a Value is %d bytes, vmem.ValueBytes says %d", got, vmem.ValueBytes)
	}
	if got := unsafe.Sizeof(ListData{}); got != vmem.ListHeaderBytes {
		t.Fatalf("a ListData is %d bytes, vmem.ListHeaderBytes says %d", got, vmem.ListHeaderBytes)
	}
}

// TestDictResetKeepsNoValue: a reset dict (a pooled renderer's top-level
// data) holds no key or value of what it held, in any slot of its
// storage, and serves new entries as a fresh dict does.
func TestDictResetKeepsNoValue(t *testing.T) {
	for _, n := range []int{1, 3, 8, 20} {
		d := NewDict(n)
		for i := 0; i < n; i++ {
			d.SetStr(string(rune('a'+i)), FromString("secret"))
		}
		d.Reset(n)
		for i, k := range d.keys[:cap(d.keys)] {
			if k != (Value{}) || d.vals[:cap(d.vals)][i] != (Value{}) {
				t.Fatalf("n=%d: slot %d kept %v: %v", n, i, k, d.vals[:cap(d.vals)][i])
			}
		}
		for _, s := range d.ix {
			if s != 0 {
				t.Fatalf("n=%d: index slot kept", n)
			}
		}
		d.SetStr("z", FromInt(1))
		if v, ok := d.GetStr("z"); !ok || v.Int() != 1 || d.Len() != 1 {
			t.Fatalf("n=%d: a reset dict does not take entries", n)
		}
		if _, ok := d.GetStr("a"); ok {
			t.Fatalf("n=%d: a reset dict finds an old key", n)
		}
	}
}

// TestTouchersFitTheirItems: the item sizes fresh.go registers with
// vmem.Toucher are the types' real sizes (a smaller one would leave
// pages of a fresh array untouched), and every type the value model
// makes large arrays of is registered.
func TestTouchersFitTheirItems(t *testing.T) {
	if got := unsafe.Sizeof(KV{}); got != vmem.ValueBytes+16 {
		t.Fatalf("a KV is %d bytes, its toucher says %d", got, vmem.ValueBytes+16)
	}
	if got := unsafe.Sizeof([2]Value{}); got != 2*vmem.ValueBytes {
		t.Fatalf("a [2]Value is %d bytes, its toucher says %d", got, 2*vmem.ValueBytes)
	}
	if !vmem.Touches[Value]() || !vmem.Touches[KV]() || !vmem.Touches[[2]Value]() || !vmem.Touches[ListData]() {
		t.Fatal("a value-model type is not registered with vmem.Toucher")
	}
}
