package builtins

import (
	"testing"
	"unicode"
)

// TestAstralClassesAsTables holds the astral case classes to the range
// tables they stand for, on every code point past the BMP: plane 1 read
// from astralClasses, the planes past it from no class but the ignorable
// (no cased code point lies past plane 1).
func TestAstralClassesAsTables(t *testing.T) {
	for r := rune(0x10000); r <= unicode.MaxRune; r++ {
		lower := unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r)
		upper := unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r)
		title := unicode.IsTitle(r)
		ign := unicode.In(r, caseIgnorableCats...)
		if pyIsLower(r) != lower || pyIsUpper(r) != upper || pyIsTitle(r) != title || pyIsCaseIgnorable(r) != ign || pyIsCased(r) != (lower || upper || title) {
			t.Fatalf("U+%X: lower %v/%v upper %v/%v title %v/%v ignorable %v/%v", r, pyIsLower(r), lower, pyIsUpper(r), upper, pyIsTitle(r), title, pyIsCaseIgnorable(r), ign)
		}
	}
	// classOf, which the case tests of a string read, agrees with the
	// three predicates on every code point
	for r := rune(0); r <= unicode.MaxRune; r++ {
		cl := classOf(r)
		if cl&classLower != 0 != pyIsLower(r) || cl&classUpper != 0 != pyIsUpper(r) || cl&classTitle != 0 != pyIsTitle(r) {
			t.Fatalf("U+%X: classOf %08b against lower %v upper %v title %v", r, cl, pyIsLower(r), pyIsUpper(r), pyIsTitle(r))
		}
	}
}
