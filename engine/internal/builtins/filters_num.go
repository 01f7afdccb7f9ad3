package builtins

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/value"
)

// Number filters: abs, int, float, round, filesizeformat. Integers stay
// within 64 bits (P6): a wider result is a budget error.

func init() {
	regFilter(fAbs, "abs")
	regFilter(fInt, "int")
	regFilter(fFloat, "float")
	regFilter(fRound, "round")
	regFilter(fFilesizeformat, "filesizeformat")
}

func overflowErr(c value.Ctx, op string) {
	errs.Raise(c.Meter().Overflow(op))
}

func fAbs(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "abs")
	switch v.Kind() {
	case value.Int, value.Bool:
		n := v.Int()
		if n == math.MinInt64 {
			overflowErr(c, "integer abs")
		}
		if n < 0 {
			n = -n
		}
		return value.FromInt(n)
	case value.Float:
		return value.FromFloat(math.Abs(v.Float()))
	}
	errs.Throwf(errs.Type, "bad operand type for abs(): %s", errs.Quote(v.TypeName()))
	return value.Value{}
}

// pyParseFloat is Python's float(str): surrounding whitespace, a sign,
// digits with single underscores between them, inf/infinity/nan.
func pyParseFloat(c value.Ctx, op, s string) (float64, bool) {
	s, ok := asciiDigits(c, op, pyStrip(c, s, nil, true, true))
	if !ok {
		return 0, false
	}
	body := s
	neg := false
	if body != "" && (body[0] == '+' || body[0] == '-') {
		neg = body[0] == '-'
		body = body[1:]
	}
	switch len(body) {
	case len("inf"), len("infinity"): // and len("nan")
		body = strings.ToLower(body) // only a word this short can name one
	}
	switch body {
	case "inf", "infinity":
		if neg {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	case "nan":
		return math.NaN(), true
	}
	// validate: digits[.digits][e[sign]digits] with _ only between digits
	//scratch:ok at most the bytes of s, which pyStrip and asciiDigits charged just before
	clean := make([]byte, 0, min(len(s), 64)) // grows with what is valid
	if neg {
		clean = append(clean, '-')
	}
	i, n := 0, len(body)
	digits := func() int {
		start := i
		for i < n {
			ch := body[i]
			if ch >= '0' && ch <= '9' {
				//scratch:ok at most the bytes of s, which pyStrip and asciiDigits charged just before
				clean = append(clean, ch)
				i++
				continue
			}
			if ch == '_' && i > start && i+1 < n && body[i+1] >= '0' && body[i+1] <= '9' && body[i-1] != '_' {
				i++
				continue
			}
			break
		}
		return i - start
	}
	mant := digits()
	if i < n && body[i] == '.' {
		clean = append(clean, '.')
		i++
		mant += digits()
	}
	if mant == 0 {
		return 0, false
	}
	if i < n && (body[i] == 'e' || body[i] == 'E') {
		clean = append(clean, 'e')
		i++
		if i < n && (body[i] == '+' || body[i] == '-') {
			clean = append(clean, body[i])
			i++
		}
		if digits() == 0 {
			return 0, false
		}
	}
	if i != n {
		return 0, false
	}
	if len(clean) > 64 {
		// a long number is read again digit by digit (ParseFloat's
		// normalising pass): 4 ns a byte where its caller charged 1
		c.Charge(budget.Mul(int64(len(clean)), numberCost), op)
	}
	return strutil.ParseFloat(string(clean))
}

// numberCost is charged a byte of a long number's digits before they are
// parsed and of a number with non-ASCII digits before they are mapped,
// over the byte its caller charged for reading it.
const numberCost = 4

// pyParseInt is Python's int(str, base). ok is false for a ValueError;
// wide is true when the digits are valid but exceed 64 bits.
func pyParseInt(c value.Ctx, op, s string, base int64) (n int64, ok, wide bool) {
	if base != 0 && (base < 2 || base > 36) {
		return 0, false, false
	}
	s, ok = asciiDigits(c, op, pyStrip(c, s, nil, true, true))
	if !ok {
		return 0, false, false
	}
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	prefixed := false
	if len(s) >= 2 && s[0] == '0' {
		p := s[1] | 0x20
		pb := map[byte]int64{'x': 16, 'o': 8, 'b': 2}[p]
		if pb != 0 && (base == 0 || base == pb) {
			base = pb
			s = s[2:]
			prefixed = true
		}
	}
	if base == 0 {
		base = 10
		// base 0 refuses leading zeros on a non-zero decimal
		if len(s) > 1 && s[0] == '0' && strings.Trim(s, "0_") != "" {
			return 0, false, false
		}
	}
	if s == "" {
		return 0, false, false
	}
	var acc uint64
	limit := uint64(math.MaxInt64)
	if neg {
		limit++
	}
	prevUnderscore := !prefixed // a leading underscore is only valid after a prefix
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch == '_' {
			if prevUnderscore || i == len(s)-1 {
				return 0, false, false
			}
			prevUnderscore = true
			continue
		}
		prevUnderscore = false
		var d int64
		switch {
		case ch >= '0' && ch <= '9':
			d = int64(ch - '0')
		case ch >= 'a' && ch <= 'z':
			d = int64(ch-'a') + 10
		case ch >= 'A' && ch <= 'Z':
			d = int64(ch-'A') + 10
		default:
			return 0, false, false
		}
		if d >= base {
			return 0, false, false
		}
		if !wide {
			if acc > (limit-uint64(d))/uint64(base) {
				wide = true
			} else {
				acc = acc*uint64(base) + uint64(d)
			}
		}
	}
	if wide {
		return 0, true, true
	}
	if neg {
		return -int64(acc), true, false
	}
	return int64(acc), true, false
}

