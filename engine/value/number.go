package value

import (
	"cmp"
	"math"
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
