package builtins

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/engine/value"
)

// TestCaseClasses holds the table of code-point classes to the range
// tables it is built from, over every code point, and holds the property
// the case mappings rely on to skip Go's case tables: only an upper or
// title code point has a lower mapping, only a lower or title one an
// upper mapping, only a cased one a title mapping (a Unicode upgrade that
// broke it would change what lower, upper and title write).
func TestCaseClasses(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		lower := unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r)
		upper := unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r)
		title := unicode.IsTitle(r)
		ign := unicode.In(r, caseIgnorableCats...)
		for _, x := range caseIgnorables {
			ign = ign || r == x
		}
		switch {
		case pyIsLower(r) != lower, pyIsUpper(r) != upper, pyIsTitle(r) != title:
			t.Errorf("%U: lower %v upper %v title %v, the tables say %v %v %v", r, pyIsLower(r), pyIsUpper(r), pyIsTitle(r), lower, upper, title)
		case classOf(r)&classLower != 0 != lower, classOf(r)&classUpper != 0 != upper, classOf(r)&classTitle != 0 != title:
			// the string case tests read classOf once a code point
			t.Errorf("%U: classOf %08b, the tables say lower %v upper %v title %v", r, classOf(r), lower, upper, title)
		case pyIsCased(r) != (lower || upper || title):
			t.Errorf("%U: cased %v", r, pyIsCased(r))
		case pyIsCaseIgnorable(r) != ign:
			t.Errorf("%U: case-ignorable %v, want %v", r, pyIsCaseIgnorable(r), ign)
		case uniSpace(r) != inRanges(pySpaceRanges, r):
			t.Errorf("%U: space %v", r, uniSpace(r))
		case unicode.ToLower(r) != r && !upper && !title:
			t.Errorf("%U lowers to %U but is neither upper nor title", r, unicode.ToLower(r))
		case unicode.ToUpper(r) != r && !lower && !title:
			t.Errorf("%U uppers to %U but is neither lower nor title", r, unicode.ToUpper(r))
		case unicode.ToTitle(r) != r && !lower && !upper && !title:
			t.Errorf("%U title-cases to %U but is not cased", r, unicode.ToTitle(r))
		}
	}
	for r := range fullLowerTable() {
		if !pyIsUpper(r) && !pyIsTitle(r) {
			t.Errorf("%U has a full lower mapping but is neither upper nor title", r)
		}
	}
}

// TestSimpleCaseTable holds the table of simple case mappings to Go's
// over every code point.
func TestSimpleCaseTable(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if simpleUpper(r) != unicode.ToUpper(r) || simpleLower(r) != unicode.ToLower(r) || simpleTitle(r) != unicode.ToTitle(r) {
			t.Errorf("%U: %U %U %U, want %U %U %U", r, simpleUpper(r), simpleLower(r), simpleTitle(r), unicode.ToUpper(r), unicode.ToLower(r), unicode.ToTitle(r))
		}
	}
}

// TestFullMaps holds the full-mapping tables' lookups to the generated
// maps over every code point.
func TestFullMaps(t *testing.T) {
	for _, tab := range []struct {
		m   map[rune]string
		got *fullMap
	}{{fullLowerTable(), caseTab().lower}, {fullUpperTable(), caseTab().upper}, {fullTitleTable(), caseTab().title}, {fullFoldTable(), caseTab().fold}} {
		for r := rune(0); r <= unicode.MaxRune; r++ {
			want, wok := tab.m[r]
			got, ok := tab.got.lookup(r)
			if ok != wok || got != want {
				t.Errorf("%U: %q %v, want %q %v", r, got, ok, want, wok)
			}
		}
	}
}

// asciiShift maps an ASCII string as strings.ToUpper and ToLower do, at
// every position of the first letter to change, and hands any other
// string to the full mapping; caseMapped's O(1) count is the count of
// what it returns, invalid bytes included.
func TestASCIIShiftAndCount(t *testing.T) {
	// every ASCII byte, so a word's mapping meets each edge of each range
	// ('@', 'A', 'Z', '[', '`', 'a', 'z', '{', DEL) at every offset
	var ab []byte
	for c := range 128 {
		ab = append(ab, byte(c))
	}
	allASCII := string(ab) + "x" + string(ab)
	var inputs []string
	for _, base := range []string{"", "a", "Z", "abc", "ABC", "a1-B2_c", "hello, World! 42", "no-change 123", "MiXeD cAsE tExT", strings.Repeat("aB-", 50), allASCII} {
		inputs = append(inputs, base)
		for i := 0; i <= len(base); i++ {
			for _, ins := range []string{"é", "\xff", "ß", "\u0130", "q", "Q"} {
				inputs = append(inputs, base[:i]+ins+base[i:])
			}
		}
	}
	for _, s := range inputs {
		ascii := true
		for i := 0; i < len(s); i++ {
			ascii = ascii && s[i] < utf8.RuneSelf
		}
		for _, c := range []struct {
			lo, hi byte
			std    func(string) string
			py     func(string) string
		}{{'a', 'z', strings.ToUpper, PyUpper}, {'A', 'Z', strings.ToLower, PyLower}} {
			out, ok := asciiShift(s, c.lo, c.hi)
			if ok != ascii || (ok && out != c.std(s)) {
				t.Errorf("asciiShift(%q, %c) = %q, %v; strings gives %q", s, c.lo, out, ok, c.std(s))
			}
			like := value.FromString(s)
			got := caseMapped(like, c.py(s))
			if got.RuneCount() != utf8.RuneCountInString(got.Str()) || got.Str() != c.py(s) {
				t.Errorf("caseMapped of %q: %q counted %d, has %d", s, got.Str(), got.RuneCount(), utf8.RuneCountInString(got.Str()))
			}
		}
	}
}
