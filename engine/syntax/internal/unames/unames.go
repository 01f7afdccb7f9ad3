// Package unames resolves the NAME of a \N{NAME} escape in a string
// literal the way Jinja2 does: Jinja2 decodes string literals with
// Python's unicode-escape codec, which looks names up in CPython 3.11's
// Unicode database (unicodedata 14.0.0), so this package carries that
// database's names (names.dat, embedded: the same bytes everywhere, never
// the host's) and computes the names Python computes.
//
// Python's rules, reproduced here (unicodedata.c, _getcode):
//   - a name starting with "HANGUL SYLLABLE " (exactly, upper case) is a
//     syllable whose jamo (L, V, T, matched in turn, each the longest
//     match, upper case only) must make up the rest of the name exactly;
//   - a name starting with "CJK UNIFIED IDEOGRAPH-" (exactly)
//     must end in 4 or 5 upper-case hex digits naming a unified ideograph;
//   - any other name is looked up among the character names and name
//     aliases, ignoring ASCII case (bullet is BULLET); named sequences
//     are not characters and are refused.
package unames

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
)

//go:embed names.dat
var namesDat []byte

// MaxLen bounds a name worth looking up: no name Python resolves is
// longer (the longest in 14.0.0 has 88 bytes; computed names have at most
// 27). Lookup refuses longer names without reading them.
const MaxLen = 128

// table is the decoded names.dat: names sorted (byte order of their
// upper-case form, which they are), each with its code point.
type table struct {
	blob  string   // the names, concatenated in sorted order
	off   []uint32 // name i is blob[off[i]:off[i+1]]
	codes []rune
	cjk   [][2]rune // ranges named CJK UNIFIED IDEOGRAPH-XXXX
}

var (
	once sync.Once
	tab  *table
)

// load decodes names.dat once per process. It takes about 20 ms of CPU
// (BenchmarkDecode: 4.7 MB allocated on the way) and keeps 1.1 MiB live
// (TestTableSize), only in processes that meet a \N{...} escape: a
// fixed cost a process, not a render's, so no budget pays it.
func load() *table {
	once.Do(func() {
		t, err := decode(namesDat)
		if err != nil {
			panic("unames: corrupt names.dat: " + err.Error())
		}
		tab = t
	})
	return tab
}

type bad string

func (b bad) Error() string { return string(b) }

// raw returns names.dat uncompressed (gen.py --raw prints the same).
func raw(dat []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(dat))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

func decode(dat []byte) (*table, error) {
	text, err := raw(dat)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	if len(lines) < 3 || lines[0] != "unicodedata 14.0.0" || !strings.HasPrefix(lines[1], "cjk ") {
		return nil, bad("bad header")
	}
	t := &table{}
	for _, f := range strings.Fields(lines[1])[1:] {
		a, b, ok := strings.Cut(f, "-")
		lo, err1 := strconv.ParseUint(a, 16, 32)
		hi, err2 := strconv.ParseUint(b, 16, 32)
		if !ok || err1 != nil || err2 != nil {
			return nil, bad("bad cjk range " + f)
		}
		t.cjk = append(t.cjk, [2]rune{rune(lo), rune(hi)})
	}
	count := func(i int, what string) (int, error) {
		if i >= len(lines) || !strings.HasPrefix(lines[i], what+" ") {
			return 0, bad("missing " + what)
		}
		n, err := strconv.Atoi(lines[i][len(what)+1:])
		if err != nil || n < 0 || i+1+n > len(lines) {
			return 0, bad("bad " + what + " count")
		}
		return n, nil
	}
	n, err := count(2, "names")
	if err != nil {
		return nil, err
	}
	type entry struct {
		name string
		code rune
	}
	entries := make([]entry, 0, n+512)
	prevName, prev := "", rune(-1)
	for _, l := range lines[3 : 3+n] {
		if l == "" || l[0] < 0x20 || int(l[0]-0x20) > len(prevName) {
			return nil, bad("bad name line")
		}
		k := int(l[0] - 0x20)
		rest, gap, hasGap := strings.Cut(l[1:], "\t")
		code := prev + 1
		if hasGap {
			g, err := strconv.ParseUint(gap, 16, 32)
			if err != nil {
				return nil, bad("bad gap")
			}
			code += rune(g)
		}
		name := prevName[:k] + rest
		entries = append(entries, entry{name, code})
		prevName, prev = name, code
	}
	i := 3 + n
	na, err := count(i, "aliases")
	if err != nil {
		return nil, err
	}
	for _, l := range lines[i+1 : i+1+na] {
		name, h, ok := strings.Cut(l, "\t")
		c, err := strconv.ParseUint(h, 16, 32)
		if !ok || err != nil {
			return nil, bad("bad alias line")
		}
		entries = append(entries, entry{name, rune(c)})
	}
	if i+1+na != len(lines) {
		return nil, bad("trailing lines")
	}
	sort.Slice(entries, func(a, b int) bool { return entries[a].name < entries[b].name })
	size := 0
	for k, e := range entries {
		if len(e.name) == 0 || len(e.name) > MaxLen || (k > 0 && entries[k-1].name == e.name) {
			return nil, bad("bad or duplicate name " + e.name)
		}
		for j := 0; j < len(e.name); j++ {
			if c := e.name[j]; c >= 'a' && c <= 'z' || c >= 0x80 {
				return nil, bad("name not upper-case ASCII: " + e.name)
			}
		}
		size += len(e.name)
	}
	var blob strings.Builder
	blob.Grow(size)
	t.off = make([]uint32, 0, len(entries)+1)
	t.codes = make([]rune, 0, len(entries))
	for _, e := range entries {
		t.off = append(t.off, uint32(blob.Len()))
		blob.WriteString(e.name)
		t.codes = append(t.codes, e.code)
	}
	t.off = append(t.off, uint32(blob.Len()))
	t.blob = blob.String()
	return t, nil
}

