package value

import (
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/budget"
)

// FormatFloat prints a float exactly as Python's repr does.
func FormatFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64)
	// decimal point position: exponent + 1
	ep := strings.IndexByte(e, 'e')
	exp, _ := strconv.Atoi(e[ep+1:])
	decpt := exp + 1
	if decpt <= -4 || decpt > 16 {
		return e
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

// ToString is Python's str() of a value, as Jinja prints it.
func ToString(v Value) string {
	switch v.k {
	case Undefined:
		return ""
	case String:
		return v.s
	case None:
		return "None"
	case Bool:
		if v.n != 0 {
			return "True"
		}
		return "False"
	case Int:
		return strconv.FormatInt(v.n, 10)
	case Float:
		return FormatFloat(v.Float())
	case Object:
		if ts, ok := v.ref.(interface{ TemplateString() string }); ok {
			return ts.TemplateString()
		}
	}
	var sb TextWriter
	writeRepr(&sb, v, 0, nil, nil)
	return sb.String()
}

// Repr is Python's repr() of a value.
func Repr(v Value) string {
	var sb TextWriter
	writeRepr(&sb, v, 0, nil, nil)
	return sb.String()
}

// ToString and Repr serve hosts and messages, which have no render to
// refuse: past maxReprDepth they print "...". A render prints through
// StrIn, ReprIn and EscapeIn instead, where a structure nested deeper than
// the render's nesting limit is a budget error (P11), never truncated
// output (Python raises RecursionError) and never a Go stack overflow.

// StrIn is str(v) inside the render c.
func StrIn(c Ctx, v Value) string {
	switch v.k {
	case List, Tuple, Dict, Object:
		if v.k == Object {
			if ts, ok := v.ref.(interface{ TemplateString() string }); ok {
				return ts.TemplateString()
			}
		}
		return ReprIn(c, v)
	}
	return ToString(v)
}

// ReprIn is repr(v) inside the render c. The builder is sized once by
// the value's Size, which every caller has charged (twice over) before
// printing: grown from nothing it grew by a quarter at a time past a few
// hundred bytes, copying the repr about four more times.
func ReprIn(c Ctx, v Value) string {
	var sb TextWriter
	sb.Grow(int(Size(v, c.Meter().Left())) + 2)
	writeRepr(&sb, v, 0, c, nil)
	return sb.String()
}

// WriteReprIn writes repr(v) inside the render c to w, which a caller
// building a larger text holds (no string of its own; the caller has
// charged it).
func WriteReprIn(w *TextWriter, c Ctx, v Value) { writeRepr(w, v, 0, c, nil) }

// EscapeIn is Escape inside the render c.
func EscapeIn(c Ctx, v Value) Value {
	if v.k == String && v.safe {
		return v
	}
	return Safe(EscapeHTML(StrIn(c, v)))
}

// nestingLimit is the render's nesting limit (the default when unset).
func nestingLimit(c Ctx) int64 {
	if n := c.Meter().Limits.NestingDepth; n > 0 {
		return n
	}
	return budget.DefaultNestingDepth
}

// tooDeep refuses printing a container depth levels down in the render c.
func tooDeep(c Ctx, depth int) {
	errs.Raise(&budget.Error{Limit: budget.LimitNestingDepth, Phase: c.Meter().Phase, Op: "printing a nested value",
		Configured: nestingLimit(c), Observed: int64(depth) + 1})
}

// reprActive lists the namespaces being printed: a namespace is the one
// mutable container, so the only way to a cycle; re-entering one prints
// {...} as Python's recursive repr does.
type reprActive []*Namespace

func (a reprActive) has(ns *Namespace) bool {
	for _, x := range a {
		if x == ns {
			return true
		}
	}
	return false
}

// maxReprDepth stops runaway nesting outside a render; the budget bounds
// sizes before this.
const maxReprDepth = 300

// writeRepr writes the repr of v, nested depth containers down. In a
// render (c not nil) a container at the render's nesting limit is refused;
// outside one, past maxReprDepth prints "...".
func writeRepr(sb *TextWriter, v Value, depth int, c Ctx, active reprActive) {
	if c != nil {
		switch v.k {
		case List, Tuple, Dict: // a namespace's data is its dict, one level down
			if int64(depth) >= nestingLimit(c) {
				tooDeep(c, depth)
			}
		}
	} else if depth > maxReprDepth {
		sb.WriteString("...")
		return
	}
	switch v.k {
	case Undefined:
		sb.WriteString("Undefined")
	case String:
		if v.safe {
			sb.WriteString("Markup(")
			writeQuoted(sb, v.s)
			sb.WriteByte(')')
			return
		}
		writeQuoted(sb, v.s)
	case List:
		if d := v.ref.(*ListData); d.View() != "" {
			sb.WriteString(d.meta.view)
			sb.WriteByte('(')
			if d.meta.viewArgs != "" {
				sb.WriteString(d.meta.viewArgs)
			} else {
				writeRepr(sb, NewList(d.Items), depth+1, c, active)
			}
			sb.WriteByte(')')
			return
		}
		sb.WriteByte('[')
		for i, it := range v.Items() {
			if i > 0 {
				sb.WriteString(", ")
			}
			writeRepr(sb, it, depth+1, c, active)
		}
		sb.WriteByte(']')
	case Tuple:
		items := v.Items()
		sb.WriteByte('(')
		for i, it := range items {
			if i > 0 {
				sb.WriteString(", ")
			}
			writeRepr(sb, it, depth+1, c, active)
		}
		if len(items) == 1 {
			sb.WriteByte(',')
		}
		sb.WriteByte(')')
	case Dict:
		d := v.DictData()
		sb.WriteByte('{')
		for i := 0; i < d.Len(); i++ {
			if i > 0 {
				sb.WriteString(", ")
			}
			writeRepr(sb, d.keys[i], depth+1, c, active)
			sb.WriteString(": ")
			writeRepr(sb, d.vals[i], depth+1, c, active)
		}
		sb.WriteByte('}')
	case Callable:
		if o, ok := v.ref.(interface{ Repr() string }); ok {
			sb.WriteString(o.Repr())
			return
		}
		sb.WriteString("<function ")
		if c := v.CallableImpl(); c != nil {
			sb.WriteString(c.CallName())
		}
		sb.WriteByte('>')
	case Object:
		if ns, ok := v.ref.(*Namespace); ok {
			sb.WriteString("<Namespace ")
			if active.has(ns) {
				sb.WriteString("{...}")
			} else {
				writeRepr(sb, FromDict(ns.D), depth+1, c, append(active, ns))
			}
			sb.WriteByte('>')
			return
		}
		if o, ok := v.ref.(interface{ Repr() string }); ok {
			sb.WriteString(o.Repr())
			return
		}
		sb.WriteString("<")
		sb.WriteString(v.TypeName())
		sb.WriteString(" object>")
	default:
		sb.WriteString(ToString(v))
	}
}

// QuoteString is Python's repr of a str.
func QuoteString(s string) string {
	var sb TextWriter
	sb.Grow(len(s) + 2)
	writeQuoted(&sb, s)
	return sb.String()
}

// writeQuoted writes Python's repr of the str s to sb (in place: a
// string's repr inside a container's is not made apart and copied).
func writeQuoted(sb *TextWriter, s string) {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	sb.WriteByte(q)
	// Fast path: a run of printable ASCII that needs no escape is copied
	// whole; only the rest goes rune by rune.
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f && s[i] != q && s[i] != '\\' {
			i++
		}
		sb.WriteString(s[:i])
		s = s[i:]
		if len(s) == 0 {
			break
		}
		if b := s[0]; b < 0x80 {
			// one piece filled in place, no rune decoded, no copy call
			// (the quote is the one byte the table cannot know)
			if b == q {
				d := sb.Next(2)
				d[0], d[1] = '\\', q
				s = s[1:]
				continue
			}
			e := asciiEscapes[b]
			d := sb.Next(len(e))
			for k := range d {
				d[k] = e[k]
			}
			s = s[1:]
			continue
		}
		r, size := utf8.DecodeRuneInString(s)
		if r >= 0x80 && r != utf8.RuneError && isPrint(r) {
			// printable: its own bytes, not decoded and encoded again
			d := sb.Next(size)
			for k := range d {
				d[k] = s[k]
			}
		} else {
			writeQuotedRune(sb, r, q)
		}
		s = s[size:]
	}
	sb.WriteByte(q)
}