// asciiDigits maps Python's decimal digits to ASCII, as its int() and
// float() accept them. ok is false at the first code point that is
// neither ASCII nor a decimal digit: no number holds one, so a long text
// is refused there (mapping all of it, then lower-casing it, ran 13 to
// 18 ns a unit). The decimal ranges come in runs of ten starting at zero
// (gen_class_tables.py), so a digit's value is its offset in its range.
func asciiDigits(c value.Ctx, op, s string) (string, bool) {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return s, true
	}
	var run runeRange         // the last digit's run: digits of one script skip the search
	for _, r := range s[i:] { // checked before anything is allocated
		if r >= utf8.RuneSelf {
			if _, ok := decimalDigit(r, &run); !ok {
				return "", false
			}
		}
	}
	c.Charge(budget.Mul(int64(len(s)), numberCost), op)
	var sb strings.Builder
	sb.Grow(len(s))
	sb.WriteString(s[:i])
	for _, r := range s[i:] {
		if r < utf8.RuneSelf {
			sb.WriteByte(byte(r))
			continue
		}
		d, _ := decimalDigit(r, &run)
		sb.WriteByte(d)
	}
	return sb.String(), true
}

// decimalDigit is the ASCII digit of the decimal digit r, looked up in
// *run first and in the decimal table when r is outside it (*run then
// becomes r's run of ten).
func decimalDigit(r rune, run *runeRange) (byte, bool) {
	if r < run.lo || r > run.hi {
		zero, ok := rangeOf(pyDecimalRanges, r)
		if !ok {
			return 0, false
		}
		lo := zero + (r-zero)/10*10
		*run = runeRange{lo, lo + 9}
	}
	return byte('0' + r - run.lo), true
}

// floatToInt is Python's int(float) within 64 bits.
func floatToInt(c value.Ctx, f float64) (int64, bool) {
	if math.IsNaN(f) {
		return 0, false // ValueError
	}
	if math.IsInf(f, 0) {
		errs.Throw(errs.Render, "cannot convert float infinity to integer")
	}
	t := math.Trunc(f)
	if t >= 9223372036854775808.0 || t < -9223372036854775808.0 {
		overflowErr(c, "int()")
	}
	return int64(t), true
}