// Lookup returns the character named name, as Python's unicode-escape
// codec resolves \N{name}. It does not allocate; its work is bounded by
// MaxLen whatever the length of name.
func Lookup(name string) (rune, bool) {
	if len(name) > MaxLen || len(name) == 0 {
		return 0, false
	}
	// the computed names' prefixes match as written, upper case: Python
	// 3.11 compares them with strncmp ("hangul syllable GA" and "cjk
	// unified ideograph-3410" are unknown names, as the table does not
	// hold them)
	if strings.HasPrefix(name, hangulPrefix) {
		return hangul(name[len(hangulPrefix):])
	}
	if strings.HasPrefix(name, cjkPrefix) {
		return load().unified(name[len(cjkPrefix):])
	}
	var buf [MaxLen]byte
	key := buf[:len(name)]
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		key[i] = c
	}
	t := load()
	lo, hi := 0, len(t.codes)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if compare(t.blob[t.off[m]:t.off[m+1]], key) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(t.codes) && compare(t.blob[t.off[lo]:t.off[lo+1]], key) == 0 {
		return t.codes[lo], true
	}
	return 0, false
}

// compare is strings.Compare(s, string(b)) without converting b.
func compare(s string, b []byte) int {
	n := min(len(s), len(b))
	for i := 0; i < n; i++ {
		if s[i] != b[i] {
			if s[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return len(s) - len(b)
}

const (
	hangulPrefix = "HANGUL SYLLABLE "
	cjkPrefix    = "CJK UNIFIED IDEOGRAPH-"
)

// unified resolves the hex digits after "CJK UNIFIED IDEOGRAPH-": 4 or 5
// of them, upper case, naming a code point of a unified ideograph range.
func (t *table) unified(h string) (rune, bool) {
	if len(h) != 4 && len(h) != 5 {
		return 0, false
	}
	var v rune
	for i := 0; i < len(h); i++ {
		c := h[i]
		switch {
		case c >= '0' && c <= '9':
			v = v*16 + rune(c-'0')
		case c >= 'A' && c <= 'F':
			v = v*16 + rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	for _, r := range t.cjk {
		if r[0] <= v && v <= r[1] {
			return v, true
		}
	}
	return 0, false
}

// The jamo short names of Hangul syllable names (Unicode 3.12, fixed
// since Unicode 2.0), in CPython's order.
var (
	jamoL = []string{"G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS", "", "J", "JJ", "C", "K", "T", "P", "H"}
	jamoV = []string{"A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA", "WAE", "OE", "YO", "U", "WEO", "WE", "WI", "YU", "EU", "YI", "I"}
	jamoT = []string{"", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG", "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S", "SS", "NG", "J", "C", "K", "T", "P", "H"}
)

// findJamo is CPython's find_syllable: the index of the longest entry of
// list that s starts with (the first of equal lengths), and its length;
// -1 and 0 when none does.
func findJamo(s string, list []string) (int, int) {
	pos, n := -1, -1
	for i, j := range list {
		if len(j) > n && strings.HasPrefix(s, j) {
			pos, n = i, len(j)
		}
	}
	if n < 0 {
		n = 0
	}
	return pos, n
}

func hangul(s string) (rune, bool) {
	l, n := findJamo(s, jamoL)
	s = s[n:]
	v, n := findJamo(s, jamoV)
	s = s[n:]
	t, n := findJamo(s, jamoT)
	s = s[n:]
	if l < 0 || v < 0 || t < 0 || s != "" {
		return 0, false
	}
	return 0xAC00 + rune((l*len(jamoV)+v)*len(jamoT)+t), true
}
