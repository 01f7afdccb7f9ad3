package strutil

import (
	"strings"
	"unicode/utf8"
)

// Poller is a value.Ctx that can be told that prepaid bulk work is under way:
// Poll ends the render (panics with its error) when the host cancelled it.
// The renderer implements it; a Ctx that does not is never cancelled.
type Poller interface {
	Poll()
}

// Poll polls c's cancellation when c (a value.Ctx) can be cancelled.
func Poll(c any) {
	if p, ok := c.(Poller); ok {
		p.Poll()
	}
}

// BulkChunk is how many bytes bulk work charged in one piece (a string
// repeated, code points counted) handles between two polls: about 0.1-0.3
// ms of copying or counting, so a render cancelled during a 60 MB
// repetition returns within a chunk, not after the whole of it. The work
// is charged before it starts, as every allocation is; the chunks only
// bound how long a cancellation waits.
const BulkChunk = 1 << 20

// CopyPiece is the most bytes a bulk write copies in one call: each call
// is a point where the goroutine can be preempted, which one copy of many
// megabytes is not (the collector, and a stop of the world, wait for it).
const CopyPiece = 64 << 10

// WriteStringPolled writes s to b CopyPiece bytes a call, calling poll
// (when not nil) each time b's length passes a multiple of BulkChunk.
func WriteStringPolled(b *strings.Builder, s string, poll func()) {
	for len(s) > 0 {
		n := min(len(s), CopyPiece)
		writeStringPiece(b, s[:n])
		s = s[n:]
		if poll != nil && b.Len()%BulkChunk < n {
			poll()
		}
	}
}

// writeStringPiece is one call of WriteStringPolled: never inlined, so
// each is a preemption point.
//
//go:noinline
func writeStringPiece(b *strings.Builder, p string) {
	b.WriteString(p)
}

// RepeatPolled is strings.Repeat(s, n) (n >= 0, the result's bytes charged
// by the caller) built a chunk at a time with c polled between chunks.
// The result is one allocation, as strings.Repeat's.
func RepeatPolled(c any, s string, n int) string {
	if len(s)*n <= BulkChunk || len(s) == 0 {
		return strings.Repeat(s, n)
	}
	var b strings.Builder
	b.Grow(len(s) * n)
	WriteRepeatPolled(c, &b, s, n)
	return b.String()
}

// WriteRepeatPolled writes s n times to b: s once, then what b holds of
// the repeats so far, doubling, each write at most BulkChunk bytes, with
// c polled after each write when the whole is more than a chunk. It
// allocates nothing beyond b's growth: a chunk of repeats made apart and
// copied in (as it was) doubled a pad under a chunk, a float's 100 kB
// of zeros 200 kB. The source of each write is b's own text
// (strings.Builder.String does not copy, and a write appends past the
// bytes it reads). The caller charged the bytes.
func WriteRepeatPolled(c any, b *strings.Builder, s string, n int) {
	if n <= 0 || s == "" {
		return
	}
	start := b.Len()
	b.WriteString(s)
	total := len(s) * n
	poll := total > BulkChunk
	if poll {
		Poll(c)
	}
	most := max(BulkChunk/len(s), 1) * len(s) // whole repeats
	for done := len(s); done < total; {
		// done, total and most are whole repeats, so k is: each write
		// starts where s starts
		k := min(done, total-done, most)
		b.WriteString(b.String()[start : start+k])
		done += k
		if poll {
			Poll(c)
		}
	}
}

// RuneCountPolled is utf8.RuneCountInString(s) counted a chunk at a time
// with c polled between chunks (the caller charged the bytes).
func RuneCountPolled(c any, s string) int {
	n := 0
	for len(s) > BulkChunk {
		// cut at a code point's start so no code point is split
		cut := BulkChunk
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		n += utf8.RuneCountInString(s[:cut])
		s = s[cut:]
		Poll(c)
	}
	return n + utf8.RuneCountInString(s)
}
