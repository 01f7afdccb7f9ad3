package builtins

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/value"
)

// Python's format-spec mini-language for str, int and float, shared by
// str.format and printf-style formatting:
//
//	[[fill]align][sign][z][#][0][width][grouping][.precision][type]

// maxSpecNumber saturates widths and precisions while parsing; anything
// that large is refused by the budget estimate before it is used.
const maxSpecNumber = 1 << 40

type fmtSpec struct {
	fill     string // one code point
	align    byte   // '<' '>' '^' '=' or 0 (the type's default)
	sign     byte   // '-' '+' ' ' (0: '-')
	z        bool
	alt      bool
	width    int64
	grouping byte  // ',' '_' or 0
	prec     int64 // -1: none
	typ      byte  // 0: none
	zeroPad  bool  // the '0' flag
	fillSet  bool
	// c is the render the field is formatted in, polled while a wide
	// field is padded (padJoin); nil outside a render
	c value.Ctx
}

func parseSpec(spec string, kind string) fmtSpec {
	f := fmtSpec{fill: " ", prec: -1}
	// The fill may be any code point; everything the grammar reads after
	// it is ASCII, so the spec is read by bytes from there (a []rune of
	// it was four bytes a byte of a spec as long as the template made it).
	rs := spec
	i := 0
	isAlign := func(b byte) bool { return b == '<' || b == '>' || b == '^' || b == '=' }
	r0, w0 := utf8.DecodeRuneInString(spec)
	if len(rs) > w0 && isAlign(rs[w0]) {
		f.fill, f.align, f.fillSet = string(r0), rs[w0], true
		i = w0 + 1
	} else if len(rs) >= 1 && isAlign(rs[0]) {
		f.align = rs[0]
		i = 1
	}
	if i < len(rs) && (rs[i] == '+' || rs[i] == '-' || rs[i] == ' ') {
		f.sign = rs[i]
		i++
	}
	if i < len(rs) && rs[i] == 'z' {
		f.z = true
		i++
	}
	if i < len(rs) && rs[i] == '#' {
		f.alt = true
		i++
	}
	if !f.fillSet && i < len(rs) && rs[i] == '0' {
		f.fill, f.zeroPad = "0", true
		if f.align == 0 && kind != "str" {
			f.align = '='
		}
		i++
	}
	readNum := func() (int64, bool) {
		n, any := int64(0), false
		for i < len(rs) && rs[i] >= '0' && rs[i] <= '9' {
			if n < maxSpecNumber {
				n = n*10 + int64(rs[i]-'0')
			}
			i++
			any = true
		}
		return n, any
	}
	f.width, _ = readNum()
	if i < len(rs) && (rs[i] == ',' || rs[i] == '_') {
		f.grouping = rs[i]
		i++
		if i < len(rs) && (rs[i] == ',' || rs[i] == '_') {
			if rs[i] == f.grouping {
				valueError("Cannot specify '" + string(rs[i]) + "' with '" + string(rs[i]) + "'.")
			}
			valueError("Cannot specify both ',' and '_'.")
		}
	}
	if i < len(rs) && rs[i] == '.' {
		i++
		p, ok := readNum()
		if !ok {
			valueError("Format specifier missing precision")
		}
		f.prec = p
	}
	if utf8.RuneCountInString(rs[i:]) > 1 {
		valueError("Invalid format specifier '" + spec + "' for object of type '" + kind + "'")
	}
	if i < len(rs) {
		if r, _ := utf8.DecodeRuneInString(rs[i:]); r > 0x7f {
			valueError("Unknown format code '\\x" + strconv.FormatInt(int64(r), 16) + "' for object of type '" + kind + "'")
		}
		f.typ = rs[i]
	}
	if f.grouping != 0 {
		ok := false
		switch f.typ {
		case 0, 'd', 'e', 'f', 'g', 'E', 'F', 'G', '%':
			ok = true
		case 'b', 'o', 'x', 'X':
			ok = f.grouping == '_'
		}
		if !ok {
			valueError("Cannot specify '" + string(f.grouping) + "' with '" + string(f.typ) + "'.")
		}
	}
	return f
}

// estimate is what formatting one value under the spec may produce, in
// bytes, charged before formatting.
func (f fmtSpec) estimate(base int64) int64 {
	n := base
	if f.prec > 0 {
		n = budget.Add(n, f.prec)
	}
	if f.grouping != 0 {
		n = budget.Add(n, n/3+1)
	}
	w := budget.Mul(f.width, int64(len(f.fill)))
	if w > n {
		return w
	}
	return n
}

