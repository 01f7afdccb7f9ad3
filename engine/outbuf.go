package engine

import (
	"io"
	"strings"

	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/value"
)

// outChunk is the largest piece an output or capture buffer holds in one
// array. A buffer is a list of chunks, each twice the size of the one
// before it up to outChunk, filled to the last byte: a full chunk is set
// aside and a new one started, and a write that does not fit is split,
// so nothing written is ever copied while the buffer grows and no chunk
// but the last has room left. Appending into one growing slice (or
// strings.Builder) grows it by a quarter at a time past a few hundred
// bytes: each byte was copied about four more times, each new array was
// fresh memory to fault in, and the old and the new array were live
// together. A 130 MB capture peaked at 468 MiB
// (redteam/alloc/capture-buffer-130mb) and printing ran at 2.8-3.5 ns a
// unit (stmt:Text, stmt:Output in the calibration); in chunks it is the
// chunks plus the one string they are joined into, twice the size plus
// the last chunk's room, and each byte is copied twice.
const outChunk = 1 << 20

// minChunk is the first chunk of a buffer that starts empty.
const minChunk = 256

// refMin is the shortest write a capture holds by reference (a string
// is immutable) rather than copying it into its chunks: a capture of
// large values ({% for %}{{ big }}{% endfor %} in a set block) then
// writes its bytes once, into the string it is joined into, not first
// into chunks as well. On a VM where a page first touched costs 13-19 us
// of CPU, a 130 MB capture of 100 kB values
// (redteam/alloc/capture-buffer-130mb) spent about half its CPU faulting
// in the chunks, and held them and the string together at its peak.
// A reference keeps its string's array alive until the capture ends, as
// a substring keeps its string's: no more than the work units that made
// those arrays, each byte charged at least a unit when it was made.
const refMin = 32 << 10

// A piece is a full chunk of a buffer (b), or a write a capture holds by
// reference (s, refMin).
type piece struct {
	b []byte
	s string
}

// outBuf is a render's output or a capture: full chunks (and, for a
// capture, large writes by reference) in order, then the chunk being
// written.
type outBuf struct {
	full  []piece
	fullN int // bytes in full
	cur   []byte
	// refs: writes of refMin bytes or more are held by reference
	// (captures only: the render's output is written to its writer or
	// its slab as it grows).
	refs bool
	// owned: this render writes its output at the end of sb, a slab
	// (own), from base on; cur is empty meanwhile. A slab's bytes
	// before base are outputs already returned, substrings of it:
	// nothing writes them again, as a strings.Builder only appends. A
	// strings.Builder because its String is the one way the standard
	// library turns written bytes into a string without a copy (the
	// engine imports no unsafe). spare keeps the pooled chunk for the
	// next render that writes to an io.Writer.
	owned bool
	sb    strings.Builder
	base  int
	spare []byte
	// first is the string of the write into the empty buffer (not owned:
	// writeString and renderer.write's inline path set it): when the
	// buffer ends holding that write alone, String returns it, not a
	// copy. An output or a capture that is one literal or one value (a
	// condition's 'yes', a macro or a template that prints one value)
	// then allocates nothing, as strings.TrimSpace returns part of its
	// argument.
	first string
}

// Len is the bytes written.
func (b *outBuf) Len() int {
	if b.owned {
		return b.sb.Len() - b.base
	}
	return b.fullN + len(b.cur)
}

// next sets the full current chunk aside and starts the next one, twice
// its size up to outChunk.
func (b *outBuf) next() {
	size := min(max(2*cap(b.cur), minChunk), outChunk)
	if len(b.cur) > 0 {
		b.full = append(b.full, piece{b: b.cur})
		b.fullN += len(b.cur)
	}
	b.cur = make([]byte, 0, size)
}

// writeRef appends s to b by reference: what the current chunk holds is
// set aside as a piece, s after it, and writing goes on in the current
// chunk's room after what it held.
func (b *outBuf) writeRef(s string) {
	if len(b.cur) > 0 {
		b.full = append(b.full, piece{b: b.cur})
		b.fullN += len(b.cur)
		b.cur = b.cur[len(b.cur):]
	}
	b.full = append(b.full, piece{s: s})
	b.fullN += len(s)
}

func (b *outBuf) writeString(s string) {
	if b.owned && b.ownedFits(len(s)) {
		b.sb.WriteString(s)
		return
	}
	if b.Len() == 0 {
		b.first = s // String returns it if nothing follows
	}
	if b.refs && len(s) >= refMin {
		b.writeRef(s)
		return
	}
	appendTo(b, s)
}

