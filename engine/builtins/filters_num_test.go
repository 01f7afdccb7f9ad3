package builtins

import "testing"

// TestASCIIDigits holds the digit mapping int() and float() parse through:
// every decimal digit to its ASCII value (offset in its run of ten), any
// other non-ASCII code point refused at once.
func TestASCIIDigits(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"12.5e3", "12.5e3", true},
		{"abc", "abc", true}, // ASCII is left to the parsers
		{"١٢٣", "123", true},
		{"x٩_𝟗𝟘", "x9_90", true},
		{"１２", "12", true},
		{"12é", "", false},
		{"٣\u00a0", "", false},
		{"½", "", false}, // numeric, not decimal
	}
	for _, c := range cases {
		got, ok := asciiDigits(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("asciiDigits(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
