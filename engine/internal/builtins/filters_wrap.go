package builtins

import (
	"strings"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/value"
)

// wordwrap: Jinja's do_wordwrap over Python's textwrap.TextWrapper with
// expand_tabs=False and replace_whitespace=False, one paragraph per line.

func init() {
	regFilter(fWordwrap, "wordwrap")
}

// textwrap's whitespace is ASCII only.
func twSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ':
		return true
	}
	return false
}

// twLetter is textwrap's letter class [^\d\W].
func twLetter(r rune) bool { return isWordRune(r) && !pyIsDecimal(r) }

// twPunct is textwrap's word_punct class [\w!"'&.,?].
func twPunct(r rune) bool { return isWordRune(r) || strings.ContainsRune(`!"'&.,?`, r) }

// twChunk is a chunk of a line: line[off:end], n code points.
type twChunk struct {
	off, end int
	n        int
}

// twChunkBytes is the size of a twChunk (three ints): the engine imports
// no unsafe to ask.
const twChunkBytes = 3 * 8

// twScratchBytes is twSplit's scratch a code point: the rune and its
// byte offset.
const twScratchBytes = 4 + 8

// twScratch holds what splitting a line needs, reused line after line
// (made afresh a line, the code points, offsets and chunks were most of
// wordwrap's allocations: 1.5 bytes a unit).
type twScratch struct {
	text   []rune
	offs   []int
	chunks []twChunk
}

// twSplit is TextWrapper._split. With hyphen breaking it follows
// wordsep_re as a scanner: every position starts a whitespace run, an
// em-dash, or a word ended by a breakable hyphen, whitespace, the end, or
// an em-dash.
func twSplit(line string, hyphens bool, sc *twScratch) []twChunk {
	// text holds the code points, offs their byte offsets in line (an
	// invalid byte is one code point of one byte)
	text, offs := sc.text[:0], sc.offs[:0]
	if cap(text) < len(line) {
		// sized once for the line, not grown by doubling: appends
		// reallocated 2-3 times the scratch charged (the cost search's
		// wordwrap SA(N), SD, MK(N): up to 2.9 bytes a unit)
		//scratch:ok wordwrap's scratch: charged up front, twScratchBytes a byte of the text (fWordwrap)
		text = make([]rune, 0, len(line))
		//scratch:ok wordwrap's scratch: charged up front, twScratchBytes a byte of the text (fWordwrap)
		offs = make([]int, 0, len(line)+1)
	}
	for i := 0; i < len(line); {
		r, w := utf8.DecodeRuneInString(line[i:])
		//scratch:ok wordwrap's scratch: charged up front, twScratchBytes a byte of the text (fWordwrap)
		text = append(text, r)
		//scratch:ok wordwrap's scratch: charged up front, twScratchBytes a byte of the text (fWordwrap)
		offs = append(offs, i)
		i += w
	}
	offs = append(offs, len(line))
	out := sc.chunks[:0]
	at := func(i int) rune {
		if i < 0 || i >= len(text) {
			return -1
		}
		return text[i]
	}
	// dashRunThenWord reports whether text[i:] is two or more '-' then \w.
	dashRunThenWord := func(i int) (int, bool) {
		j := i
		for j < len(text) && text[j] == '-' {
			j++
		}
		return j, j-i >= 2 && j < len(text) && isWordRune(text[j])
	}
	add := func(a, b int) { out = append(out, twChunk{offs[a], offs[b], b - a}) }
	p := 0
	for p < len(text) {
		if twSpace(text[p]) {
			e := p
			for e < len(text) && twSpace(text[e]) {
				e++
			}
			add(p, e)
			p = e
			continue
		}
		if !hyphens {
			e := p
			for e < len(text) && !twSpace(text[e]) {
				e++
			}
			add(p, e)
			p = e
			continue
		}
		if text[p] == '-' && p > 0 && twPunct(text[p-1]) {
			if j, ok := dashRunThenWord(p); ok {
				add(p, j)
				p = j
				continue
			}
		}
		e := p + 1
		for {
			if at(e) == '-' && ((twLetter(at(e-1)) && twLetter(at(e-2))) ||
				(twLetter(at(e-1)) && at(e-2) == '-' && twLetter(at(e-3)))) &&
				twLetter(at(e+1)) && (twLetter(at(e+2)) || (at(e+2) == '-' && twLetter(at(e+3)))) {
				e++
				break
			}
			if e >= len(text) || twSpace(text[e]) {
				break
			}
			if twPunct(text[e-1]) && text[e] == '-' {
				if _, ok := dashRunThenWord(e); ok {
					break
				}
			}
			e++
		}
		add(p, e)
		p = e
	}
	sc.text, sc.offs, sc.chunks = text, offs, out
	return out
}

