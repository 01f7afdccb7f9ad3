package builtins

import (
	"encoding/binary"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/ordered"
	"github.com/jinjabox/jinjabox/engine/value"
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
	return classOf(r)&classLower != 0
}

// pyIsUpper is Python's Uppercase property (Lu + Other_Uppercase).
func pyIsUpper(r rune) bool {
	if r < 0x80 {
		return 'A' <= r && r <= 'Z'
	}
	return classOf(r)&classUpper != 0
}

// pyIsTitle is Python's title-case class (Lt).
func pyIsTitle(r rune) bool {
	return classOf(r)&classTitle != 0
}

// pyIsCased is the Cased property.
func pyIsCased(r rune) bool {
	return classOf(r)&(classLower|classUpper|classTitle) != 0
}

// pyIsCaseIgnorable approximates Case_Ignorable (Mn Me Cf Lm Sk plus the
// Word_Break MidLetter/MidNumLet/Single_Quote characters).
func pyIsCaseIgnorable(r rune) bool {
	return classOf(r)&classIgnorable != 0
}

// classOf is the classes of r: the BMP's from runeClass, the others'
// from astralClass. The string case tests read them once a code point.
func classOf(r rune) uint8 {
	if uint32(r) < 0x10000 {
		return runeClass[r]
	}
	return astralClass(r)
}

// caseIgnorables are the code points of Case_Ignorable outside its
// categories; caseIgnorableCats are the categories (no ASCII character
// is Mn, Me, Cf, Lm or Sk).
var (
	caseIgnorables    = []rune{'\'', '.', ':', '^', '`', 0xB7, 0x387, 0x55F, 0x5F4, 0x2018, 0x2019, 0x2024, 0x2027, 0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A}
	caseIgnorableCats = []*unicode.RangeTable{unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk}
)

// The classes of the BMP's code points, a byte each: the case mappings
// ask two or three of them a code point, and title's word split whether
// it is a space, and each was a binary search of a range table (swapcase
// ran 45 ns a code point on text that expands, title 35). Built from the
// same range tables, range by range. Every code point with a case
// mapping is in the BMP, and so is every space.
const (
	classLower uint8 = 1 << iota
	classUpper
	classTitle
	classIgnorable
	classSpace
)

// markCaseClasses sets the case classes of the code points from base to
// base+len(t) in t, range by range from the range tables (runeClass for
// the BMP, astralClasses for plane 1).
func markCaseClasses(t []uint8, base int) {
	end := base + len(t)
	// the code points lo, lo+stride, ... up to hi that fall in the window
	span := func(bit uint8, lo, hi, stride int) {
		if lo < base {
			lo += (base - lo + stride - 1) / stride * stride
		}
		for r := lo; r <= hi && r < end; r += stride {
			t[r-base] |= bit
		}
	}
	mark := func(bit uint8, tabs ...*unicode.RangeTable) {
		for _, tab := range tabs {
			for _, rg := range tab.R16 {
				span(bit, int(rg.Lo), int(rg.Hi), int(rg.Stride))
			}
			for _, rg := range tab.R32 {
				span(bit, int(rg.Lo), int(rg.Hi), int(rg.Stride))
			}
		}
	}
	mark(classLower, unicode.Lower, unicode.Other_Lowercase)
	mark(classUpper, unicode.Upper, unicode.Other_Uppercase)
	mark(classTitle, unicode.Title)
	mark(classIgnorable, caseIgnorableCats...)
}

func buildRuneClass() *[0x10000]uint8 {
	t := new([0x10000]uint8)
	markCaseClasses(t[:], 0)
	for _, r := range caseIgnorables {
		t[r] |= classIgnorable
	}
	for _, rg := range pySpaceRanges {
		for r := rg.lo; r <= rg.hi; r++ {
			t[r] |= classSpace
		}
	}
	return t
}

var runeClass = buildRuneClass()

// astralClasses are the case classes of plane 1 (U+10000 to U+1FFFF:
// Deseret, Osage, the mathematical letters, Adlam, the emoji), built from
// the same range tables on the first astral code point a case test or
// mapping reads: a binary search of two to five tables a code point ran
// 6 ns a byte of emoji for `is lower`, charged a unit a byte (the cost
// search's test:lower SX), and built at init the table would cost every
// process that links the engine. Past plane 1 no code point is cased
// (TestCaseClasses holds every code point to the tables), and the few
// ignorable ones (the tags of plane 14) are searched.
var astralClasses atomic.Pointer[[0x10000]uint8]

