package builtins

import (
	"math"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/policy"
)

// Printf-style formatting, Python's str % args. Each conversion is charged
// its estimated size (width and precision included) before it is built, so
// '%999999999d' % 1 is a budget error, not an allocation. A Markup format
// escapes its arguments (markupsafe's _MarkupEscapeHelper).

// Mod is Python's a % b: printf-style formatting when a is a string,
// value.Mod (floor modulo) otherwise. The evaluator's % and the
// divisibleby test call it; the formatting is the built-ins', so the
// value model calls no hook to reach it.
func Mod(c value.Ctx, a, b value.Value) value.Value {
	if a.Kind() == value.String {
		return PercentFormat(c, a, b)
	}
	return value.Mod(c, a, b)
}

// PercentFormat implements format % args.
func PercentFormat(c value.Ctx, format value.Value, args value.Value) value.Value {
	s := scanRecv(c, "string formatting", format, 1)
	markup := format.IsSafe()
	var list []value.Value
	var dict value.Value
	hasDict := false
	switch args.Kind() {
	case value.Tuple:
		list = args.Items()
	case value.Dict, value.List, value.Undefined:
		// Python treats anything with __getitem__ (but not a str or tuple)
		// as a possible mapping for %(name)s; it is also the one argument.
		list, dict, hasDict = []value.Value{args}, args, true
	default:
		list = []value.Value{args}
	}
	argi := 0
	var keyArg [1]value.Value // a key's value, the one argument left
	next := func() value.Value {
		if argi >= len(list) {
			typeError("not enough arguments for format string")
		}
		argi++
		return list[argi-1]
	}
	var parts pieces
	i := 0
	for i < len(s) {
		j := strings.IndexByte(s[i:], '%')
		if j < 0 {
			parts.add(s[i:])
			break
		}
		parts.add(s[i : i+j])
		i += j + 1
		if i >= len(s) {
			valueError("incomplete format")
		}
		if s[i] == '(' {
			depth, k := 1, i+1
			for k < len(s) && depth > 0 {
				switch s[k] {
				case '(':
					depth++
				case ')':
					depth--
				}
				k++
			}
			if depth > 0 {
				valueError("incomplete format key")
			}
			if !hasDict {
				typeError("format requires a mapping")
			}
			// CPython's unicode_format_arg_parse: the key's value
			// becomes the one argument left, read by the next '*' or
			// the conversion, so '%(a)s %s' % {'a': 1} has no argument
			// for its %s and '%(a)*d' none for its d
			keyArg[0] = percentKey(c, dict, s[i+1:k-1])
			list, argi = keyArg[:], 0
			i = k
		}
		var spec pctSpec
		spec.c = c
		spec.prec = -1
	flags:
		for i < len(s) {
			switch s[i] {
			case '-':
				spec.left = true
			case '+':
				spec.plus = true
			case ' ':
				spec.space = true
			case '#':
				spec.alt = true
			case '0':
				spec.zero = true
			default:
				break flags
			}
			i++
		}
		if i < len(s) && s[i] == '*' {
			w := next()
			if w.Kind() != value.Int && w.Kind() != value.Bool {
				typeError("* wants int")
			}
			spec.width = w.Int()
			if spec.width < 0 {
				spec.left, spec.width = true, -spec.width
			}
			i++
		} else {
			spec.width, i = readDigits(s, i)
		}
		if i < len(s) && s[i] == '.' {
			i++
			if i < len(s) && s[i] == '*' {
				p := next()
				if p.Kind() != value.Int && p.Kind() != value.Bool {
					typeError("* wants int")
				}
				// CPython reads a '*' precision as a C int
				// (_PyLong_AsInt in unicode_format_arg_parse)
				if p.Int() > math.MaxInt32 || p.Int() < math.MinInt32 {
					pyErr(errs.Render, "OverflowError", "Python int too large to convert to C int")
				}
				spec.prec = max(p.Int(), 0)
				i++
			} else {
				spec.prec, i = readDigits(s, i)
			}
		}
		for i < len(s) && (s[i] == 'h' || s[i] == 'l' || s[i] == 'L') {
			i++
		}
		if i >= len(s) {
			valueError("incomplete format")
		}
		conv := s[i]
		i++
		if conv == '%' {
			parts.add("%")
			continue
		}
		v := next()
		parts.addCounted(percentOne(c, conv, v, spec, markup, i-1))
	}
	if argi < len(list) && !hasDict {
		typeError("not all arguments converted during string formatting")
	}
	return value.StringLikeCounted(format, parts.join(), parts.runes)
}

