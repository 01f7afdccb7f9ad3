package engine

import (
	"io"
	"slices"
	"strings"
)

// outChunk is the largest piece an output or capture buffer grows to:
// past it, the buffer is set aside whole and a new one started, so a
// large output never copies what it holds while growing. Appending into
// one growing slice (or strings.Builder) grows it by a quarter at a time
// past a few hundred bytes: each byte was copied about four more times,
// each new array was fresh memory to fault in, and the old and the new
// array were live together. A 130 MB capture peaked at 468 MiB
// (redteam/alloc/capture-buffer-130mb) and printing ran at 2.8-3.5 ns a
// unit (stmt:Text, stmt:Output in the calibration); in chunks it is the
// chunks plus the one string they are joined into, about twice the size,
// and each byte is copied twice.
const outChunk = 1 << 20

// outBuf is a render's output or a capture: full chunks in order, then
// the one being written.
type outBuf struct {
	full  [][]byte
	fullN int // bytes in full
	cur   []byte
}

// Len is the bytes written.
func (b *outBuf) Len() int { return b.fullN + len(b.cur) }

// room makes room for n more bytes: below outChunk the buffer doubles
// (each byte copied about once while it grows), past it a full chunk is
// set aside.
func (b *outBuf) room(n int) {
	if len(b.cur)+n <= cap(b.cur) {
		return
	}
	if len(b.cur) >= outChunk/2 {
		b.full = append(b.full, b.cur)
		b.fullN += len(b.cur)
		b.cur = make([]byte, 0, max(outChunk, n))
		return
	}
	b.cur = slices.Grow(b.cur, max(cap(b.cur), n))
}

func (b *outBuf) writeString(s string) {
	b.room(len(s))
	b.cur = append(b.cur, s...)
}

func (b *outBuf) write(p []byte) {
	b.room(len(p))
	b.cur = append(b.cur, p...)
}

// String joins what was written into one string (one copy a byte); the
// chunks are garbage once copied.
func (b *outBuf) String() string {
	if len(b.full) == 0 {
		return string(b.cur)
	}
	var sb strings.Builder
	sb.Grow(b.Len())
	for i, c := range b.full {
		sb.Write(c)
		b.full[i] = nil
	}
	sb.Write(b.cur)
	b.full, b.fullN = nil, 0
	return sb.String()
}

// writeTo writes what was written to w, chunk by chunk (no join).
func (b *outBuf) writeTo(w io.Writer) error {
	for _, c := range b.full {
		if _, err := w.Write(c); err != nil {
			return err
		}
	}
	_, err := w.Write(b.cur)
	return err
}

// reset empties b, keeping the current chunk's storage when it is at
// most keep bytes.
func (b *outBuf) reset(keep int) {
	clear(b.full)
	b.full, b.fullN = b.full[:0], 0
	if cap(b.cur) > keep {
		b.cur = nil
	}
	b.cur = b.cur[:0]
}
