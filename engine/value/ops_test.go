package value

import (
	"testing"

	"github.com/jinjabox/jinjabox/budget"
)

// chargeCtx is a Ctx that counts what is charged and offers no meter to
// spend from (so every charge is counted); the rest of Ctx is not there.
type chargeCtx struct {
	Ctx
	units int64
}

func (c *chargeCtx) Charge(n int64, op string) { c.units += n }
func (c *chargeCtx) Spender() *budget.Meter    { return nil }

// TestContainsStringAsEqual holds the membership test of a string in a
// list (Contains' loop for a string needle, strEqual) to what the loop
// over EqualFrom gives: the same answer, charged the same units, for
// items of every kind and needles that match at the start, in the
// middle, at the end, never, and the empty string.
func TestContainsStringAsEqual(t *testing.T) {
	inner := NewDict(1)
	inner.SetStr("b", FromInt(1))
	items := []Value{FromInt(1), FromString("b"), NoneValue, FromString("bb"), NewList([]Value{FromString("b")}),
		FromDict(inner), True, FromFloat(2.5), FromString(""), FromString("é"), FromString("b")}
	for _, needle := range []string{"b", "", "bb", "zz", "é", "1"} {
		for n := 0; n <= len(items); n++ {
			list := NewList(items[:n])
			var got, want chargeCtx
			found := Contains(&got, list, FromString(needle))
			expect := false
			for _, it := range items[:n] {
				want.Charge(budget.Elem, "membership test")
				if EqualFrom(&want, nil, it, FromString(needle)) {
					expect = true
					break
				}
			}
			if found != expect || got.units != want.units {
				t.Errorf("%q in %d items: %v charged %d, want %v charged %d", needle, n, found, got.units, expect, want.units)
			}
		}
	}
}