// asciiEscapes is the repr of each ASCII byte but the quote inside a
// str's repr (the quote depends on the string).
var asciiEscapes = func() (t [0x80]string) {
	for b := range t {
		var sb TextWriter
		writeQuotedRune(&sb, rune(b), 0xff) // 0xff: no ASCII byte is the quote
		t[b] = sb.String()
	}
	return t
}()

func writeQuotedRune(sb *TextWriter, r rune, q byte) {
	switch {
	case r == rune(q) || r == '\\':
		sb.WriteByte('\\')
		sb.WriteRune(r)
	case r == '\n':
		sb.WriteString(`\n`)
	case r == '\r':
		sb.WriteString(`\r`)
	case r == '\t':
		sb.WriteString(`\t`)
	case r < 0x20 || r == 0x7f:
		sb.WriteString(`\x`)
		writeHex(sb, r, 2)
	case r < 0x7f:
		sb.WriteRune(r)
	case !isPrintable(r):
		switch {
		case r <= 0xff:
			sb.WriteString(`\x`)
			writeHex(sb, r, 2)
		case r <= 0xffff:
			sb.WriteString(`\u`)
			writeHex(sb, r, 4)
		default:
			sb.WriteString(`\U`)
			writeHex(sb, r, 8)
		}
	default:
		sb.WriteRune(r)
	}
}