func astralClass(r rune) uint8 {
	if uint32(r)-0x10000 >= 0x10000 {
		if unicode.In(r, caseIgnorableCats...) {
			return classIgnorable
		}
		return 0
	}
	t := astralClasses.Load()
	if t == nil {
		t = buildAstralClasses()
		astralClasses.Store(t)
	}
	return t[r-0x10000]
}

func buildAstralClasses() *[0x10000]uint8 {
	t := new([0x10000]uint8)
	markCaseClasses(t[:], 0x10000)
	return t
}

// caseTables are the full case mappings, built on first use (caseTab):
// built at init they were 0.2-0.7 ms of CPU in every process that links
// the engine, before anything ran (a `jinjabox check` of one case paid
// it, issue 29). They are read only where a code point is written, in
// functions that do not inline; reading them costs an atomic load, a
// plain load on amd64 and arm64. runeClass and the simple mappings
// (caseDeltas) stay built at init: the functions that read them a code
// point (simpleUpper, uniSpace, ...) inline, and a lazy read would stop
// them inlining.
type caseTables struct {
	lower, upper, title, fold *fullMap
}

var (
	caseTabOnce sync.Once
	caseTabs    atomic.Pointer[caseTables]
)

// caseTab returns the case tables, building them the first time
// (buildCaseTab, apart so that caseTab inlines).
func caseTab() *caseTables {
	if t := caseTabs.Load(); t != nil {
		return t
	}
	return buildCaseTab()
}

func buildCaseTab() *caseTables {
	caseTabOnce.Do(func() {
		t := &caseTables{}
		t.lower, t.upper = fullMapOf(fullLowerTable()), fullMapOf(fullUpperTable())
		t.title, t.fold = fullMapOf(fullTitleTable()), fullMapOf(fullFoldTable())
		caseTabs.Store(t)
	})
	return caseTabs.Load()
}

// uniSpace is Python's str.isspace for one code point. It inlines, and
// answers ASCII from a bit mask: the comparisons it made before branched
// on every byte, and mixed blanks (" \t \n") mispredicted one branch in
// two (trim ran 2.5 ns a byte).
func uniSpace(r rune) bool {
	if r < 0x80 {
		return asciiSpace(byte(r))
	}
	return uint32(r) < 0x10000 && runeClass[r]&classSpace != 0
}

// asciiSpaceMask has the bits of the ASCII whitespace bytes: \t \n \v
// \f \r, the separators \x1c-\x1f and the space (all below 0x40).
const asciiSpaceMask = 1<<'\t' | 1<<'\n' | 1<<'\v' | 1<<'\f' | 1<<'\r' | 1<<0x1c | 1<<0x1d | 1<<0x1e | 1<<0x1f | 1<<' '

// asciiSpace is uniSpace for a byte below 0x80.
func asciiSpace(b byte) bool { return b < 0x40 && asciiSpaceMask&(uint64(1)<<b) != 0 }

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

// finalSigma reports whether the capital sigma at s[i:i+w] is
// word-final in s: a cased letter before it and none after it
// (case-ignorables skipped).
func finalSigma(s string, i, w int) bool {
	j := i
	var r rune
	for j > 0 {
		var size int
		r, size = utf8.DecodeLastRuneInString(s[:j])
		if !pyIsCaseIgnorable(r) {
			break
		}
		j -= size
	}
	if j == 0 || !pyIsCased(r) {
		return false
	}
	k := i + w
	for k < len(s) {
		var size int
		r, size = utf8.DecodeRuneInString(s[k:])
		if !pyIsCaseIgnorable(r) {
			break
		}
		k += size
	}
	return k == len(s) || !pyIsCased(r)
}

// The case mappings write into a strutil.TextWriter and decode the string
// in place: the writes through a strings.Builder took the collector's
// write barrier a code point, and the []rune copy of the text was 4
// bytes a code point of garbage (swapcase ran 2.5 ns a unit). Each
// writes what Python's full mapping gives; a code point outside the
// full-mapping tables (fullMap, no Go map lookup) takes the
// simple mapping (simpleUpper and kin).