// fInt is Jinja's do_int: int(value[, base]), else int(float(value)),
// else the default.
func fInt(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_int", "default", "base")
	dflt := value.FromInt(0)
	if !a[0].IsMissing() {
		dflt = a[0]
	}
	base := int64(10)
	if !a[1].IsMissing() {
		if a[1].Kind() != value.Int && a[1].Kind() != value.Bool {
			errs.Throwf(errs.Type, "%s object cannot be interpreted as an integer", errs.Quote(a[1].TypeName()))
		}
		base = a[1].Int()
	}
	switch v.Kind() {
	case value.Undefined:
		vops.ThrowUndefined(v)
	case value.Int, value.Bool:
		return value.FromInt(v.Int())
	case value.Float:
		if n, ok := floatToInt(c, v.Float()); ok {
			return value.FromInt(n)
		}
		return dflt
	case value.String:
		c.Charge(int64(len(v.Str())), "filter int")
		n, ok, wide := pyParseInt(c, "filter int", v.Str(), base)
		if wide {
			overflowErr(c, "int()")
		}
		if ok {
			return value.FromInt(n)
		}
		if f, ok := pyParseFloat(c, "filter int", v.Str()); ok {
			if n, ok := floatToInt(c, f); ok {
				return value.FromInt(n)
			}
		}
	}
	return dflt
}

func fFloat(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_float", "default")
	dflt := value.FromFloat(0)
	if !a[0].IsMissing() {
		dflt = a[0]
	}
	switch v.Kind() {
	case value.Undefined:
		vops.ThrowUndefined(v)
	case value.Int, value.Bool, value.Float:
		return value.FromFloat(v.Float())
	case value.String:
		c.Charge(int64(len(v.Str())), "filter float")
		if f, ok := pyParseFloat(c, "filter float", v.Str()); ok {
			return value.FromFloat(f)
		}
	}
	return dflt
}

var pow10 = [...]int64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

// roundInt is Python's round(int, ndigits) for ndigits < 0: half to even.
func roundInt(c value.Ctx, n, nd int64) int64 {
	if nd >= 0 {
		return n
	}
	if nd < -int64(len(pow10)) {
		return 0 // |n| < 10**20 / 2 rounds to 0 at that scale
	}
	if nd == -int64(len(pow10)) {
		// the multiple of 10**19 nearest n: 0 up to 5*10**18 (a tie goes
		// to the even 0), else +-10**19, past 64 bits (P6)
		if n > 5e18 || n < -5e18 {
			overflowErr(c, "round()")
		}
		return 0
	}
	p := pow10[-nd]
	q, r := n/p, n%p
	if r < 0 {
		q--
		r += p
	}
	if 2*r > p || (2*r == p && q%2 != 0) {
		q++
	}
	return vops.MulInt(c, q, p)
}

// roundFloat is Python's round(float, ndigits): the exact binary value
// rounded half to even in decimal, as CPython's dtoa-based float_round.
func roundFloat(x float64, nd int64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) || x == 0 || nd > 323 {
		return x
	}
	if nd < -308 {
		return 0 * x
	}
	if nd >= 0 {
		f, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', int(nd), 64), 64)
		return f
	}
	e := strconv.FormatFloat(x, 'e', -1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	keep := int64(exp) + 1 + nd
	switch {
	case keep > 0:
		f, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'e', int(keep-1), 64), 64)
		return f
	case keep == 0:
		unit := math.Pow(10, float64(-nd))
		if math.Abs(x) > unit/2 {
			return math.Copysign(unit, x)
		}
	}
	return 0 * x
}

