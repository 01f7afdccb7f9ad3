package value

import (
	"cmp"
	"math"
	"strconv"
	"strings"
)

// Numbers as Python has them: an int and a float compare exactly (never
// by converting the int to a float, which rounds 2^53+1 to 2^53), float
// floor division and modulo come from fmod, and a decimal literal of any
// length parses to the correctly rounded float.

// numCompare orders two numbers (int, bool or float) exactly: -1, 0, 1,
// or 2 when a NaN makes them unordered.
func numCompare(a, b *Value) int {
	if a.k != Float && b.k != Float {
		return cmp.Compare(a.n, b.n)
	}
	if a.k == Float && b.k == Float {
		return cmpFloat(a.Float(), b.Float())
	}
	if a.k == Float {
		r := intFloatCompare(b.n, a.Float())
		if r == 2 {
			return 2
		}
		return -r
	}
	return intFloatCompare(a.n, b.Float())
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	case x == y:
		return 0
	}
	return 2
}

// intFloatCompare compares i with f exactly, as CPython's float_richcompare
// does: f's integral part against i, then f's fraction breaks the tie.
func intFloatCompare(i int64, f float64) int {
	switch {
	case math.IsNaN(f):
		return 2
	case f >= 1<<63:
		return -1
	case f < -(1 << 63):
		return 1
	}
	t := math.Trunc(f) // exact, and within int64
	if r := cmp.Compare(i, int64(t)); r != 0 {
		return r
	}
	return cmpFloat(0, f-t) // f-t is exact: the fraction's sign decides
}

// floatFloorDiv is Python's float a // b for b != 0 (float_floor_div:
// the quotient of a - fmod(a, b), floored and corrected by the fraction),
// so 7.0 // 0.1 is 69.0 and inf // 1 is nan.
func floatFloorDiv(x, y float64) float64 {
	mod := math.Mod(x, y)
	div := (x - mod) / y
	if mod != 0 && (y < 0) != (mod < 0) {
		div -= 1.0
	}
	if div == 0 {
		return math.Copysign(0, x/y)
	}
	fl := math.Floor(div)
	if div-fl > 0.5 {
		fl += 1.0
	}
	return fl
}

// floatMod is Python's float a % b for b != 0: fmod, moved to the sign of
// the divisor.
func floatMod(x, y float64) float64 {
	m := math.Mod(x, y)
	if m != 0 {
		if (m < 0) != (y < 0) {
			m += y
		}
		return m
	}
	return math.Copysign(0, y)
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
