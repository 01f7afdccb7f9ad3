package strutil

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
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

// RuneLen counts what utf8.RuneCountInString counts, whatever the length
// and wherever the first non-ASCII byte (or an invalid one) falls in the
// thirty-two-, sixteen- and eight-byte steps and the tail.
func TestRuneLen(t *testing.T) {
	for n := 0; n <= 80; n++ {
		ascii := strings.Repeat("a", n)
		if got := RuneLen(ascii); got != n {
			t.Errorf("RuneLen(%d ASCII bytes) = %d", n, got)
		}
		for at := 0; at <= n; at++ {
			for _, ins := range []string{"é", "\u20ac", "\U0001F600", "\xff", "\xe2\x82"} {
				s := ascii[:at] + ins + ascii[at:]
				if got, want := RuneLen(s), utf8.RuneCountInString(s); got != want {
					t.Errorf("RuneLen(%q) = %d, want %d", s, got, want)
				}
			}
		}
	}
}
