package builtins

import (
	"strings"
	"unicode"
)

// Python's str case mapping and character classes. Python maps case with
// the full (SpecialCasing) mappings and the Final_Sigma rule; Go's unicode
// package gives the simple ones, so the multi-code-point mappings come from
// the generated tables in strcase_tables.go.

type runeRange struct{ lo, hi rune }

func inRanges(rs []runeRange, r rune) bool {
	_, ok := rangeOf(rs, r)
	return ok
}

// rangeOf returns the first code point of the range of rs holding r.
func rangeOf(rs []runeRange, r rune) (rune, bool) {
	lo, hi := 0, len(rs)
	for lo < hi {
		m := (lo + hi) / 2
		switch {
		case r < rs[m].lo:
			hi = m
		case r > rs[m].hi:
			lo = m + 1
		default:
			return rs[m].lo, true
		}
	}
	return 0, false
}

// pyIsLower is Python's Lowercase property (Ll + Other_Lowercase).
func pyIsLower(r rune) bool {
	if r < 0x80 {
		return 'a' <= r && r <= 'z'
	}
	return unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r)
}

// pyIsUpper is Python's Uppercase property (Lu + Other_Uppercase).
func pyIsUpper(r rune) bool {
	if r < 0x80 {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r)
}

// pyIsTitle is Python's title-case class (Lt).
func pyIsTitle(r rune) bool { return r >= 0x80 && unicode.IsTitle(r) }

// pyIsCased is the Cased property.
func pyIsCased(r rune) bool { return pyIsLower(r) || pyIsUpper(r) || pyIsTitle(r) }

// pyIsCaseIgnorable approximates Case_Ignorable (Mn Me Cf Lm Sk plus the
// Word_Break MidLetter/MidNumLet/Single_Quote characters).
func pyIsCaseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '^', '`', 0xB7, 0x387, 0x55F, 0x5F4, 0x2018, 0x2019, 0x2024, 0x2027, 0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	// no other ASCII character is Mn, Me, Cf, Lm or Sk
	return r >= 0x80 && unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

func uniSpace(r rune) bool {
	if r < 0x80 {
		return r == ' ' || (r >= 0x09 && r <= 0x0d) || (r >= 0x1c && r <= 0x1f)
	}
	return inRanges(pySpaceRanges, r)
}

// The character classes answer ASCII without a table search: the digits
// are the only ASCII decimals, digits and numerics, the letters the only
// alphabetics (wordcount and the predicates ran 4 to 5 ns a byte).
func pyIsDecimal(r rune) bool { return asciiDigit(r) || r >= 0x80 && inRanges(pyDecimalRanges, r) }
func pyIsDigit(r rune) bool   { return asciiDigit(r) || r >= 0x80 && inRanges(pyDigitRanges, r) }
func pyIsNumeric(r rune) bool { return asciiDigit(r) || r >= 0x80 && inRanges(pyNumericRanges, r) }
func pyIsAlpha(r rune) bool {
	if r < 0x80 {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r)
}
func pyIsAlnum(r rune) bool { return pyIsAlpha(r) || pyIsNumeric(r) }

func asciiDigit(r rune) bool { return '0' <= r && r <= '9' }

// pyIsPrintable: everything but the C* and Z* categories, except space.
func pyIsPrintable(r rune) bool { return r == ' ' || unicode.IsPrint(r) }

// finalSigma reports whether the capital sigma at rs[i] is word-final: a
// cased letter before it and none after it (case-ignorables skipped).
func finalSigma(rs []rune, i int) bool {
	j := i - 1
	for j >= 0 && pyIsCaseIgnorable(rs[j]) {
		j--
	}
	if j < 0 || !pyIsCased(rs[j]) {
		return false
	}
	k := i + 1
	for k < len(rs) && pyIsCaseIgnorable(rs[k]) {
		k++
	}
	return k == len(rs) || !pyIsCased(rs[k])
}

func writeLower(sb *strings.Builder, rs []rune, i int) {
	r := rs[i]
	if r < 0x80 {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		sb.WriteByte(byte(r))
		return
	}
	if r == 0x3A3 {
		if finalSigma(rs, i) {
			sb.WriteRune(0x3C2)
		} else {
			sb.WriteRune(0x3C3)
		}
		return
	}
	if s, ok := fullLower[r]; ok {
		sb.WriteString(s)
		return
	}
	sb.WriteRune(unicode.ToLower(r))
}

func writeUpper(sb *strings.Builder, r rune) {
	if r < 0x80 {
		sb.WriteByte(asciiUpper(r))
		return
	}
	if s, ok := fullUpper[r]; ok {
		sb.WriteString(s)
		return
	}
	sb.WriteRune(unicode.ToUpper(r))
}

func writeTitle(sb *strings.Builder, r rune) {
	if r < 0x80 {
		sb.WriteByte(asciiUpper(r))
		return
	}
	if s, ok := fullTitle[r]; ok {
		sb.WriteString(s)
		return
	}
	sb.WriteRune(unicode.ToTitle(r))
}