// padTo aligns body (sign/prefix head + digits tail for '=') to width.
func (f fmtSpec) padTo(head, body string, defAlign byte) string {
	out, _ := f.padCounted(head, body, int64(strutil.RuneLen(head)+strutil.RuneLen(body)), defAlign)
	return out
}

// padCounted is padTo for a head and body of n code points, known to the
// caller (a string field's value knows its own: counting a long one again
// was most of the time of a format); it returns the result's count too.
func (f fmtSpec) padCounted(head, body string, n int64, defAlign byte) (string, int64) {
	if f.width <= n {
		return head + body, n
	}
	before, mid, after := f.pads(n, defAlign)
	return padJoin(f.c, piece{f.fill, before}, piece{head, 1}, piece{f.fill, mid}, piece{body, 1}, piece{f.fill, after}), f.width
}

// pads is how many fills go before the head, between the head and the
// body ('=') and after the body, for a text of n code points under
// width: the alignment's split.
func (f fmtSpec) pads(n int64, defAlign byte) (before, mid, after int) {
	pad := f.width - n
	align := f.align
	if align == 0 {
		align = defAlign
	}
	p := int(pad)
	switch align {
	case '<':
		return 0, 0, p
	case '^':
		return int(pad / 2), 0, p - int(pad/2)
	case '=':
		return 0, p, 0
	}
	return p, 0, 0
}

// padPieces is padCounted for a body in pieces, joined once with the
// padding (padJoin).
func (f fmtSpec) padPieces(head string, body []piece, n int64, defAlign byte) (string, int64) {
	before, mid, after, width := 0, 0, 0, n
	if f.width > n {
		before, mid, after = f.pads(n, defAlign)
		width = f.width
	}
	//scratch:ok at most four pieces of a float's text, each a string header
	ps := append(append([]piece{{f.fill, before}, {head, 1}, {f.fill, mid}}, body...), piece{f.fill, after})
	return padJoin(f.c, ps...), width
}

// piece is a text repeated times times, a part of what padJoin joins.
type piece struct {
	text  string
	times int
}

// padJoin joins pieces, each repeat written with c polled between 1 MiB
// chunks (strutil.WriteRepeatPolled), so a render cancelled during a 60 MB
// pad stops within a chunk (red team round 3: 160 ms after its deadline).
// The caller charged the result's bytes.
func padJoin(c value.Ctx, pieces ...piece) string {
	total := 0
	for _, p := range pieces {
		total += len(p.text) * max(p.times, 0)
	}
	var b strings.Builder
	b.Grow(total)
	for _, p := range pieces {
		strutil.WriteRepeatPolled(c, &b, p.text, p.times)
	}
	return b.String()
}

// formatStrSpec formats s, of n code points, under the spec; it returns
// the result's count too.
func formatStrSpec(s string, n int64, f fmtSpec) (string, int64) {
	switch {
	case f.typ != 0 && f.typ != 's':
		valueError("Unknown format code '" + string(f.typ) + "' for object of type 'str'")
	case f.sign != 0:
		valueError("Sign not allowed in string format specifier")
	case f.alt:
		valueError("Alternate form (#) not allowed in string format specifier")
	case f.z:
		valueError("Negative zero coercion (z) not allowed in format specifier")
	case f.align == '=':
		valueError("'=' alignment not allowed in string format specifier")
	case f.grouping != 0:
		valueError("Cannot specify '" + string(f.grouping) + "' with 's'.")
	}
	if f.prec >= 0 && n > f.prec {
		s, n = s[:cpOffset(s, f.prec)], f.prec
	}
	return f.padCounted("", s, n, '<')
}

// group inserts separators every g digits from the right, padding with
// zeros up to minw (CPython's _PyUnicode_InsertThousandsGrouping).
func group(digits string, sep byte, g int, minw int64) string {
	var parts []string
	rem := int64(len(digits))
	useSep := false
	for {
		l := int64(g)
		if m := max(rem, minw, 1); m < l {
			l = m
		}
		nz := max(0, l-rem)
		nc := max(0, min(rem, l))
		chunk := strings.Repeat("0", int(nz)) + digits[rem-nc:rem]
		if useSep {
			chunk += string(sep)
		}
		//scratch:ok digit grouping: one part a three digits of a number already formatted (its width bounded and charged by the pad)
		parts = append(parts, chunk)
		rem -= nc
		minw -= l
		if rem <= 0 && minw <= 0 {
			break
		}
		minw--
		useSep = true
	}
	var sb strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		sb.WriteString(parts[i])
	}
	return sb.String()
}