func isPrintable(r rune) bool {
	if r == utf8.RuneError {
		return true
	}
	return isPrint(r)
}

// isPrint is unicode.IsPrint, below printTableEnd from a bit a code
// point: past Latin-1 IsPrint searches five range tables one after the
// other (a string's repr with a euro sign in every 17 bytes spent a third
// of its time there).
func isPrint(r rune) bool {
	if uint32(r) < printTableEnd {
		return printBMP[r>>6]&(1<<(r&63)) != 0
	}
	return unicode.IsPrint(r)
}

// printTableEnd is where printBMP ends: past the BMP it covers the
// supplementary planes 1 to 3 too (emoji, historic scripts, CJK
// extensions), where unicode.IsPrint searched range tables a code point
// (pprint of emoji, which looks each code point up three times, ran
// 13-21 ns a unit);
// the planes above hold no printable code point but 240 variation
// selectors, left to unicode.IsPrint. 32 KiB, no pointer.
const printTableEnd = 0x40000

// printBMP marks the code points below printTableEnd (the BMP and
// planes 1 to 3) that unicode.IsPrint accepts: the
// letters, marks, numbers, punctuation and symbols, and the ASCII space,
// set range by range from the same tables.
var printBMP = func() *[printTableEnd / 64]uint64 {
	t := new([printTableEnd / 64]uint64)
	for _, tab := range unicode.PrintRanges {
		for _, rg := range tab.R16 {
			for r := int(rg.Lo); r <= int(rg.Hi); r += int(rg.Stride) {
				t[r>>6] |= 1 << (r & 63)
			}
		}
		for _, rg := range tab.R32 {
			for r := int(rg.Lo); r <= int(rg.Hi) && r < printTableEnd; r += int(rg.Stride) {
				t[r>>6] |= 1 << (r & 63)
			}
		}
	}
	t[' '>>6] |= 1 << (' ' & 63)
	return t
}()