// runeOffset is the byte offset of code point n in s (len(s) past the end).
func runeOffset(s string, n int64) int {
	if n <= 0 {
		return 0
	}
	i := int64(0)
	for off := range s {
		if i == n {
			return off
		}
		i++
	}
	return len(s)
}

func isBlankChunk(s string) bool { return strings.TrimFunc(s, pyIsSpace) == "" }

// twWrap is TextWrapper._wrap_chunks (no indents, no max_lines) over the
// chunks of line, appending the wrapped lines to lines. A wrapped line is
// a run of consecutive chunks, so it is a slice of line, not a join.
// Breaking a long word copies its remainder in Python, which is charged
// as spent.
func twWrap(c value.Ctx, line string, chunks []twChunk, width int64, breakLong, hyphens bool, lines *twLines) {
	if width <= 0 {
		errs.Throwf(errs.Render, "invalid width %d (must be > 0)", width)
	}
	first := lines.n
	text := func(ch twChunk) string { return line[ch.off:ch.end] }
	// frontBlank is isBlankChunk of the first chunk. A long word broken
	// at width loses a code point or more from its front at each break,
	// and with nothing kept on a line no break drops the blank rest: the
	// test asked again of what is left scanned it again, so 100,000
	// spaces wrapped at width 1 took 13 s (FuzzRender; Python's textwrap
	// strips the rest at each break too, 2.2 s). Where the chunk's blank
	// tail starts is found once a chunk, from its end: what is left of it
	// is blank when it starts there or after.
	blankEnd, blankFrom := -1, 0
	frontBlank := func() bool {
		ch := chunks[0]
		if ch.end != blankEnd {
			blankEnd, blankFrom = ch.end, ch.off+len(strings.TrimRightFunc(text(ch), pyIsSpace))
		}
		return ch.off >= blankFrom
	}
	// chunks are consumed from the front (Python reverses and pops)
	for len(chunks) > 0 {
		// the current line is line[a:b]; last is where its last chunk starts
		a, b, last := -1, -1, -1
		take := func(off, end int) {
			if a < 0 {
				a = off
			}
			b, last = end, off
		}
		var curLen int64
		if lines.n > first && frontBlank() {
			chunks = chunks[1:]
		}
		for len(chunks) > 0 {
			l := int64(chunks[0].n)
			if curLen+l > width {
				break
			}
			take(chunks[0].off, chunks[0].end)
			curLen += l
			chunks = chunks[1:]
		}
		if len(chunks) > 0 && int64(chunks[0].n) > width {
			spaceLeft := width - curLen
			if width < 1 {
				spaceLeft = 1
			}
			if breakLong {
				// Python copies the remainder of the word at each break;
				// here a break is a slice, so what it costs is finding
				// the break: at most 4 bytes a code point of the line's
				// room (a long word's breaks are linear work, as they
				// finish at once in Jinja2)
				ch := text(chunks[0])
				c.Charge(min(int64(len(ch)), budget.Mul(max(spaceLeft, 1), utf8.UTFMax))+budget.Elem, "filter wordwrap")
				end := runeOffset(ch, spaceLeft)
				if hyphens && int64(chunks[0].n) > spaceLeft {
					// rfind('-', 0, space_left), used if something precedes it
					if h := strings.LastIndexByte(ch[:end], '-'); h > 0 && strings.Trim(ch[:h], "-") != "" {
						end = h + 1
					}
				}
				take(chunks[0].off, chunks[0].off+end)
				chunks[0] = twChunk{chunks[0].off + end, chunks[0].end, chunks[0].n - strutil.RuneLen(ch[:end])}
			} else if a < 0 {
				take(chunks[0].off, chunks[0].end)
				chunks = chunks[1:]
			}
		}
		if a >= 0 && isBlankChunk(line[last:b]) {
			b = last // the last chunk dropped
			if b == a {
				a = -1
			}
		}
		if a >= 0 {
			c.Charge(budget.Elem, "filter wordwrap")
			lines.add(line[a:b])
		}
	}
}

// twLines is wordwrap's list of wrapped lines: the first twLinesBlock
// grown by append, the rest in blocks of twLinesBlock that are never
// copied. A list grown by append past them was allocated five times over
// (a quarter at a time): 84 MB for the million one-character lines of a
// 1 MB word wrapped at width 1 (the hostile case wordwrap-long-word:
// 95 MB allocated, 106-122 MiB of peak RSS and 420-600 ms of CPU a
// process), against 16 MB for the lines themselves. Each line is charged
// an element (64 units) before it is added; it takes 16 bytes.
type twLines struct {
	head   []string
	blocks [][]string
	n      int
}

const twLinesBlock = 1024