// fRound is Jinja's do_round: common rounding through Python's round(),
// ceil/floor through value * 10**precision.
func fRound(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_round", "precision", "method")
	noPrec := a[0].IsNone() // round(x, None) is round(x): an int
	prec := int64(0)
	if !noPrec {
		prec = argInt("round", a[0], 0)
	}
	method := "common"
	if !a[1].IsMissing() {
		method = pyStr(c, a[1])
	}
	if method != "common" && method != "ceil" && method != "floor" {
		errs.Throw(errs.Render, "method must be common, ceil or floor")
	}
	if v.IsUndefined() {
		if method != "common" {
			vops.ThrowUndefined(v) // value * 10**precision
		}
		errs.Throwf(errs.Type, "type Undefined doesn't define __round__ method")
	}
	if !v.IsNumber() {
		errs.Throwf(errs.Type, "type %s doesn't define __round__ method", v.TypeName())
	}
	if noPrec {
		if method != "common" {
			errs.Throw(errs.Type, "unsupported operand type(s) for ** or pow(): 'int' and 'NoneType'")
		}
		if v.Kind() != value.Float {
			return value.FromInt(v.Int())
		}
		n, _ := floatToInt(c, roundFloat(v.Float(), 0))
		return value.FromInt(n)
	}
	if method == "common" {
		if v.Kind() != value.Float {
			return value.FromInt(roundInt(c, v.Int(), prec))
		}
		r := roundFloat(v.Float(), prec)
		if math.IsInf(r, 0) && !math.IsInf(v.Float(), 0) {
			errs.Throw(errs.Render, "rounded value too large to represent")
		}
		return value.FromFloat(r)
	}
	fn := math.Ceil
	if method == "floor" {
		fn = math.Floor
	}
	scale := math.Pow(10, float64(prec))
	if prec >= 0 && v.Kind() != value.Float {
		// int * 10**p is exact in Python; the quotient rounds once
		return value.FromFloat(float64(v.Int()))
	}
	r := fn(v.Float() * scale)
	if math.IsInf(r, 0) {
		errs.Throw(errs.Render, "cannot convert float infinity to integer")
	}
	if math.IsNaN(r) {
		errs.Throw(errs.Render, "cannot convert float NaN to integer")
	}
	// math.ceil and math.floor return ints: there is no negative zero
	return value.FromFloat(r/scale + 0)
}

// pyFormat1f is Python's format(x, ".1f").
func pyFormat1f(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	case math.IsNaN(x):
		return "nan"
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// fFilesizeformat is Jinja's do_filesizeformat.
func fFilesizeformat(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_filesizeformat", "binary")
	binary := argBool(a[0], false)
	var b float64
	switch v.Kind() {
	case value.Undefined:
		vops.ThrowUndefined(v)
	case value.Int, value.Bool, value.Float:
		b = v.Float()
	case value.String:
		c.Charge(int64(len(v.Str())), "filter filesizeformat")
		f, ok := pyParseFloat(c, "filter filesizeformat", v.Str())
		if !ok {
			errs.Throwf(errs.Type, "could not convert string to float: %s", errs.Quote(v.Str()))
		}
		b = f
	default:
		errs.Throwf(errs.Type, "float() argument must be a string or a real number, not %s", errs.Quote(v.TypeName()))
	}
	base := 1000.0
	prefixes := []string{"kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"}
	if binary {
		base = 1024
		prefixes = []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"}
	}
	c.Charge(budget.Elem, "filter filesizeformat")
	if b == 1 {
		return value.FromString("1 Byte")
	}
	if b < base {
		n, ok := floatToInt(c, b)
		if !ok {
			errs.Throw(errs.Render, "cannot convert float NaN to integer")
		}
		return value.FromString(strconv.FormatInt(n, 10) + " Bytes")
	}
	unit := base
	for i, p := range prefixes {
		unit = math.Pow(base, float64(i+2))
		if b < unit || i == len(prefixes)-1 {
			return value.FromString(pyFormat1f(base*b/unit) + " " + p)
		}
	}
	return value.Value{}
}