// writeHex writes r as w lower-case hex digits (r fits in them), with
// no string made per escape.
func writeHex(sb *TextWriter, r rune, w int) {
	for shift := 4 * (w - 1); shift >= 0; shift -= 4 {
		sb.WriteByte("0123456789abcdef"[(r>>shift)&0xf])
	}
}

// EscapeHTML is markupsafe.escape on text.
func EscapeHTML(s string) string {
	i := 0
	for i < len(s) && !htmlSpecial[s[i]] {
		i++
	}
	if i == len(s) {
		return s
	}
	var w TextWriter
	w.Grow(len(s) + 16)
	w.WriteString(s[:i])
	WriteEscapedHTML(&w, s[i:])
	return w.String()
}

// htmlSpecial are the bytes markupsafe.escape replaces, found by a table
// read a byte (a ContainsAny built its set of five bytes each call).
var htmlSpecial = [256]bool{'<': true, '>': true, '&': true, '\'': true, '"': true}

// WriteEscapedHTML writes EscapeHTML(s) to w: the runs between special
// bytes whole, each special byte as its entity.
func WriteEscapedHTML(w *TextWriter, s string) {
	for len(s) > 0 {
		i := 0
		for i < len(s) && !htmlSpecial[s[i]] {
			i++
		}
		w.WriteString(s[:i])
		if i == len(s) {
			return
		}
		switch s[i] {
		case '<':
			w.WriteString("&lt;")
		case '>':
			w.WriteString("&gt;")
		case '&':
			w.WriteString("&amp;")
		case '\'':
			w.WriteString("&#39;")
		case '"':
			w.WriteString("&#34;")
		}
		s = s[i+1:]
	}
}

// Escape returns v as markup: markup stays, anything else is str()'d and
// escaped (markupsafe.escape).
func Escape(v Value) Value {
	if v.k == String && v.safe {
		return v
	}
	return Safe(EscapeHTML(ToString(v)))
}

// RuneLen returns the number of code points of s. ASCII text, the common
// case, is checked thirty-two bytes at a time (then sixteen, then
// eight): a word is built from a subslice of known length, so the
// compiler drops the bounds checks and loads it whole (2.5 times the
// speed of indexing s, and 7 times utf8.RuneCountInString's, on 170
// bytes of ASCII in sixteen-byte steps; thirty-two-byte steps took a
// quarter less again, and copy-in counts every string of a render's
// data).
func RuneLen(s string) int {
	i := 0
	for ; i+32 <= len(s); i += 32 {
		t := s[i : i+32]
		if (word(t[:8])|word(t[8:16])|word(t[16:24])|word(t[24:]))&0x8080808080808080 != 0 {
			return i + utf8.RuneCountInString(s[i:])
		}
	}
	if i+16 <= len(s) {
		t := s[i : i+16]
		if (word(t[:8])|word(t[8:]))&0x8080808080808080 != 0 {
			return i + utf8.RuneCountInString(s[i:])
		}
		i += 16
	}
	if i+8 <= len(s) {
		if word(s[i:i+8])&0x8080808080808080 != 0 {
			return i + utf8.RuneCountInString(s[i:])
		}
		i += 8
	}
	if n := len(s) - i; n >= 4 {
		// 4 to 7 bytes left: two 4-byte loads that overlap cover them (a
		// key or a short value, most strings copied in)
		t := s[i:]
		if (word4(t[:4])|word4(t[n-4:]))&0x80808080 != 0 {
			return i + utf8.RuneCountInString(t)
		}
		return len(s)
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return i + utf8.RuneCountInString(s[i:])
		}
	}
	return len(s)
}

// Word is the first eight bytes of s (len(s) >= 8) as one little-endian
// word: ASCII checks and case maps a word at a time.
func Word(s string) uint64 { return word(s[:8]) }

