package builtins

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/engine/internal/strutil"
)

// TestJoinedCounted: a join's code points counted from its parts are the
// count of the joined text, invalid bytes at a boundary included (an
// incomplete sequence before a continuation byte decodes as one code
// point once joined).
func TestJoinedCounted(t *testing.T) {
	for _, c := range []struct {
		parts []string
		sep   string
	}{
		{nil, ","},
		{[]string{"é"}, "€"},
		{[]string{"a", "é", "€x"}, ", "},
		{[]string{"a", "", "b"}, ""},
		{[]string{"\xe2\x82", "\xac"}, ""},      // joined: one €
		{[]string{"\xe2", "\x82\xac", "z"}, ""}, // joined: one €
		{[]string{"\xe2\x82", "\xac"}, "-"},
		{[]string{"x\xe2", "y"}, "\x82\xac"},   // the separator completes it
		{[]string{"\xe2\x82", "", "\xac"}, ""}, // across an empty part
		{[]string{"\xff", "\xfe"}, "\x80"},
		{[]string{strings.Repeat("ΐßﬁ", 50), "q"}, strings.Repeat("é", 7)},
	} {
		runes := 0
		for _, p := range c.parts {
			runes += strutil.RuneLen(p)
		}
		v := joinedCounted(c.parts, c.sep, runes)
		want := strings.Join(c.parts, c.sep)
		if v.Str() != want {
			t.Errorf("%q joined by %q: %q, want %q", c.parts, c.sep, v.Str(), want)
		}
		if got, n := v.RuneCount(), utf8.RuneCountInString(want); got != n {
			t.Errorf("%q joined by %q: %d code points, want %d", c.parts, c.sep, got, n)
		}
	}
}
