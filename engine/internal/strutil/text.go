// Package strutil is the engine's text machinery below the value model:
// the chunked TextWriter, Python's repr of a str, markupsafe's escaping,
// fast code-point counts, Python's float printing and parsing, and the
// polling of long bulk work. It knows no Value, so package value and the
// built-ins both import it; a host has no use for it, which is why it is
// internal.
package strutil

import (
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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

// QuoteString is Python's repr of a str.
func QuoteString(s string) string {
	var sb TextWriter
	sb.Grow(len(s) + 2)
	WriteQuoted(&sb, s)
	return sb.String()
}

// WriteQuoted writes Python's repr of the str s to sb (in place: a
// string's repr inside a container's is not made apart and copied).
func WriteQuoted(sb *TextWriter, s string) {
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
		return printTable()[r>>6]&(1<<(r&63)) != 0
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
// set range by range from the same tables. Built on first use
// (printTable): built at init it was about 0.5 ms of CPU in every process
// that links the engine (issue 29).
var (
	printBMPOnce sync.Once
	printBMP     atomic.Pointer[[printTableEnd / 64]uint64]
)

// printTable returns printBMP, building it the first time; the read
// inlines, an atomic load (a plain one on amd64 and arm64).
func printTable() *[printTableEnd / 64]uint64 {
	if t := printBMP.Load(); t != nil {
		return t
	}
	return buildPrintTableOnce()
}

// buildPrintTableOnce builds printBMP once (apart so that printTable
// inlines).
func buildPrintTableOnce() *[printTableEnd / 64]uint64 {
	printBMPOnce.Do(func() { printBMP.Store(buildPrintTable()) })
	return printBMP.Load()
}

func buildPrintTable() *[printTableEnd / 64]uint64 {
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
}

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
	// the result's exact size, counted first: grown as it was written,
	// 10 MB of '<' went through seven arrays on the way to 40 MB (176 MB
	// peak, 630 ms)
	var w TextWriter
	w.Grow(i + EscapedHTMLLen(s[i:]))
	w.WriteString(s[:i])
	WriteEscapedHTML(&w, s[i:])
	return w.String()
}

// EscapedHTMLLen is len(EscapeHTML(s)), counted.
func EscapedHTMLLen(s string) int {
	n := len(s)
	for j := 0; j < len(s); j++ {
		n += int(htmlExtra[s[j]])
	}
	return n
}

// htmlExtra is what escaping a byte adds to its one: "&lt;" is 3 more.
var htmlExtra = [256]uint8{'<': 3, '>': 3, '&': 4, '\'': 4, '"': 4}

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

// RuneLen returns the number of code points of s. ASCII text, the common
// case, is checked thirty-two bytes at a time (then sixteen, then
// eight): a word is built from a subslice of known length, so the
// compiler drops the bounds checks and loads it whole (2.5 times the
// speed of indexing s, and 7 times utf8.RuneCountInString's, on 170
// bytes of ASCII in sixteen-byte steps; thirty-two-byte steps took a
// quarter less again, and copy-in counts every string of a render's
// data). A string of four to eight bytes (most keys and values of a
// render's data) is checked first, with two overlapping four-byte loads,
// before the loops' tests.
func RuneLen(s string) int {
	if n := len(s); n >= 4 && n <= 8 {
		if (word4(s[:4])|word4(s[n-4:]))&0x80808080 != 0 {
			return utf8.RuneCountInString(s)
		}
		return n
	}
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

// ParseFloat parses a decimal float (digits, an optional fraction and
// exponent; no underscores) to the correctly rounded float64, whatever the
// length of its mantissa or exponent. strconv.ParseFloat caps the exponent
// it reads at 10,000, so '1'*100010 ~ 'e-100000' became 0.0; here the
// digits are normalized first: leading zeros dropped, the decimal point
// folded into the exponent, the mantissa cut at 800 significant digits
// (more than the 767 a float64 can need) with a sticky digit for the rest,
// and an exponent far outside the float range settled as 0 or inf. Linear
// in len(s); the caller charges the bytes. ok is false on bad syntax.
func ParseFloat(s string) (f float64, ok bool) {
	if len(s) < 64 && decimalChars(s) {
		if f, err := strconv.ParseFloat(s, 64); err == nil || isRange(err) {
			return f, true
		}
		return 0, false
	}
	i, neg := 0, false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg, i = s[i] == '-', i+1
	}
	const keep = 800
	var digits []byte
	sticky, seen := false, false
	exp := int64(0) // value = 0.digits * 10^exp
	point := false
	for ; i < len(s); i++ {
		c := s[i]
		if c == '.' {
			if point {
				return 0, false
			}
			point = true
			continue
		}
		if c < '0' || c > '9' {
			break
		}
		seen = true
		if c == '0' && len(digits) == 0 {
			if point {
				exp-- // a leading zero after the point shifts the value down
			}
			continue
		}
		if !point {
			exp++
		}
		if len(digits) < keep {
			//scratch:ok at most keep digits (a constant)
			digits = append(digits, c)
		} else if c != '0' {
			sticky = true
		}
	}
	if !seen {
		return 0, false
	}
	if i < len(s) {
		if s[i] != 'e' && s[i] != 'E' {
			return 0, false
		}
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg, i = s[i] == '-', i+1
		}
		if i == len(s) {
			return 0, false
		}
		e := int64(0)
		for ; i < len(s); i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			if e < 1<<40 {
				e = e*10 + int64(c-'0')
			}
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	switch {
	case len(digits) == 0 || exp < -400:
		f = 0
	case exp > 400:
		f = math.Inf(1)
	default:
		if sticky {
			digits = append(digits, '1')
		}
		var sb strings.Builder
		sb.Grow(len(digits) + 8)
		sb.WriteString("0.")
		sb.Write(digits)
		sb.WriteByte('e')
		sb.WriteString(strconv.FormatInt(exp, 10))
		f, _ = strconv.ParseFloat(sb.String(), 64)
	}
	if neg {
		f = -f
	}
	return f, true
}

// decimalChars reports whether s has only the characters of a decimal
// float, so strconv reads no hex, underscore or inf form in it.
func decimalChars(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == '.', c == 'e', c == 'E', c == '+', c == '-':
		default:
			return false
		}
	}
	return true
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// Spent is Charge's common case for a loop that charges each step (the
// comparisons of a sort): it spends n from m, c.Spender(), and reports
// true when that was the whole charge; false (m nil, or too few units
// left) leaves the charge, its refusal and any poll to c.Charge:
//
//	if !strutil.Spent(m, n) {
//		c.Charge(n, op)
//	}
//
// It is inlined where Charge, an interface call, is not.
func Spent(m *budget.Meter, n int64) bool { return m != nil && m.TrySpend(n) }
