package value

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/jinjabox/jinjabox/engine/internal/strutil"
)

// LazyMin is the smallest string a repetition or a capture leaves unbuilt
// (a lazy string): below it the string is built at once, as before.
//
// Why: a render charges every byte of a string it makes before it makes
// it, but many long strings a template makes are never read byte by byte:
// `{% set s = 'x' * 60000000 %}{% if s|length %}`, a 130 MB capture tested
// for truth. Building them first touched every page of the array, and on
// a VM where a page first touched costs 6-19 us of CPU that was most of
// such a render's time (redteam/cpu/length-filter-uncharged,
// redteam/alloc/capture-buffer-130mb). A lazy string knows its length in
// bytes and code points; its bytes are built once, at the exact size, the
// first time anything reads them (Str), and kept (every copy of the value
// shares them). Its units were charged when it was made, exactly as
// before: laziness moves the allocation, never the charge.
const LazyMin = strutil.BulkChunk

// lazyStr is the text of a lazy string: a repetition (one part, times
// times) or a join (parts, times 1). It never changes; flat is its built
// text once read.
type lazyStr struct {
	parts []string
	times int
	size  int // bytes of the text
	// tok polls the render that made the string while it runs: building
	// 100 MB is as long as the repetition it replaced, which polled.
	tok  *PollToken
	mu   sync.Mutex // one build: a value's copies may be read by goroutines of the host (Export)
	flat atomic.Pointer[string]
}

// PollToken lets a lazy string's build poll the render that made it for
// cancellation, and only that render, only while it runs: a lazy string
// the host reads after the render (Export) builds without polling.
type PollToken struct {
	live atomic.Bool
	poll func()
}

// NewPollToken returns a live token calling poll (which panics with the
// render's cancellation error when the host cancelled it).
func NewPollToken(poll func()) *PollToken {
	t := &PollToken{poll: poll}
	t.live.Store(true)
	return t
}

// End marks the render over: the token never polls again.
func (t *PollToken) End() { t.live.Store(false) }

// Poll polls the render when it still runs.
func (t *PollToken) Poll() {
	if t != nil && t.live.Load() {
		t.poll()
	}
}

// tokenSource is a Ctx whose render can be cancelled: it hands out the
// render's token for the lazy strings it makes.
type tokenSource interface {
	PollToken() *PollToken
}

func tokenOf(c Ctx) *PollToken {
	if ts, ok := c.(tokenSource); ok {
		return ts.PollToken()
	}
	return nil
}

// text returns the built text, building it on the first read. The parts
// are dropped once built: a capture's copied chunks are not held beside
// the text (the join they replace left them garbage too).
func (l *lazyStr) text() string {
	if p := l.flat.Load(); p != nil {
		return *p
	}
	l.mu.Lock()
	defer l.mu.Unlock() // a build a cancellation ends leaves the parts for the next read
	if p := l.flat.Load(); p != nil {
		return *p
	}
	var b strings.Builder
	b.Grow(l.size)
	if l.times > 1 {
		strutil.WriteRepeatPolled(l.tok, &b, l.parts[0], l.times)
	} else {
		var poll func()
		if l.tok != nil {
			poll = l.tok.Poll
		}
		for _, p := range l.parts {
			// a large part is copied a piece at a time: one copy is a
			// runtime call the goroutine cannot be preempted in
			strutil.WriteStringPolled(&b, p, poll)
		}
	}
	s := b.String()
	l.flat.Store(&s)
	l.parts = nil
	return s
}

// lazyRepeat is s repeated n times (runes code points), charged by the
// caller, as a lazy string: len(s)*n is at least LazyMin.
func lazyRepeat(c Ctx, s string, n int, safe bool, runes int64) Value {
	return Value{k: String, safe: safe, n: runes + 1, ref: &lazyStr{parts: []string{s}, times: n, size: len(s) * n, tok: tokenOf(c)}}
}

// LazyJoin returns parts joined, the text of a capture of at least
// LazyMin bytes (markup when safe), as a lazy string. The parts' bytes
// were charged as they were written.
func LazyJoin(c Ctx, parts []string, safe bool) Value {
	size, runes := 0, 0
	for _, p := range parts {
		size += len(p)
	}
	prev, prevRunes := "", 0
	for _, p := range parts {
		if p != prev {
			// the same value written again (a loop printing one large
			// string) is the same array: == compares the pointers first
			prev, prevRunes = p, strutil.RuneLen(p)
		}
		runes += prevRunes
	}
	return lazyJoin(c, parts, size, int64(runes), safe)
}

// lazyJoin is parts joined (size bytes, runes code points, charged by the
// caller) as a lazy string.
func lazyJoin(c Ctx, parts []string, size int, runes int64, safe bool) Value {
	return Value{k: String, safe: safe, n: runes + 1, ref: &lazyStr{parts: parts, times: 1, size: size, tok: tokenOf(c)}}
}

// ByteLen is the number of bytes of a string value's text, known without
// building a lazy one (for a charge that must come before the build).
func (v Value) ByteLen() int { return v.byteLen() }

// CountByte is the number of bytes b in a string value's text, counted in
// a lazy one's parts without building it.
func CountByte(v Value, b byte) int {
	if l, ok := v.ref.(*lazyStr); ok && l.flat.Load() == nil {
		l.mu.Lock()
		defer l.mu.Unlock()
		if p := l.flat.Load(); p != nil {
			return strutil.Count(*p, string(b))
		}
		n := 0
		for _, p := range l.parts {
			n += strutil.Count(p, string(b))
		}
		return n * l.times
	}
	return strutil.Count(v.Str(), string(b))
}

// byteLen is len() of a string value's bytes, without building a lazy one.
func (v *Value) byteLen() int {
	if v.ref != nil {
		if l, ok := v.ref.(*lazyStr); ok {
			return l.size
		}
	}
	return len(v.s)
}