func (b *outBuf) write(p []byte) {
	if b.owned && b.ownedFits(len(p)) {
		b.sb.Write(p)
		return
	}
	appendTo(b, p)
}

// ownedFits reports whether n more bytes fit the slab. When they do
// not, what this output wrote there is copied into an ordinary first
// chunk (the one copy the guess saved is spent after all) and writing
// goes on in chunks: a builder left to grow would copy it again at every
// doubling. The slab keeps its room for the next owned output, after
// the bytes this one left there, which nothing reads.
func (b *outBuf) ownedFits(n int) bool {
	if n <= b.slabRoom() {
		return true
	}
	held := b.ownedOutput()
	size := max(min(max(2*len(held), minChunk), outChunk), len(held))
	b.cur = append(make([]byte, 0, size), held...)
	b.owned = false
	return false
}

// appendTo fills the current chunk and starts the next as often as p
// needs, copyPiece bytes a copy.
func appendTo[T string | []byte](b *outBuf, p T) {
	for {
		n := min(cap(b.cur)-len(b.cur), len(p), copyPiece)
		b.cur = appendPiece(b.cur, p[:n])
		p = p[n:]
		if len(p) == 0 {
			return
		}
		if len(b.cur) == cap(b.cur) {
			b.next()
		}
	}
}

// copyPiece is the most bytes an output or capture buffer copies between
// two points where its goroutine can be stopped. A copy is one memmove,
// and the runtime cannot stop a goroutine inside one: a collection that
// starts while a render copies megabytes waits for it, signalling the
// thread every few microseconds (runtime.suspendG), and on a VM where
// each page fault and each signal is a trap, the copy and the signals
// slowed each other down. A 130 MB capture
// (redteam/alloc/capture-buffer-130mb) spent 2 s of CPU, a third of it
// sending and taking those signals; the same bytes copied in pieces, each
// a call whose prologue is a preemption point, let the collector stop
// the render at the next piece (strutil.CopyPiece, which strutil's
// polled writes share).
const copyPiece = strutil.CopyPiece

// appendPiece appends p to dst. Never inlined: its call is the
// preemption point between two pieces (copyPiece).
//
//go:noinline
func appendPiece[T string | []byte](dst []byte, p T) []byte {
	return append(dst, p...)
}

// writePiece writes p to sb; never inlined (appendPiece).
//
//go:noinline
func writePiece(sb *strings.Builder, p []byte) {
	sb.Write(p)
}

// own starts b on room for size bytes at the end of its slab, which
// String cuts the returned string from without a copy when the output
// fits: a render that returns a string writes its output once, not into
// a pooled chunk and then again into the string (bigtext's 100 kB: about
// a tenth of the render in the peers harness). A slab holds slabOutputs
// such outputs: one allocation of a large object per output was the
// larger part of bigtext's render on a Firecracker VM (a fresh 106 kB
// span per render, scavenged and faulted in again: 30 to 55 us a render,
// where a 1.6 MB slab for 16 of them took 14 to 21 us, the same bytes
// allocated).
func (b *outBuf) own(size int) {
	if !b.owned {
		b.spare, b.cur = b.cur[:0], nil
	}
	if b.slabRoom() < size {
		b.sb.Reset() // the strings cut from the old slab keep it alive
		b.sb.Grow(slabSize(size))
	}
	b.base = b.sb.Len()
	b.owned = true
}

// slabRoom is the slab's room left, ownedOutput what this render wrote
// there (b.owned).
func (b *outBuf) slabRoom() int       { return b.sb.Cap() - b.sb.Len() }
func (b *outBuf) ownedOutput() string { return b.sb.String()[b.base:] }

// slabOutputs is how many outputs of the expected size a slab is made
// for, maxSlab the most room it is made with. A returned string keeps
// its whole slab alive, as a substring does its string: a caller that
// keeps one output of many keeps at most maxSlab, and at most
// slabOutputs times the output's expected size (docs/COSTS.md).
const (
	slabOutputs = 16
	maxSlab     = 2 << 20
)

// slabSize is the room a slab for outputs of size bytes is made with:
// slabOutputs of them up to maxSlab, and never less than one.
func slabSize(size int) int {
	return max(min(slabOutputs*size, maxSlab), size)
}

