package builtins

import (
	"testing"
	"unicode/utf8"
)

// TestPprintScansSkipUndecoded holds the bytes pprint's line and word
// scans step over undecoded: every code point that ends a line
// (str.splitlines) or is white space (str.isspace) past ASCII begins with
// a byte lineEnd or spaceLead decodes.
func TestPprintScansSkipUndecoded(t *testing.T) {
	var buf [utf8.UTFMax]byte
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		n := utf8.EncodeRune(buf[:], r)
		s := string(buf[:n])
		if pyIsSpace(r) && !spaceLead(buf[0]) {
			t.Errorf("%U is white space, its first byte %#x is stepped over", r, buf[0])
		}
		if brk := r == 0x85 || r == 0x2028 || r == 0x2029; brk && lineEnd("a"+s+"b", 0) != 1+n {
			t.Errorf("%U ends no line", r)
		}
		// a word part is the word and the white space after it
		if got, want := wordEnd("a"+s+"b", 0), 1; pyIsSpace(r) {
			if want = 1 + n; got != want {
				t.Errorf("%U: the word part of a%cb ends at %d, not %d", r, r, got, want)
			}
		} else if got != 2+n {
			t.Errorf("%U: the word part of a%cb ends at %d, not %d", r, r, got, 2+n)
		}
	}
	if lineEnd("a\u2028b", 0) != 4 || lineEnd("a\u0085b", 0) != 3 || lineEnd("😀\u2029", 0) != 7 || lineEnd("é\xe2\u2028", 0) != 6 {
		t.Error("a break past ASCII is not found where it ends")
	}
}
