package builtins

import "testing"

// TestASCIIDigits holds the digit mapping int() and float() parse through:
// every decimal digit to its ASCII value (offset in its run of ten), any
// other non-ASCII code point refused at once, before the mapping is
// charged (numberCost a byte, only when there is one to make).
func TestASCIIDigits(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
		units    int64
	}{
		{"12.5e3", "12.5e3", true, 0},
		{"abc", "abc", true, 0}, // ASCII is left to the parsers
		{"١٢٣", "123", true, 6 * numberCost},
		{"x٩_𝟗𝟘", "x9_90", true, 12 * numberCost},
		{"１２", "12", true, 6 * numberCost},
		{"12é", "", false, 0},
		{"٣\u00a0", "", false, 0},
		{"½", "", false, 0}, // numeric, not decimal
	}
	for _, c := range cases {
		ctx := newCtx(1000, false)
		left := ctx.meter.Left()
		got, ok := asciiDigits(ctx, "test", c.in)
		if got != c.want || ok != c.ok || left-ctx.meter.Left() != c.units {
			t.Errorf("asciiDigits(%q) = %q, %v, %d units; want %q, %v, %d", c.in, got, ok, left-ctx.meter.Left(), c.want, c.ok, c.units)
		}
	}
}