// ASCIIPrefixLen returns how many of the first n bytes of s (n <= len(s))
// are ASCII before the first byte that is not, eight bytes a step: the
// bytes and code points of a prefix at once (truncate's cut).
func ASCIIPrefixLen(s string, n int) int {
	i := 0
	for ; i+8 <= n; i += 8 {
		if word(s[i:i+8])&0x8080808080808080 != 0 {
			break
		}
	}
	for i < n && s[i] < utf8.RuneSelf {
		i++
	}
	return i
}

// word4 is the four bytes of t (len(t) == 4) as one little-endian word.
func word4(t string) uint32 {
	_ = t[3]
	return uint32(t[0]) | uint32(t[1])<<8 | uint32(t[2])<<16 | uint32(t[3])<<24
}

// word is the eight bytes of t (len(t) == 8) as one little-endian word.
func word(t string) uint64 {
	_ = t[7]
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}

// Size is the byte size of a value for budget purposes: a string its
// length, a container 8 bytes a slot plus its items (a container referenced
// N times counted N times). It stops adding once it passes limit.
func Size(v Value, limit int64) int64 {
	n, _ := sizeOf(v, limit, nil)
	return n
}

// LeafSize is Size of a value that is neither a container nor an object
// (ok false for those): a string its length, any other value 8 bytes. It
// is inlined, so a caller sizing many values (a filter call's arguments)
// calls Size only for the ones that need the walk.
func LeafSize(v *Value) (n int64, ok bool) {
	switch v.k {
	case String:
		return int64(len(v.s)), true
	case Object, List, Tuple, Dict:
		return 0, false
	}
	return 8, true
}

// sizeOf is Size; fixed reports whether the size can never change (no
// namespace inside), so a container may cache it.
func sizeOf(v Value, limit int64, active reprActive) (n int64, fixed bool) {
	if n, ok := LeafSize(&v); ok {
		return n, true
	}
	switch v.k {
	case Object:
		// a namespace's data counts like a dict's (each namespace once on
		// a path, so a namespace holding itself ends); it can change
		if ns, ok := v.ref.(*Namespace); ok {
			if active.has(ns) {
				return 8, false
			}
			n, _ := sizeOf(FromDict(ns.D), limit, append(active, ns))
			return 8 + n, false
		}
		// Another host object prints as its TemplateString (a host
		// artefact prints its whole content): count that, or formatting
		// one thousands of times copies megabytes on an 8-unit charge.
		// Not cached: the object decides what it prints.
		if ts, ok := v.ref.(interface{ TemplateString() string }); ok {
			return max(int64(len(ts.TemplateString())), 8), false
		}
		return 8, true
	case List, Tuple:
		ld := v.ref.(*ListData)
		if ld.size > 0 {
			return ld.size - 1, true
		}
		total, fixed := int64(len(ld.Items))*8, true
		for _, it := range ld.Items {
			if total > limit {
				return total, false
			}
			if it.k == List || it.k == Tuple || it.k == Dict || it.k == String || it.k == Object {
				n, f := sizeOf(it, limit-total, active)
				total += n
				fixed = fixed && f
			}
		}
		if fixed && total <= limit {
			ld.size = total + 1 // containers never change: the size holds
		}
		return total, fixed
	case Dict:
		d := v.DictData()
		if d.size > 0 {
			return d.size - 1, true
		}
		total, fixed := int64(d.Len())*16, true
		for i := 0; i < d.Len(); i++ {
			if total > limit {
				return total, false
			}
			kn, kf := sizeOf(d.keys[i], limit-total, active)
			vn, vf := sizeOf(d.vals[i], limit-total, active)
			total += kn + vn
			fixed = fixed && kf && vf
		}
		if fixed && total <= limit {
			d.size = total + 1
		}
		return total, fixed
	}
	panic("unreachable: LeafSize sizes every other kind")
}
