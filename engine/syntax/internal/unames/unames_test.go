package unames

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// python returns /usr/bin/python3 when it is CPython 3.11 with
// unicodedata 14.0.0 (the database names.dat is made from), else skips.
func python(t testing.TB) string {
	const py = "/usr/bin/python3"
	out, err := exec.Command(py, "-c", "import sys, unicodedata; print('%d.%d %s' % (sys.version_info[0], sys.version_info[1], unicodedata.unidata_version))").Output()
	if err != nil || strings.TrimSpace(string(out)) != "3.11 14.0.0" {
		t.Skipf("needs %s 3.11 with unicodedata 14.0.0: %v %s", py, err, out)
	}
	return py
}

// TestTableMatchesGenerator: the embedded names.dat is what gen.py makes
// from Python's own database today.
func TestTableMatchesGenerator(t *testing.T) {
	py := python(t)
	want, err := exec.Command(py, "gen.py", "--raw").Output()
	if err != nil {
		t.Fatal(err)
	}
	got, err := raw(namesDat)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("names.dat differs from gen.py's output (%d against %d bytes): go generate ./engine/syntax/internal/unames", len(got), len(want))
	}
}

// TestLookupAgainstPython: Lookup resolves every name Python's
// unicode-escape codec resolves and refuses what it refuses, on every
// 7th named character, every name alias and named sequence, computed
// names (CJK ideographs of each range, Hangul syllables), lower-case and
// mixed-case spellings, names with extra or missing spaces, unknown and
// over-long names.
func TestLookupAgainstPython(t *testing.T) {
	py := python(t)
	// Python lists the candidates and decodes each one; the Go side
	// decodes the same list.
	script := `
import json, sys, unicodedata
names = []
for cp in range(0, 0x110000, 7):
    n = unicodedata.name(chr(cp), None)
    if n:
        names += [n, n.lower(), n.title(), n.replace(" ", "  "), n.replace(" ", "")]
for cp in (0x3400, 0x4DBF, 0x4E00, 0x9FFF, 0x20000, 0x2A6DF, 0x2A700, 0x30000, 0x3134A, 0x4DC0, 0xAC00, 0xD7A3, 0xAC01, 0xB098):
    n = unicodedata.name(chr(cp), None)
    if n:
        names += [n, n.lower()]
names += ["CJK UNIFIED IDEOGRAPH-4e00", "CJK UNIFIED IDEOGRAPH-04E00", "CJK UNIFIED IDEOGRAPH-9FFF0", "CJK UNIFIED IDEOGRAPH-", "HANGUL SYLLABLE", "HANGUL SYLLABLE G", "HANGUL SYLLABLE GGGA", "hangul syllable ga", "HANGUL SYLLABLE gA"]
names += ["LATIN CAPITAL LETTER GHA", "latin capital letter gha", "BYTE ORDER MARK", "BOM", "NBSP", "LATIN CAPITAL LETTER A WITH MACRON AND GRAVE", "KEYCAP NUMBER SIGN", "NOPE", "", " BULLET", "BULLET ", "X" * 200, "A" * 88]
for line in sys.stdin:
    names.append(line.rstrip("\n"))
for n in names:
    try:
        r = ("\\N{" + n + "}").encode("ascii", "backslashreplace").decode("unicode-escape")
    except Exception:
        r = None
    print(json.dumps([n, r]))
`
	cmd := exec.Command(py, "-c", script)
	// the aliases and named sequences, from gen.py's own reading of them
	seqs, err := exec.Command(py, "gen.py", "--named-sequences").Output()
	if err != nil {
		t.Fatal(err)
	}
	rawTab, err := raw(namesDat)
	if err != nil {
		t.Fatal(err)
	}
	var extra bytes.Buffer
	for _, l := range strings.Split(string(seqs), "\n") {
		if n, _, ok := strings.Cut(l, "\t"); ok {
			extra.WriteString(n + "\n")
		}
	}
	_, aliases, _ := strings.Cut(string(rawTab), "\naliases ")
	for _, l := range strings.Split(aliases, "\n")[1:] {
		if n, _, ok := strings.Cut(l, "\t"); ok {
			extra.WriteString(n + "\n" + strings.ToLower(n) + "\n")
		}
	}
	cmd.Stdin = &extra
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	compared, resolved, bad := 0, 0, 0
	for sc.Scan() {
		var c [2]*string
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		name := *c[0]
		r, ok := Lookup(name)
		compared++
		switch {
		case c[1] == nil && ok:
			bad++
			if bad <= 10 {
				t.Errorf("Lookup(%q) = %U, Python refuses it", name, r)
			}
		case c[1] != nil && (!ok || string(r) != *c[1]):
			bad++
			if bad <= 10 {
				t.Errorf("Lookup(%q) = %U %v, Python gives %+q", name, r, ok, *c[1])
			}
		case ok:
			resolved++
		}
	}
	if compared < 50000 {
		t.Fatalf("compared %d names", compared)
	}
	t.Logf("%d names compared, %d resolve, %d differ", compared, resolved, bad)
}

// TestLookupAllocatesNothing: a lookup (after the table's one decode)
// makes no allocation, found or not.
func TestLookupAllocatesNothing(t *testing.T) {
	load()
	for _, n := range []string{"BULLET", "bullet", "CJK UNIFIED IDEOGRAPH-4E00", "HANGUL SYLLABLE GA", "NO SUCH NAME", strings.Repeat("A", 500)} {
		if a := testing.AllocsPerRun(100, func() { Lookup(n) }); a != 0 {
			t.Errorf("Lookup(%.20q) allocates %v times", n, a)
		}
	}
}

// BenchmarkDecode is the table's one decode a process: the first \N{...}
// escape a process meets pays it.
func BenchmarkDecode(b *testing.B) {
	for b.Loop() {
		if _, err := decode(namesDat); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	load()
	for b.Loop() {
		Lookup("LATIN SMALL LETTER A WITH DIAERESIS")
	}
}

// TestTableSize: the decoded table a process keeps once it met a \N{...}
// escape stays under 2 MiB of live heap.
func TestTableSize(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tb, err := decode(namesDat)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	live := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	runtime.KeepAlive(tb)
	t.Logf("decoded table: %d KiB live, %d names", live>>10, len(tb.codes))
	if live > 2<<20 {
		t.Errorf("decoded table holds %d KiB, over 2 MiB", live>>10)
	}
}