func readDigits(s string, i int) (int64, int) {
	n := int64(0)
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if n < maxSpecNumber {
			n = n*10 + int64(s[i]-'0')
		}
		i++
	}
	return n, i
}

// percentKey reads %(key)s from the mapping; a private key the mapping does
// not hold goes to the chokepoint (P1/P2), as format_map does.
func percentKey(c value.Ctx, m value.Value, key string) value.Value {
	switch m.Kind() {
	case value.Dict:
		if v, ok := m.DictData().Get(value.FromString(key)); ok {
			return v
		}
		if policy.IsPrivateName(key) {
			c.Item(m, value.FromString(key))
		}
		pyErr(errs.Render, "KeyError", "'"+errs.Bound(key)+"'")
	case value.Undefined:
		vops.ThrowUndefined(m)
	}
	typeError(m.TypeName() + " indices must be integers or slices, not str")
	return value.Value{}
}

type pctSpec struct {
	left, plus, space, alt, zero bool
	width, prec                  int64
	// c is the render, polled while a wide field is padded (padJoin)
	c value.Ctx
}

// percentOne formats one conversion; it returns its length in code
// points too (a string argument knows its own).
func percentOne(c value.Ctx, conv byte, v value.Value, sp pctSpec, markup bool, at int) (string, int64) {
	if v.IsUndefined() && c.Strict() {
		vops.ThrowUndefined(v)
	}
	fill := budget.Mul(sp.width, 1)
	switch conv {
	case 's', 'r', 'a':
		base := value.Size(v, c.Meter().Left())
		if conv != 's' {
			base = budget.Mul(base, 2)
		}
		if markup {
			base = budget.Mul(base, budget.EscapeFactor)
		}
		c.Charge(max(fill, base), "string formatting")
		var t string
		n := int64(-1) // not known yet
		switch {
		case conv == 's' && markup:
			e := value.EscapeIn(c, v)
			t, n = e.Str(), int64(e.RuneCount())
		case conv == 's' && v.IsString():
			t, n = v.Str(), int64(v.RuneCount())
		case conv == 's':
			t = value.StrIn(c, v)
		case conv == 'r' && markup:
			t = value.EscapeHTML(value.ReprIn(c, v))
		case conv == 'r':
			t = value.ReprIn(c, v)
		default:
			t = asciiRepr(value.ReprIn(c, v))
			if markup {
				t = value.EscapeHTML(t)
			}
		}
		if n < 0 {
			n = int64(strutil.RuneLen(t))
		}
		if sp.prec >= 0 && n > sp.prec {
			t, n = t[:cpOffset(t, sp.prec)], sp.prec
		}
		return sp.pad("", t, n, false)
	case 'c':
		c.Charge(max(fill, 8), "string formatting")
		var t string
		switch {
		case v.Kind() == value.Int || v.Kind() == value.Bool:
			if v.Int() < 0 || v.Int() > 0x10FFFF {
				pyErr(errs.Render, "OverflowError", "%c arg not in range(0x110000)")
			}
			t = string(rune(v.Int()))
		case v.IsString() && strutil.RuneLen(v.Str()) == 1 && !markup:
			t = v.Str()
		default:
			typeError("%c requires int or char")
		}
		return sp.pad("", t, 1, false)
	case 'd', 'i', 'u', 'o', 'x', 'X':
		c.Charge(max(fill, budget.Add(80, max(sp.prec, 0))), "string formatting")
		n := percentInt(c, conv, v)
		base, prefix := 10, ""
		switch conv {
		case 'o':
			base, prefix = 8, "0o"
		case 'x':
			base, prefix = 16, "0x"
		case 'X':
			base, prefix = 16, "0X"
		}
		digits := strconv.FormatUint(absU(n), base)
		if conv == 'X' {
			digits = strings.ToUpper(digits)
		}
		if int64(len(digits)) < sp.prec {
			digits = strings.Repeat("0", int(sp.prec)-len(digits)) + digits
		}
		if !sp.alt {
			prefix = ""
		}
		head := sp.sign(n < 0) + prefix
		return sp.pad(head, digits, int64(len(head)+len(digits)), true) // ASCII
	case 'e', 'E', 'f', 'F', 'g', 'G':
		prec := sp.prec
		if prec < 0 {
			prec = 6
		}
		c.Charge(max(fill, budget.Add(330, prec)), "string formatting")
		var x float64
		switch v.Kind() {
		case value.Int, value.Bool, value.Float:
			x = v.Float()
		case value.Undefined:
			vops.ThrowUndefined(v) // float(v): Undefined's __float__ raises
		default:
			typeError("must be real number, not " + v.TypeName())
		}
		a := math.Abs(x)
		var t floatText
		neg := math.Signbit(x)
		switch {
		case math.IsNaN(x):
			t.mant, neg = "nan", false
		case math.IsInf(x, 0):
			t.mant = "inf"
		default:
			t = floatBody(a, conv, prec, sp.alt)
		}
		if (conv == 'F' || conv == 'E' || conv == 'G') && (math.IsNaN(x) || math.IsInf(x, 0)) {
			t.mant = strings.ToUpper(t.mant)
		}
		head := sp.sign(neg)
		if t.zeros > 0 {
			return sp.padPieces(head, []piece{{t.mant, 1}, {"0", t.zeros}, {t.tail, 1}}, int64(len(head))+t.len(), true)
		}
		body := t.mant + t.tail
		return sp.pad(head, body, int64(len(head)+len(body)), true) // ASCII
	}
	valueError("unsupported format character '" + string(rune(conv)) + "' (0x" + strconv.FormatInt(int64(conv), 16) + ") at index " + strconv.Itoa(at))
	return "", 0
}

