package value

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestParseFloat: any length of mantissa or exponent parses to the
// correctly rounded float (Python's results); bad syntax is refused.
func TestParseFloat(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"1.5", 1.5, true},
		{"-0.0", math.Copysign(0, -1), true},
		{strings.Repeat("1", 100010) + "e-100000", 1111111111.1111112, true},
		{"0." + strings.Repeat("0", 100000) + "1e100001", 1, true},
		{"-" + strings.Repeat("9", 1000) + "e-1000", -1, true},
		{strings.Repeat("0", 1000) + "123.5", 123.5, true},
		{"1e-99999999999999999", 0, true},
		{"1e99999999999999999", math.Inf(1), true},
		{"0." + strings.Repeat("0", 400) + "e1000", 0, true},
		// halfway between two floats: the 801st digit decides (sticky)
		{"9007199254740993" + strings.Repeat("0", 900) + "1e-901", 9007199254740994, true},
		{"9007199254740993" + strings.Repeat("0", 900) + "e-900", 9007199254740992, true},
		{"0x1p3", 0, false},
		{"inf", 0, false},
		{"1.2.3" + strings.Repeat("0", 100), 0, false},
		{strings.Repeat("1", 100) + "e", 0, false},
		{strings.Repeat("1", 100) + "x", 0, false},
	} {
		got, ok := ParseFloat(c.in)
		if ok != c.ok || ok && (got != c.want || math.Signbit(got) != math.Signbit(c.want)) {
			t.Errorf("ParseFloat(%.40q) = %v %v, want %v %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestNumCompareExact: an int and a float compare exactly at the edges
// of float precision and of the int64 range.
func TestNumCompareExact(t *testing.T) {
	for _, c := range []struct {
		i    int64
		f    float64
		want int
	}{
		{1<<53 + 1, 1 << 53, 1},
		{1 << 53, 1 << 53, 0},
		{math.MaxInt64, math.Exp2(63), -1},
		{math.MinInt64, -math.Exp2(63), 0},
		{math.MinInt64, math.Nextafter(-math.Exp2(63), math.Inf(-1)), 1},
		{2, 2.5, -1},
		{-2, -2.5, 1},
		{0, math.NaN(), 2},
		{0, math.Inf(-1), 1},
	} {
		i, f := FromInt(c.i), FromFloat(c.f)
		if got := numCompare(&i, &f); got != c.want {
			t.Errorf("%d vs %s: %d, want %d", c.i, strconv.FormatFloat(c.f, 'g', -1, 64), got, c.want)
		}
		if c.want != 2 {
			if got := numCompare(&f, &i); got != -c.want {
				t.Errorf("%s vs %d: %d, want %d", strconv.FormatFloat(c.f, 'g', -1, 64), c.i, got, -c.want)
			}
		}
	}
}

// FuzzParseFloat: on decimal text whose exponent strconv reads in full
// (under 10,000), ParseFloat agrees with strconv.ParseFloat bit for bit,
// mantissas of any length included; it never accepts what strconv
// refuses as syntax.
func FuzzParseFloat(f *testing.F) {
	for _, s := range []string{"1.5", "0.1", "123456789012345678901234567890e-10", "9007199254740993", "1e308", "4.9e-324", "2.4703282292062328e-324", ".5", "5.", "-0", "1e-400"} {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, s string, pad uint8) {
		// pad the mantissa with zeros past the 800 digits kept
		if i := strings.IndexAny(s, "eE"); pad > 0 && i > 0 && strings.Contains(s[:i], ".") {
			s = s[:i] + strings.Repeat("0", int(pad)*8) + s[i:]
		}
		want, err := strconv.ParseFloat(s, 64)
		got, ok := ParseFloat(s)
		if err != nil && !isRange(err) {
			if ok && decimalChars(s) {
				t.Fatalf("ParseFloat(%q) accepted what strconv refuses: %v", s, err)
			}
			return
		}
		if !decimalChars(s) {
			return
		}
		if i := strings.IndexAny(s, "eE"); i >= 0 && len(strings.TrimLeft(s[i+1:], "+-0")) > 4 {
			return // strconv caps the exponent it reads
		}
		if !ok || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("ParseFloat(%q) = %v %v, strconv %v", s, got, ok, want)
		}
	})
}