// asciiUpper upper- (and title-) cases an ASCII code point. The ASCII fast
// paths of the case functions skip the Unicode tables and the full-mapping
// maps (a map lookup a code point made mixed text cost up to 30 ns a byte).
func asciiUpper(r rune) byte {
	if 'a' <= r && r <= 'z' {
		r -= 'a' - 'A'
	}
	return byte(r)
}

// asciiOnly reports whether s has only ASCII bytes (the fast paths).
func asciiOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// caseCost is what a full case mapping charges a byte of its input, before
// it maps. A code point may grow to three bytes (U+0390 upper is three code
// points of two bytes each), and one outside ASCII costs table lookups: the
// calibration measured up to 11 ns and 10 allocated bytes a byte for title,
// capitalize and lower on such text (the code points and the growing
// result), so the 3 a byte charged before ran 2 to 5 times over the
// ceiling of docs/COSTS.md.
const caseCost = 8

// PyUpper is Python's str.upper.
func PyUpper(s string) string {
	if asciiOnly(s) {
		return strings.ToUpper(s)
	}
	var sb strings.Builder
	sb.Grow(len(s))
	for _, r := range s {
		writeUpper(&sb, r)
	}
	return sb.String()
}

// PyLower is Python's str.lower.
func PyLower(s string) string {
	if asciiOnly(s) {
		return strings.ToLower(s)
	}
	rs := []rune(s)
	var sb strings.Builder
	sb.Grow(len(s))
	for i := range rs {
		writeLower(&sb, rs, i)
	}
	return sb.String()
}

// PyCasefold is Python's str.casefold.
func PyCasefold(s string) string {
	if asciiOnly(s) {
		return strings.ToLower(s)
	}
	var sb strings.Builder
	sb.Grow(len(s))
	for _, r := range s {
		if f, ok := fullFold[r]; ok {
			sb.WriteString(f)
		} else if l, ok := fullLower[r]; ok {
			sb.WriteString(l)
		} else {
			sb.WriteRune(unicode.ToLower(r))
		}
	}
	return sb.String()
}

// PyTitle is Python's str.title: a cased character after an uncased one
// starts a word.
func PyTitle(s string) string {
	rs := []rune(s)
	var sb strings.Builder
	sb.Grow(len(s))
	prevCased := false
	for i, r := range rs {
		if prevCased {
			writeLower(&sb, rs, i)
		} else {
			writeTitle(&sb, r)
		}
		prevCased = pyIsCased(r)
	}
	return sb.String()
}

// PyCapitalize is Python 3.8+'s str.capitalize (title-case first).
func PyCapitalize(s string) string {
	rs := []rune(s)
	var sb strings.Builder
	sb.Grow(len(s))
	for i, r := range rs {
		if i == 0 {
			writeTitle(&sb, r)
		} else {
			writeLower(&sb, rs, i)
		}
	}
	return sb.String()
}

// PySwapcase is Python's str.swapcase.
func PySwapcase(s string) string {
	rs := []rune(s)
	var sb strings.Builder
	sb.Grow(len(s))
	for i, r := range rs {
		switch {
		case pyIsUpper(r):
			writeLower(&sb, rs, i)
		case pyIsLower(r):
			writeUpper(&sb, r)
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

func pyIsUpperStr(s string) bool {
	if asciiOnly(s) {
		// no table, no decoding: a call a code point ran 2.6 ns a byte
		return asciiCased(s, 'A', 'a')
	}
	cased := false
	for _, r := range s {
		if pyIsLower(r) || pyIsTitle(r) {
			return false
		}
		if pyIsUpper(r) {
			cased = true
		}
	}
	return cased
}

func pyIsLowerStr(s string) bool {
	if asciiOnly(s) {
		return asciiCased(s, 'a', 'A')
	}
	cased := false
	for _, r := range s {
		if pyIsUpper(r) || pyIsTitle(r) {
			return false
		}
		if pyIsLower(r) {
			cased = true
		}
	}
	return cased
}

// asciiCased is isupper (want 'A', refuse 'a') or islower (want 'a',
// refuse 'A') of an ASCII string: no letter of the refused case, and one
// of the wanted case at least.
func asciiCased(s string, want, refuse byte) bool {
	cased := false
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case refuse <= b && b <= refuse+25:
			return false
		case want <= b && b <= want+25:
			cased = true
		}
	}
	return cased
}

func pyIsTitleStr(s string) bool {
	cased, prev := false, false
	for _, r := range s {
		switch {
		case pyIsUpper(r) || pyIsTitle(r):
			if prev {
				return false
			}
			prev, cased = true, true
		case pyIsLower(r):
			if !prev {
				return false
			}
			prev, cased = true, true
		default:
			prev = false
		}
	}
	return cased
}

func pyIsIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		start := r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r)
		if i == 0 && !start {
			return false
		}
		if !start && !unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc) {
			return false
		}
	}
	return true
}

// allRunes reports whether s is non-empty and every code point satisfies f.
func allRunes(s string, f func(rune) bool) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !f(r) {
			return false
		}
	}
	return true
}