func percentInt(c value.Ctx, conv byte, v value.Value) int64 {
	switch v.Kind() {
	case value.Int, value.Bool:
		return v.Int()
	case value.Float:
		if conv == 'o' || conv == 'x' || conv == 'X' {
			typeError("%" + string(conv) + " format: an integer is required, not float")
		}
		f := v.Float()
		if math.IsNaN(f) {
			valueError("cannot convert float NaN to integer")
		}
		if math.IsInf(f, 0) {
			pyErr(errs.Render, "OverflowError", "cannot convert float infinity to integer")
		}
		t := math.Trunc(f)
		if t >= 9.223372036854775807e18 || t < -9.223372036854775808e18 {
			errs.Raise(c.Meter().Overflow("%d formatting"))
		}
		return int64(t)
	}
	if conv == 'o' || conv == 'x' || conv == 'X' {
		typeError("%" + string(conv) + " format: an integer is required, not " + v.TypeName())
	}
	if v.Kind() == value.Undefined {
		vops.ThrowUndefined(v) // %d calls int(v): Undefined's __int__ raises
	}
	typeError("%" + string(conv) + " format: a real number is required, not " + v.TypeName())
	return 0
}

func (sp pctSpec) sign(neg bool) string {
	switch {
	case neg:
		return "-"
	case sp.plus:
		return "+"
	case sp.space:
		return " "
	}
	return ""
}

// pad right-justifies head and body, of n code points, to width with
// spaces ('-': left-justify; '0' on a number: zeros between the
// sign/prefix and the digits); it returns the result's count too.
// padPieces is pad for a body in pieces (a float's zeros past
// exactDigits), joined once with the padding.
func (sp pctSpec) padPieces(head string, body []piece, n int64, number bool) (string, int64) {
	with := func(before piece, mid piece, after piece) string {
		//scratch:ok at most four pieces of a float's text, each a string header
		ps := append(append([]piece{before, {head, 1}, mid}, body...), after)
		return padJoin(sp.c, ps...)
	}
	if sp.width <= n {
		return with(piece{}, piece{}, piece{}), n
	}
	p := int(sp.width - n)
	switch {
	case sp.left:
		return with(piece{}, piece{}, piece{" ", p}), sp.width
	case sp.zero && number:
		return with(piece{}, piece{"0", p}, piece{}), sp.width
	}
	return with(piece{" ", p}, piece{}, piece{}), sp.width
}

func (sp pctSpec) pad(head, body string, n int64, number bool) (string, int64) {
	if sp.width <= n {
		return head + body, n
	}
	p := int(sp.width - n)
	switch {
	case sp.left:
		return padJoin(sp.c, piece{head, 1}, piece{body, 1}, piece{" ", p}), sp.width
	case sp.zero && number:
		return padJoin(sp.c, piece{head, 1}, piece{"0", p}, piece{body, 1}), sp.width
	}
	return padJoin(sp.c, piece{" ", p}, piece{head, 1}, piece{body, 1}), sp.width
}