// lowerRune writes the lower case of r, found at s[i:] (s is the
// context of a capital sigma).
func lowerRune(sb *strutil.TextWriter, s string, i int, r rune) {
	if r < utf8.RuneSelf {
		sb.WriteByte(asciiLower(byte(r)))
		return
	}
	if r == 0x3A3 {
		if finalSigma(s, i, utf8.RuneLen(r)) {
			sb.WriteRune(0x3C2)
		} else {
			sb.WriteRune(0x3C3)
		}
		return
	}
	if m, ok := caseTab().lower.lookup(r); ok {
		sb.WriteString(m)
		return
	}
	sb.WriteRune(simpleLower(r))
}

func upperRune(sb *strutil.TextWriter, r rune) {
	if r < utf8.RuneSelf {
		sb.WriteByte(asciiUpper(r))
		return
	}
	if m, ok := caseTab().upper.lookup(r); ok {
		sb.WriteString(m)
		return
	}
	sb.WriteRune(simpleUpper(r))
}

func titleRune(sb *strutil.TextWriter, r rune) {
	if r < utf8.RuneSelf {
		sb.WriteByte(asciiUpper(r))
		return
	}
	if m, ok := caseTab().title.lookup(r); ok {
		sb.WriteString(m)
		return
	}
	sb.WriteRune(simpleTitle(r))
}

// writeLower writes s lower-cased (s is the sigma's context).
func writeLower(sb *strutil.TextWriter, s string) { writeLowerFrom(sb, s, 0) }

// writeLowerFrom writes s[from:] lower-cased, in the context of all of s.
func writeLowerFrom(sb *strutil.TextWriter, s string, from int) {
	for i := from; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			sb.WriteByte(asciiLower(b))
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		lowerRune(sb, s, i, r)
		i += w
	}
}

// The simple (one code point) case mappings of the BMP, from a table:
// unicode.ToUpper and kin search the case ranges, about ten steps, which
// Greek or Cyrillic text paid a code point (title ran 2.5 ns a unit). A
// code point's mappings are a triple of offsets, one of the 173 distinct
// ones the BMP has, by an index a code point. Only a cased code point
// maps (TestCaseClasses holds it), so only those are looked up to build
// it; past the BMP the unicode package answers.
type caseDelta struct{ upper, lower, title int32 }

var caseDeltas, caseDeltaOf = buildCaseDeltas(runeClass)

func buildCaseDeltas(class *[0x10000]uint8) ([]caseDelta, *[0x10000]uint8) {
	deltas := []caseDelta{{}}
	seen := map[caseDelta]uint8{{}: 0}
	idx := new([0x10000]uint8)
	for r := rune(0); r < 0x10000; r++ {
		if class[r]&(classLower|classUpper|classTitle) == 0 { // pyIsCased
			continue
		}
		d := caseDelta{unicode.ToUpper(r) - r, unicode.ToLower(r) - r, unicode.ToTitle(r) - r}
		i, ok := seen[d]
		if !ok {
			if len(deltas) > 0xff {
				panic("builtins: more than 256 distinct case mappings in the BMP")
			}
			i = uint8(len(deltas))
			seen[d] = i
			//scratch:ok init: a case-mapping table, built once from Go's unicode tables (at most 256 entries)
			deltas = append(deltas, d)
		}
		idx[r] = i
	}
	return deltas, idx
}

func simpleUpper(r rune) rune {
	if uint32(r) < 0x10000 {
		return r + caseDeltas[caseDeltaOf[r]].upper
	}
	return unicode.ToUpper(r)
}

func simpleLower(r rune) rune {
	if uint32(r) < 0x10000 {
		return r + caseDeltas[caseDeltaOf[r]].lower
	}
	return unicode.ToLower(r)
}

func simpleTitle(r rune) rune {
	if uint32(r) < 0x10000 {
		return r + caseDeltas[caseDeltaOf[r]].title
	}
	return unicode.ToTitle(r)
}

