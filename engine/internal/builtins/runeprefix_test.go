package builtins

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// runePrefix is Python's s[:n] on code points, whatever mix of ASCII,
// multi-byte and invalid bytes s holds and wherever n falls.
func TestRunePrefix(t *testing.T) {
	want := func(s string, n int) string {
		if n <= 0 {
			return ""
		}
		i := 0
		for pos := range s {
			if i == n {
				return s[:pos]
			}
			i++
		}
		return s
	}
	for _, s := range []string{"", "abc", "héllo wörld", "€€€", "ab\xffcd", "\U0001F600x", strings.Repeat("a", 70) + "é", strings.Repeat("a", 13) + "é" + strings.Repeat("b", 9) + "€"} {
		for n := -1; n <= utf8.RuneCountInString(s)+2; n++ {
			if got := runePrefix(s, n); got != want(s, n) {
				t.Errorf("runePrefix(%q, %d) = %q, want %q", s, n, got, want(s, n))
			}
		}
	}
}
