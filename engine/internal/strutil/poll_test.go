package strutil

import (
	"strings"
	"testing"
)

// TestRepeatPolled holds RepeatPolled to strings.Repeat for texts whose
// length does not divide the chunk (a 3-byte code point) and for sizes
// around the chunk, and RuneCountPolled to utf8's count across chunk cuts.
func TestRepeatPolled(t *testing.T) {
	for _, s := range []string{"x", "ab", "ﬃ", "héllo", strings.Repeat("q", BulkChunk+3)} {
		for _, n := range []int{0, 1, 2, BulkChunk/len(s) + 1, 3*BulkChunk/len(s) + 7} {
			got := RepeatPolled(nil, s, n)
			if got != strings.Repeat(s, n) {
				t.Fatalf("RepeatPolled(%q..., %d) differs from strings.Repeat", s[:min(len(s), 8)], n)
			}
			if RuneCountPolled(nil, got) != len([]rune(got)) {
				t.Fatalf("RuneCountPolled of %q x %d is wrong", s[:min(len(s), 8)], n)
			}
		}
	}
}
