package strutil

import (
	"strings"
	"testing"
)

// TestTextWriter drives a TextWriter and a strings.Builder with the same
// writes, of every size around the array's (short ones gathered, long
// ones passed through, repeats that fill it several times over and end
// part way, pieces filled in place), and compares what they built.
func TestTextWriter(t *testing.T) {
	sizes := []int{0, 1, 2, 3, textChunk/2 - 1, textChunk / 2, textChunk/2 + 1, textChunk - 1, textChunk, textChunk + 1, 3*textChunk + 7}
	for _, first := range sizes {
		for _, size := range sizes {
			for _, count := range []int{0, 1, 2, 5, textChunk/3 + 1, 2*textChunk + 3} {
				var w TextWriter
				var want strings.Builder
				w.Grow(first)
				lead := strings.Repeat("é", first)[:first] // a cut rune: bytes are copied as they are
				w.WriteString(lead)
				want.WriteString(lead)
				piece := strings.Repeat("ab€", size)[:size]
				w.WriteRepeat(piece, count)
				want.WriteString(strings.Repeat(piece, count))
				w.Write([]byte(piece))
				want.WriteString(piece)
				w.WriteByte('x')
				want.WriteByte('x')
				w.WriteRune('ß')
				want.WriteRune('ß')
				if size <= textChunk {
					copy(w.Next(size), piece)
					want.WriteString(piece)
				}
				w.WriteString(piece)
				want.WriteString(piece)
				if w.Len() != want.Len() {
					t.Fatalf("first %d, size %d, count %d: Len %d, want %d", first, size, count, w.Len(), want.Len())
				}
				if got := w.String(); got != want.String() {
					t.Fatalf("first %d, size %d, count %d: built %d bytes that differ from the %d expected", first, size, count, len(got), want.Len())
				}
			}
		}
	}
}

// TestTextWriterAllocs: writes that fit the array allocate
// nothing; the string is allocated once when grown to size.
func TestTextWriterAllocs(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		var w TextWriter
		w.Grow(4096)
		for i := 0; i < 1000; i++ {
			w.WriteString("ab")
			w.WriteByte(',')
		}
		w.WriteRepeat("-", 1000)
		_ = w.String()
	})
	if allocs != 1 {
		t.Fatalf("%v allocations, want 1 (the string, sized by Grow)", allocs)
	}
}