// fullMap is a full-mapping table (code point to its mapping) read
// without Go's map: a bit a BMP code point says whether it has a
// mapping, and an open-addressed table keyed by the code point holds it
// (a map lookup hashed each code point: half of swapcase's time on text
// that expands). The mappings are one string, each slot's span of it
// packed in a word (its start above its length): the table holds one
// pointer, not one a mapping, for the collector to scan in the host's
// heap (a string a slot, and the generated maps kept beside, were a
// tenth of the engine's live heap of pointers).
type fullMap struct {
	has   [0x10000 / 64]uint64
	keys  []rune   // 0: empty (no code point 0 maps)
	spans []uint32 // start<<8 | length in text
	text  string
	shift uint32
}

func (m *fullMap) lookup(r rune) (string, bool) {
	if uint32(r) >= 0x10000 || m.has[r>>6]&(1<<(r&63)) == 0 {
		return "", false
	}
	mask := uint32(len(m.keys) - 1)
	for j := uint32(r) * 0x9e3779b1 >> m.shift; ; j = (j + 1) & mask {
		if m.keys[j] == r {
			sp := m.spans[j]
			return m.text[sp>>8 : sp>>8+sp&0xff], true
		}
	}
}

func fullMapOf(src map[rune]string) *fullMap {
	m := &fullMap{shift: 32}
	size := 1
	for size < 4*len(src) {
		size *= 2
		m.shift--
	}
	//scratch:ok init: a case-mapping table, built once from a constant map
	m.keys, m.spans = make([]rune, size), make([]uint32, size)
	var text []byte
	for _, r := range ordered.Keys(src) {
		if r <= 0 || r >= 0x10000 {
			panic("builtins: a full case mapping outside the BMP") // the tables have none
		}
		v := src[r]
		if len(v) > 0xff || len(text) >= 1<<24 {
			panic("builtins: a full case mapping past its span") // the longest is 3 code points
		}
		m.has[r>>6] |= 1 << (r & 63)
		j := uint32(r) * 0x9e3779b1 >> m.shift
		for m.keys[j] != 0 {
			j = (j + 1) & uint32(size-1)
		}
		m.keys[j], m.spans[j] = r, uint32(len(text))<<8|uint32(len(v))
		//scratch:ok init: a case-mapping table, built once from a constant map
		text = append(text, v...)
	}
	m.text = string(text)
	return m
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

// asciiLower lower-cases an ASCII byte.
func asciiLower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		b += 'a' - 'A'
	}
	return b
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

// Each mapping writes into a TextWriter of its own, sized for s (a
// mapping that grows, as ß to SS, grows it); the writer stays on the
// stack, which a shared builder taking the mapping as a func value did
// not (it allocated the writer each call).

// asciiShift is strings.ToUpper (lo, hi = 'a', 'z') or strings.ToLower
// ('A', 'Z') of an ASCII s in one pass, s itself when no letter changes;
// ok is false when s is not ASCII (the full mapping's). strings' ASCII
// path scans s twice and writes the result a byte a call. Past the first
// letter to change, eight bytes are mapped at once (shiftWord).
func asciiShift(s string, lo, hi byte) (out string, ok bool) {
	i := 0
	for i < len(s) && (s[i] < lo || s[i] > hi) {
		if s[i] >= utf8.RuneSelf {
			return "", false
		}
		i++
	}
	if i == len(s) {
		return s, true
	}
	var sb strings.Builder
	sb.Grow(len(s))
	sb.WriteString(s[:i])
	// mapped a block at a time on the stack, written a block a call
	var buf [64]byte
	k := 0
	for ; i+8 <= len(s); i += 8 {
		w := strutil.Word(s[i:])
		if w&0x8080808080808080 != 0 {
			return "", false
		}
		binary.LittleEndian.PutUint64(buf[k:], shiftWord(w, lo, hi))
		if k += 8; k == len(buf) {
			sb.Write(buf[:])
			k = 0
		}
	}
	// at most seven bytes left, and room for them: k <= 56
	for ; i < len(s); i, k = i+1, k+1 {
		ch := s[i]
		if ch >= utf8.RuneSelf {
			return "", false
		}
		if lo <= ch && ch <= hi {
			ch ^= 0x20 // the other case of an ASCII letter
		}
		buf[k] = ch
	}
	sb.Write(buf[:k])
	return sb.String(), true
}

