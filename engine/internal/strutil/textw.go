package strutil

import (
	"strings"
	"unicode/utf8"
)

// TextWriter builds a string from many small writes (a quote, a comma,
// an escape) without a write barrier a write. A write through a
// *strings.Builder stores the builder's slice, which takes the
// collector's write barrier whenever a collection is marking; under the
// allocation rate of a render that is most of the time, and the repr of
// a list of dicts or a JSON string full of escapes spent half its time
// there. The writes gather in a pointer-free array (storing bytes and an
// index needs no barrier) and reach the builder a chunk at a time.
//
// A TextWriter is used in place (declare it, write, call String); its
// zero value is ready. Grow sizes the string, as strings.Builder's does.
type TextWriter struct {
	sb  strings.Builder
	n   int
	buf [textChunk]byte
}

// textChunk is the array's size: a few hundred bytes make the flushes
// rare and keep the writer cheap to hold on the stack.
const textChunk = 512

// Grow makes room for n more bytes in the string being built.
func (w *TextWriter) Grow(n int) { w.sb.Grow(w.n + n) }

// Len is the bytes written so far.
func (w *TextWriter) Len() int { return w.sb.Len() + w.n }

// WriteString appends s (a long s goes to the builder in one write).
func (w *TextWriter) WriteString(s string) {
	if len(s) > len(w.buf)-w.n {
		w.flushLong(s)
		return
	}
	w.n += copy(w.buf[w.n:], s)
}

// flushLong writes what the array holds, then s: into the array when it
// fits there, else straight to the builder.
func (w *TextWriter) flushLong(s string) {
	w.flush()
	if len(s) > len(w.buf) {
		w.room(len(s))
		w.sb.WriteString(s)
		return
	}
	w.n = copy(w.buf[:], s)
}

// Next appends n bytes (n at most 512, the array's size) for the caller
// to fill in place, and returns them: an escape of a known size is then
// one bounds check and its stores, not a write a byte or a copy call.
func (w *TextWriter) Next(n int) []byte {
	if n > len(w.buf)-w.n {
		w.flush()
	}
	b := w.buf[w.n : w.n+n : w.n+n]
	w.n += n
	return b
}

// Write appends p.
func (w *TextWriter) Write(p []byte) {
	if len(p) > len(w.buf)-w.n {
		w.flush()
		if len(p) > len(w.buf) {
			w.room(len(p))
			w.sb.Write(p)
			return
		}
	}
	w.n += copy(w.buf[w.n:], p)
}

// WriteByte appends b; its error is always nil (io.ByteWriter's
// signature, as strings.Builder's).
func (w *TextWriter) WriteByte(b byte) error {
	if w.n == len(w.buf) {
		w.flush()
	}
	w.buf[w.n] = b
	w.n++
	return nil
}

// WriteRune appends the UTF-8 encoding of r.
func (w *TextWriter) WriteRune(r rune) {
	if w.n+utf8.UTFMax > len(w.buf) {
		w.flush()
	}
	w.n += utf8.EncodeRune(w.buf[w.n:], r)
}

// WriteRepeat appends count copies of s. The copies are made in the
// array, doubling, and reach the builder an array at a time (padding
// written a copy at a time ran 3 ns a byte).
func (w *TextWriter) WriteRepeat(s string, count int) {
	if count <= 0 || s == "" {
		return
	}
	if len(s) > len(w.buf)/2 {
		for ; count > 0; count-- {
			w.WriteString(s)
		}
		return
	}
	w.flush()
	total := len(s) * count
	// whole copies of s fill the array up to k bytes
	k := min(len(w.buf)/len(s)*len(s), total)
	n := copy(w.buf[:], s)
	for n < k {
		n += copy(w.buf[n:k], w.buf[:n])
	}
	w.room(total - total%k)
	for ; total > k; total -= k {
		w.sb.Write(w.buf[:k])
	}
	// what is left is whole copies already at the array's start
	w.n = total
}

func (w *TextWriter) flush() {
	w.room(w.n)
	w.sb.Write(w.buf[:w.n])
	w.n = 0
}

// room makes room for n more bytes in the builder, doubling it: a write
// to a full builder grows it as append grows a large slice, by a quarter,
// so a text grown from a guess (an escape's, a translation's, xmlattr's)
// went through seven arrays on its way to 4 times its guess, 5 times its
// size allocated and held at once (strings.Builder.Grow makes twice the
// capacity and the n).
func (w *TextWriter) room(n int) {
	if w.sb.Cap()-w.sb.Len() < n {
		w.sb.Grow(n)
	}
}

// String is what was written.
func (w *TextWriter) String() string {
	w.flush()
	return w.sb.String()
}