// numberOut assembles sign, prefix, integer digits (grouped) and the rest.
func (f fmtSpec) numberOut(neg bool, prefix, intDigits, rest string, g int) string {
	return f.numberOutText(neg, prefix, intDigits, floatText{mant: rest}, g)
}

// numberOutText is numberOut with the rest a float's text, whose zeros
// past exactDigits are written once, in the padded result.
func (f fmtSpec) numberOutText(neg bool, prefix, intDigits string, rest floatText, g int) string {
	sign := ""
	switch {
	case neg:
		sign = "-"
	case f.sign == '+':
		sign = "+"
	case f.sign == ' ':
		sign = " "
	}
	head := sign + prefix
	if f.grouping != 0 && g > 0 {
		minw := int64(0)
		if f.fill == "0" && f.align == '=' {
			minw = f.width - int64(len(head)) - int64(strutil.RuneLen(rest.mant)) - int64(rest.zeros) - int64(strutil.RuneLen(rest.tail))
		}
		intDigits = group(intDigits, f.grouping, g, minw)
	}
	if rest.zeros == 0 {
		return f.padTo(head, intDigits+rest.mant+rest.tail, '>')
	}
	n := int64(strutil.RuneLen(head)+strutil.RuneLen(intDigits)) + rest.len()
	out, _ := f.padPieces(head, []piece{{intDigits, 1}, {rest.mant, 1}, {"0", rest.zeros}, {rest.tail, 1}}, n, '>')
	return out
}

func formatIntSpec(n int64, f fmtSpec) string {
	switch f.typ {
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
		return formatFloatSpec(float64(n), f)
	case 0, 'd', 'n', 'b', 'o', 'x', 'X', 'c':
	default:
		valueError("Unknown format code '" + string(f.typ) + "' for object of type 'int'")
	}
	if f.prec >= 0 {
		valueError("Precision not allowed in integer format specifier")
	}
	if f.typ == 'n' && f.grouping != 0 {
		valueError("Cannot specify '" + string(f.grouping) + "' with 'n'.")
	}
	if f.typ == 'c' {
		if f.sign != 0 {
			valueError("Sign not allowed with integer format specifier 'c'")
		}
		if f.alt {
			valueError("Alternate form (#) not allowed with integer format specifier 'c'")
		}
		if n < 0 || n > 0x10FFFF {
			pyErr(errs.Render, "OverflowError", "%c arg not in range(0x110000)")
		}
		return f.padTo("", string(rune(n)), '<')
	}
	u := absU(n)
	base, prefix, g := 10, "", 3
	switch f.typ {
	case 'b':
		base, prefix, g = 2, "0b", 4
	case 'o':
		base, prefix, g = 8, "0o", 4
	case 'x', 'X':
		base, prefix, g = 16, "0x", 4
	}
	digits := strconv.FormatUint(u, base)
	if f.typ == 'X' {
		digits = strings.ToUpper(digits)
		prefix = "0X"
	}
	if !f.alt {
		prefix = ""
	}
	return f.numberOut(n < 0, prefix, digits, "", g)
}

// exactDigits is a precision past which a float64 has no more digits:
// its exact decimal expansion ends within 1,074 digits after the point
// ('f': 2^-1074 has 1,074) and 767 significant digits ('e'). Every digit
// past it is a zero, which strconv computes with its arbitrary-precision
// fallback, slowly and with two copies of the text (a precision of 10^8
// took 2 to 3 s and 200 MB before the budget refused the output); they
// are counted here and written once, where the text is assembled.
const exactDigits = 1100

// floatDigits is strconv.FormatFloat(a, fmt, prec) with the zeros past
// exactDigits counted, not written: the text and how many zeros belong
// at the end of its mantissa.
func floatDigits(a float64, fmt byte, prec int64) (string, int) {
	if prec <= exactDigits {
		return strconv.FormatFloat(a, fmt, int(prec), 64), 0
	}
	return strconv.FormatFloat(a, fmt, exactDigits, 64), int(prec - exactDigits)
}

// floatText is a formatted float: mant, then zeros zeros, then tail (the
// exponent or the '%' sign).
type floatText struct {
	mant  string
	zeros int
	tail  string
}

// split cuts s before its exponent or '%' sign.
func splitFloatText(s string, zeros int) floatText {
	if i := strings.IndexAny(s, "eE%"); i >= 0 {
		return floatText{s[:i], zeros, s[i:]}
	}
	return floatText{s, zeros, ""}
}

