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

// polls counts Poll calls.
type polls int

func (p *polls) Poll() { *p++ }

// TestWriteRepeatPolled holds WriteRepeatPolled, which copies from what
// the builder already holds, to strings.Repeat after a prefix the builder
// held before (the copies must start at the repeats, not at the
// builder's start), for texts whose length does not divide the chunk and
// sizes around it; into a builder grown to the result it allocates
// nothing (a chunk of repeats made apart doubled a pad under a chunk),
// and it polls at least once a chunk of a text longer than one.
func TestWriteRepeatPolled(t *testing.T) {
	for _, s := range []string{"x", "ab", "ﬃ", "héllo", strings.Repeat("q", BulkChunk+3)} {
		for _, n := range []int{0, 1, 2, 3, 5, BulkChunk/len(s) + 1, 3*BulkChunk/len(s) + 7} {
			var b strings.Builder
			b.WriteString("prefix")
			var p polls
			WriteRepeatPolled(&p, &b, s, n)
			if b.String() != "prefix"+strings.Repeat(s, n) {
				t.Fatalf("WriteRepeatPolled(%q..., %d) after a prefix differs from strings.Repeat", s[:min(len(s), 8)], n)
			}
			if total := len(s) * n; total > BulkChunk && int(p) < total/BulkChunk {
				t.Fatalf("WriteRepeatPolled(%q..., %d): %d polls for %d bytes", s[:min(len(s), 8)], n, p, total)
			}
			allocs := testing.AllocsPerRun(3, func() {
				var b strings.Builder
				b.Grow(len(s)*n + 1)
				b.WriteString("p")
				WriteRepeatPolled(nil, &b, s, n)
			})
			if allocs > 1 { // the builder's one array
				t.Fatalf("WriteRepeatPolled(%q..., %d) into a grown builder: %v allocations", s[:min(len(s), 8)], n, allocs)
			}
		}
	}
}