func (l *twLines) add(s string) {
	if l.n < twLinesBlock {
		//scratch:ok a line charged an element before it is added, at most twLinesBlock grown by append
		l.head = append(l.head, s)
		l.n++
		return
	}
	j := l.n - twLinesBlock
	if j%twLinesBlock == 0 {
		//scratch:ok one block of twLinesBlock lines, each charged an element before it is added
		l.blocks = append(l.blocks, make([]string, twLinesBlock))
	}
	l.blocks[j/twLinesBlock][j%twLinesBlock] = s
	l.n++
}

func (l *twLines) at(i int) *string {
	if i < twLinesBlock {
		return &l.head[i]
	}
	j := i - twLinesBlock
	return &l.blocks[j/twLinesBlock][j%twLinesBlock]
}

func fWordwrap(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_wordwrap", "width", "break_long_words", "wrapstring", "break_on_hyphens")
	width := argInt("wordwrap", a[0], 79)
	breakLong := argBool(a[1], true)
	wrap := "\n"
	safeWrap := false // a Markup wrapstring escapes what it joins
	if !isNoneOrMissing(a[2]) {
		wrap = pyStr(c, a[2])
		safeWrap = a[2].IsSafe()
	}
	// textwrap tests "is True", so only a real true enables the hyphen regex
	hyphenRe := a[3].IsMissing() || (a[3].Kind() == value.Bool && a[3].Bool())
	hyphenLong := argBool(a[3], true)
	if v.IsUndefined() {
		vops.ThrowUndefined(v)
	}
	if !v.IsString() {
		errs.Throwf(errs.Render, "%s object has no attribute 'splitlines'", errs.Quote(v.TypeName()))
	}
	s := v.Str()
	// twSplit's scratch, charged before it is made: a code point (4
	// bytes) and its byte offset (8) for each byte at most, with the
	// bytes scanned (red team round 3: one 20 MB word took 636-815 MiB
	// for 4 units a byte)
	c.Charge(budget.Mul(int64(len(s)), twScratchBytes+4), "filter wordwrap")
	// Afford an upper bound of the output before splitting: every word can
	// start a line, and a long word broken at width starts len/width more,
	// each line joined by wrapstring. Splitting a huge text into chunks
	// costs far more memory than the text, so refuse before that.
	var words int64
	for i, inWord := 0, false; i < len(s); i++ {
		sp := s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\v' || s[i] == '\f'
		if !sp && !inWord {
			words++
		}
		inWord = !sp
	}
	// the chunk list's scratch before twSplit grows it: a word and the
	// whitespace after it are two chunks
	c.Charge(budget.Mul(2*words+1, twChunkBytes), "filter wordwrap")
	if width > 0 {
		words += int64(len(s)) / int64(width)
	}
	if est := budget.Add(int64(len(s)), budget.Mul(words, int64(len(wrap))+budget.Elem)); est > c.Meter().Left() {
		c.Charge(est, "filter wordwrap (estimated output)")
	}
	// every paragraph's wrapped lines (slices of s, or their escapes)
	// in one list, ends[i] where paragraph i's end; the result is
	// written once from them, into a writer of the size charged
	var sc twScratch
	var lines twLines
	var ends []int
	var total int64
	for _, line := range pySplitLines(c, s, "filter wordwrap") {
		chunks := twSplit(line, hyphenRe, &sc)
		c.Charge(budget.Mul(int64(len(chunks)), budget.Elem), "filter wordwrap")
		from := lines.n
		if len(chunks) > 0 || width <= 0 {
			twWrap(c, line, chunks, width, breakLong, hyphenLong, &lines)
		}
		for i := from; i < lines.n; i++ {
			w := lines.at(i)
			if safeWrap {
				chargeEscape(c, *w, "filter wordwrap")
				*w = value.EscapeHTML(*w)
			}
			total += int64(len(*w))
		}
		if wrapped := lines.n - from; wrapped > 1 {
			total = budget.Add(total, budget.Mul(int64(wrapped-1), int64(len(wrap))))
			c.Charge(budget.Mul(int64(wrapped-1), int64(len(wrap))), "filter wordwrap")
		}
		ends = append(ends, lines.n)
	}
	total = budget.Add(total, budget.Mul(int64(len(ends)), int64(len(wrap))))
	c.Charge(total, "filter wordwrap")
	var sb strutil.TextWriter
	sb.Grow(int(total))
	from := 0
	for p, end := range ends {
		if p > 0 {
			sb.WriteString(wrap)
		}
		for i := from; i < end; i++ {
			if i > from {
				sb.WriteString(wrap)
			}
			sb.WriteString(*lines.at(i))
		}
		from = end
	}
	if safeWrap {
		return value.Safe(sb.String())
	}
	return value.FromString(sb.String())
}