// String writes the text out (zeros is 0 but for precisions past
// exactDigits, whose callers assemble the pieces instead).
func (t floatText) String() string {
	if t.zeros == 0 {
		return t.mant + t.tail
	}
	return t.mant + strings.Repeat("0", t.zeros) + t.tail
}

// len is the text's length in bytes (and code points: it is ASCII).
func (t floatText) len() int64 {
	return int64(len(t.mant)) + int64(t.zeros) + int64(len(t.tail))
}

// pyG is Python's 'g' formatting of a finite non-negative float.
func pyG(a float64, prec int64, alt, dot0 bool) floatText {
	if prec == 0 {
		prec = 1
	}
	e, ez := floatDigits(a, 'e', prec-1)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	// With no type (dot0) Python switches to exponent notation one digit
	// earlier: at exp >= prec-1.
	limit := prec
	if dot0 {
		limit = prec - 1
	}
	s, z := e, ez
	if int64(exp) >= -4 && int64(exp) < limit {
		s, z = floatDigits(a, 'f', prec-1-int64(exp))
	}
	t := splitFloatText(s, z)
	if !alt {
		// the zeros past exactDigits are trailing zeros: stripped too
		t.zeros = 0
		if strings.IndexByte(t.mant, '.') >= 0 {
			t.mant = strings.TrimRight(strings.TrimRight(t.mant, "0"), ".")
		}
		if dot0 && t.tail == "" && strings.IndexByte(t.mant, '.') < 0 {
			t.mant += ".0"
		}
	} else if strings.IndexByte(t.mant, '.') < 0 {
		t.mant += "."
	}
	return t
}

// floatBody formats abs(x) for the type (finite values).
func floatBody(a float64, typ byte, prec int64, alt bool) floatText {
	var t floatText
	switch typ {
	case 'f', 'F', '%':
		if typ == '%' {
			a *= 100
		}
		s, z := floatDigits(a, 'f', prec)
		t = floatText{s, z, ""}
		if alt && prec == 0 {
			t.mant += "."
		}
		if typ == '%' {
			t.tail = "%"
		}
	case 'e', 'E':
		s, z := floatDigits(a, 'e', prec)
		t = splitFloatText(s, z)
		if alt && prec == 0 {
			t.mant += "."
		}
		if typ == 'E' {
			t.tail = strings.ToUpper(t.tail)
		}
	case 'g', 'G', 'n':
		t = pyG(a, prec, alt, false)
		if typ == 'G' {
			t.tail = strings.ToUpper(t.tail)
		}
	default: // no type: repr without precision, else 'g' keeping a ".0"
		if prec < 0 {
			t = splitFloatText(strutil.FormatFloat(a), 0)
		} else {
			t = pyG(a, prec, alt, true)
		}
	}
	return t
}

func formatFloatSpec(x float64, f fmtSpec) string {
	switch f.typ {
	case 0, 'e', 'E', 'f', 'F', 'g', 'G', 'n', '%':
	default:
		valueError("Unknown format code '" + string(f.typ) + "' for object of type 'float'")
	}
	if f.typ == 'n' && f.grouping != 0 {
		valueError("Cannot specify '" + string(f.grouping) + "' with 'n'.")
	}
	neg := math.Signbit(x)
	a := math.Abs(x)
	prec := f.prec
	if prec < 0 && f.typ != 0 {
		prec = 6
	}
	var body string
	// '%' multiplies by 100 in floating point first (CPython's
	// format_float_internal), so a large finite value prints as inf
	if math.IsInf(a, 0) || math.IsNaN(a) || f.typ == '%' && math.IsInf(a*100, 0) {
		body = "inf"
		if math.IsNaN(a) {
			body = "nan"
			neg = false
		}
		if f.typ == 'E' || f.typ == 'F' || f.typ == 'G' {
			body = strings.ToUpper(body)
		}
		if f.typ == '%' {
			body += "%"
		}
		return f.numberOut(neg, "", "", body, 0)
	}
	t := floatBody(a, f.typ, prec, f.alt)
	if f.z && neg && !strings.ContainsAny(t.mant, "123456789") {
		neg = false
	}
	i := 0
	for i < len(t.mant) && t.mant[i] >= '0' && t.mant[i] <= '9' {
		i++
	}
	if i == len(t.mant) && t.zeros > 0 {
		// no point: the zeros would be integer digits (never: a precision
		// past exactDigits writes one), so the text is written out
		t = splitFloatText(t.String(), 0)
	}
	return f.numberOutText(neg, "", t.mant[:i], floatText{t.mant[i:], t.zeros, t.tail}, 3)
}
