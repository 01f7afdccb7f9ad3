package value

import (
	"math"
	"math/big"
	"sync"
)

// Python's float ** float is C's pow, which glibc computes correctly
// rounded in practice (its error bound is 0.52 ulp); Go's math.Pow is off
// by an ulp or more on many inputs (65536 ** 1.5 is 16777215.999999996).
// floatPow computes x ** y in extended precision instead (math/big at
// powPrec bits: an error of about 2**-180 before the one rounding to
// float64), so it rounds as glibc does except where the exact power lies
// within that error of the midpoint between two floats, which is
// vanishingly rare. It is a fixed amount of work whatever the inputs
// (powUnits charges it).

// powPrec is the working precision in bits.
const powPrec = 192

// powUnits is what one float power costs the budget: floatPow is about
// 15-25 µs of arithmetic on math/big (BenchmarkFloatPow), charged at the
// budget's 1.86 ns a unit ceiling with room.
const powUnits = 16384

// floatPow is x ** y for the operands Pow has checked: not both zero with
// y negative, and x not negative with a fractional y.
func floatPow(x, y float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0),
		x == 0 || y == 0 || x == 1 || y == 1:
		return math.Pow(x, y) // exact by IEEE's rules for these
	}
	neg := false
	if x < 0 {
		// y is an integer here: the sign is its parity's
		neg = math.Mod(y, 2) != 0
		x = -x
	}
	var r float64
	if y == math.Trunc(y) && math.Abs(y) <= 64 {
		r = intPow(x, int(y))
	} else {
		r = expLn(x, y)
	}
	if neg {
		r = -r
	}
	return r
}

// intPow is x ** n for an integer |n| <= 64, exact before its one
// rounding: x ** |n| as a product of enough bits, then its reciprocal at
// powPrec bits when n is negative.
func intPow(x float64, n int) float64 {
	m := n
	if m < 0 {
		m = -m
	}
	p := new(big.Float).SetPrec(uint(53*m + 64)).SetFloat64(1)
	bx := new(big.Float).SetFloat64(x)
	for range m {
		p.Mul(p, bx)
	}
	if n < 0 {
		p = new(big.Float).SetPrec(powPrec).Quo(new(big.Float).SetPrec(powPrec).SetFloat64(1), p)
	}
	f, _ := p.Float64()
	return f
}

// expLn is exp(y * ln(x)) for x > 0, at powPrec bits.
func expLn(x, y float64) float64 {
	l := bigLn(x)
	t := l.Mul(l, new(big.Float).SetPrec(powPrec).SetFloat64(y))
	f, _ := bigExp(t).Float64()
	return f
}

var (
	ln2Once sync.Once
	ln2     *big.Float
)

// bigLn2 is ln 2 at powPrec bits: 2 atanh(1/3).
func bigLn2() *big.Float {
	ln2Once.Do(func() {
		z := new(big.Float).SetPrec(powPrec).Quo(big.NewFloat(1).SetPrec(powPrec), big.NewFloat(3).SetPrec(powPrec))
		ln2 = atanhSeries(z)
		ln2.Mul(ln2, big.NewFloat(2))
	})
	return ln2
}

// atanhSeries is atanh(z) = z + z^3/3 + z^5/5 + ... for |z| < 1/2,
// summed until a term no longer moves the sum.
func atanhSeries(z *big.Float) *big.Float {
	sum := new(big.Float).SetPrec(powPrec).Set(z)
	z2 := new(big.Float).SetPrec(powPrec).Mul(z, z)
	pow := new(big.Float).SetPrec(powPrec).Set(z)
	term := new(big.Float).SetPrec(powPrec)
	for k := int64(3); k < 400; k += 2 {
		pow.Mul(pow, z2)
		term.Quo(pow, new(big.Float).SetInt64(k))
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -powPrec-8 {
			break
		}
		sum.Add(sum, term)
	}
	return sum
}

// bigLn is ln(x) for a finite x > 0: x = m * 2**e with m in
// [1/sqrt2, sqrt2), ln(x) = e ln 2 + 2 atanh((m-1)/(m+1)).
func bigLn(x float64) *big.Float {
	frac, e := math.Frexp(x) // frac in [0.5, 1)
	if frac < math.Sqrt2/2 {
		frac *= 2
		e--
	}
	m := new(big.Float).SetPrec(powPrec).SetFloat64(frac)
	one := new(big.Float).SetPrec(powPrec).SetFloat64(1)
	num := new(big.Float).SetPrec(powPrec).Sub(m, one)
	den := new(big.Float).SetPrec(powPrec).Add(m, one)
	s := atanhSeries(num.Quo(num, den))
	s.Mul(s, big.NewFloat(2))
	return s.Add(s, new(big.Float).SetPrec(powPrec).Mul(bigLn2(), new(big.Float).SetInt64(int64(e))))
}

// bigExp is exp(t): t = k ln 2 + r with |r| <= ln2/2, exp(r) as
// exp(r/1024) ** 1024 (ten squarings of a short Taylor sum), times 2**k.
// Beyond float64's range it returns an infinity or zero.
func bigExp(t *big.Float) *big.Float {
	tf, _ := t.Float64()
	if tf > 1100 {
		return new(big.Float).SetInf(false)
	}
	if tf < -1200 {
		return new(big.Float).SetPrec(powPrec)
	}
	k := math.Round(tf / math.Ln2)
	r := new(big.Float).SetPrec(powPrec).Mul(bigLn2(), new(big.Float).SetFloat64(k))
	r.Sub(t, r)
	r.SetMantExp(r, -10)
	sum := new(big.Float).SetPrec(powPrec).SetFloat64(1)
	term := new(big.Float).SetPrec(powPrec).SetFloat64(1)
	for n := int64(1); n < 60; n++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetInt64(n))
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -powPrec-8 {
			break
		}
		sum.Add(sum, term)
	}
	for range 10 {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(k))
}