// String joins what was written into one string (one copy a byte); the
// chunks are garbage once copied. An owned output is the part of the
// slab it was written to; the slab's room after it is the next owned
// output's.
func (b *outBuf) String() string { return b.join(nil) }

// join is String polling the render's cancellation (poll, when not nil)
// every pollBytes bytes of a join of more than that: a capture of 100 MB
// written in small pieces, joined at its end, took 400 ms on fresh
// memory with no poll (TestRedteamCancelPromptly).
func (b *outBuf) join(poll func()) string {
	if b.owned {
		b.owned = false
		return b.ownedOutput()
	}
	if n := b.Len(); n > 0 && n == len(b.first) {
		// first was written into the empty buffer and nothing after
		// it: the buffer holds its bytes
		return b.first
	}
	if len(b.full) == 0 {
		return string(b.cur)
	}
	if len(b.full) == 1 && b.full[0].b == nil && len(b.cur) == 0 {
		// one write held by reference, nothing else
		s := b.full[0].s
		b.full[0], b.full, b.fullN = piece{}, b.full[:0], 0
		return s
	}
	var sb strings.Builder
	sb.Grow(b.Len())
	if b.Len() <= pollBytes {
		poll = nil
	}
	for i := range b.full {
		if c := b.full[i].b; c != nil {
			joinPieces(&sb, c, poll)
		} else {
			strutil.WriteStringPolled(&sb, b.full[i].s, poll)
		}
		b.full[i] = piece{}
	}
	joinPieces(&sb, b.cur, poll)
	b.full, b.fullN = nil, 0
	return sb.String()
}

// lazyParts hands what a capture wrote over as the parts of a lazy string
// (value.LazyJoin) and empties b, when it is at least value.LazyMin bytes
// and holds a write by reference; nil otherwise (String joins it). A
// chunk's bytes are copied into a part, as the join would copy them; a
// reference is kept as it is, so a capture of large values builds no
// string of its size until its text is read.
func (b *outBuf) lazyParts() []string {
	if b.owned || !b.refs || b.Len() < value.LazyMin {
		return nil
	}
	refs := false
	for i := range b.full {
		refs = refs || b.full[i].b == nil
	}
	if !refs {
		return nil
	}
	parts := make([]string, 0, len(b.full)+1)
	for i := range b.full {
		if c := b.full[i].b; c != nil {
			parts = append(parts, string(c))
		} else {
			parts = append(parts, b.full[i].s)
		}
		b.full[i] = piece{}
	}
	if len(b.cur) > 0 {
		parts = append(parts, string(b.cur))
	}
	b.full, b.fullN, b.cur, b.first = nil, 0, b.cur[:0], ""
	return parts
}

// pollBytes is how many bytes a join copies between two polls of the
// render's cancellation: a chunk of bulk work.
const pollBytes = strutil.BulkChunk

// joinPieces writes c to sb copyPiece bytes at a time, calling poll (when
// not nil) after each pollBytes written since sb's last multiple of it:
// strutil.WriteStringPolled for a chunk's bytes.
func joinPieces(sb *strings.Builder, c []byte, poll func()) {
	for len(c) > 0 {
		n := min(len(c), copyPiece)
		writePiece(sb, c[:n])
		c = c[n:]
		if poll != nil && sb.Len()%pollBytes < n {
			poll()
		}
	}
}

// writeTo writes what was written to w, chunk by chunk (no join).
func (b *outBuf) writeTo(w io.Writer) error {
	if b.owned {
		_, err := io.WriteString(w, b.ownedOutput())
		return err
	}
	for _, c := range b.full {
		var err error
		if c.b != nil {
			_, err = w.Write(c.b)
		} else {
			_, err = io.WriteString(w, c.s)
		}
		if err != nil {
			return err
		}
	}
	_, err := w.Write(b.cur)
	return err
}

// reset empties b, keeping the current chunk's storage when it is at
// most keep bytes.
func (b *outBuf) reset(keep int) {
	b.first = ""
	clear(b.full)
	b.full, b.fullN = b.full[:0], 0
	if b.owned || b.spare != nil || b.cur == nil {
		// back from an owned chunk to the pooled one; the slab stays
		// for the next owned output, written after what it holds
		b.cur, b.spare, b.owned = b.spare, nil, false
	}
	if cap(b.cur) > keep {
		b.cur = nil
	}
	b.cur = b.cur[:0]
}
