package strutil

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestCountStrReprMatchesQuoteString holds CountStrRepr, and the sum of
// the counts of a string's pieces (cut where a code point's decoding
// ends), to the repr QuoteString builds.
func TestCountStrReprMatchesQuoteString(t *testing.T) {
	alphabet := []string{"a", " ", "\t", "\n", "'", "\"", "\\", "\x00", "\x7f", "é", "\u00a0", "\u0378", "\u2028", "😀", "\U000e0001", "\xff", "\ufffd", "\xe2\x82", "ß"}
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(s string) {
		t.Helper()
		q := QuoteString(s)
		runes, bytes := CountStrRepr(s).Len()
		if runes != utf8.RuneCountInString(q) || bytes != len(q) {
			t.Fatalf("%q: counted %d code points, %d bytes; repr %s has %d, %d", s, runes, bytes, q, utf8.RuneCountInString(q), len(q))
		}
		// a cut where a decoding step ends (the pieces callers count)
		var cuts []int
		for i := 0; i < len(s); {
			_, n := utf8.DecodeRuneInString(s[i:])
			i += n
			cuts = append(cuts, i)
		}
		cut := 0
		if len(cuts) > 0 {
			cut = cuts[rng.IntN(len(cuts))]
		}
		if r2, b2 := CountStrRepr(s[:cut]).Plus(CountStrRepr(s[cut:])).Len(); r2 != runes || b2 != bytes {
			t.Fatalf("%q cut at %d: the pieces' counts add to %d, %d, not %d, %d", s, cut, r2, b2, runes, bytes)
		}
	}
	check("")
	for _, a := range alphabet {
		check(a)
	}
	for range 20000 {
		var s string
		for range rng.IntN(12) {
			s += alphabet[rng.IntN(len(alphabet))]
		}
		check(s)
	}
}