// shiftWord flips the case of the bytes of w, eight ASCII bytes, that lie
// in [lo, hi]: adding 0x80-lo to a byte below 0x80 sets its top bit when
// it is at least lo, adding 0x7f-hi when it is above hi, neither carries
// into the next byte, and the top bit moved down two places is 0x20, the
// case bit of an ASCII letter.
func shiftWord(w uint64, lo, hi byte) uint64 {
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	atLeastLo := w + uint64(0x80-lo)*ones
	aboveHi := w + uint64(0x7f-hi)*ones
	return w ^ (atLeastLo&^aboveHi&tops)>>2
}

// caseMapped is the value of out, a case mapping of like's string: its
// code points counted in O(1) when like's were one a byte (ASCII, or
// invalid bytes) and out is as long (ASCII maps to ASCII, and an invalid
// byte grows to U+FFFD's three), else as StringLike counts them.
func caseMapped(like value.Value, out string) value.Value {
	if n := len(like.Str()); len(out) == n && like.RuneCount() == n {
		return value.StringLikeCounted(like, out, n)
	}
	return value.StringLike(like, out)
}

// PyUpper is Python's str.upper.
func PyUpper(s string) string {
	if out, ok := asciiShift(s, 'a', 'z'); ok {
		return out
	}
	var sb strutil.TextWriter
	sb.Grow(len(s))
	for _, r := range s {
		upperRune(&sb, r)
	}
	return sb.String()
}

// PyLower is Python's str.lower.
func PyLower(s string) string {
	if out, ok := asciiShift(s, 'A', 'Z'); ok {
		return out
	}
	var sb strutil.TextWriter
	sb.Grow(len(s))
	writeLower(&sb, s)
	return sb.String()
}

// PyCasefold is Python's str.casefold.
func PyCasefold(s string) string {
	if asciiOnly(s) {
		return strings.ToLower(s)
	}
	var sb strutil.TextWriter
	sb.Grow(len(s))
	for _, r := range s {
		if r < utf8.RuneSelf {
			sb.WriteByte(asciiLower(byte(r)))
		} else if m, ok := caseTab().fold.lookup(r); ok {
			sb.WriteString(m)
		} else if m, ok := caseTab().lower.lookup(r); ok {
			sb.WriteString(m)
		} else {
			sb.WriteRune(simpleLower(r))
		}
	}
	return sb.String()
}

// PyTitle is Python's str.title: a cased character after an uncased one
// starts a word.
func PyTitle(s string) string {
	var sb strutil.TextWriter
	sb.Grow(len(s))
	prevCased := false
	for i, r := range s {
		if prevCased {
			lowerRune(&sb, s, i, r)
		} else {
			titleRune(&sb, r)
		}
		prevCased = pyIsCased(r)
	}
	return sb.String()
}

// PyCapitalize is Python 3.8+'s str.capitalize (title-case first).
func PyCapitalize(s string) string {
	if s == "" {
		return s
	}
	var sb strutil.TextWriter
	sb.Grow(len(s))
	// the rest is lowered in the context of the whole string, as
	// CPython's do_capitalize does (a sigma after the first letter)
	r, w := utf8.DecodeRuneInString(s)
	titleRune(&sb, r)
	writeLowerFrom(&sb, s, w)
	return sb.String()
}

// PySwapcase is Python's str.swapcase.
func PySwapcase(s string) string {
	var sb strutil.TextWriter
	sb.Grow(len(s))
	for i, r := range s {
		switch {
		case pyIsUpper(r):
			lowerRune(&sb, s, i, r)
		case pyIsLower(r):
			upperRune(&sb, r)
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
		switch cl := classOf(r); {
		case cl&(classLower|classTitle) != 0:
			return false
		case cl&classUpper != 0:
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
		switch cl := classOf(r); {
		case cl&(classUpper|classTitle) != 0:
			return false
		case cl&classLower != 0:
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
		switch cl := classOf(r); {
		case cl&(classUpper|classTitle) != 0:
			if prev {
				return false
			}
			prev, cased = true, true
		case cl&classLower != 0:
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
