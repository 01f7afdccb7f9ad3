package builtins

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestHTMLUnescapeMatchesPython holds HTMLUnescape to Python's
// html.unescape on testdata/unescape.json (gen_unescape.py): every named
// entity with and without a tail, the legacy names before long tails,
// numeric references at the edges of every special range, and random
// strings of entity fragments.
func TestHTMLUnescapeMatchesPython(t *testing.T) {
	raw, err := os.ReadFile("testdata/unescape.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases [][2]string
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 5000 {
		t.Fatalf("%d cases, want the generator's 5,000 or more", len(cases))
	}
	for _, c := range cases {
		if got := HTMLUnescape(c[0]); got != c[1] {
			t.Errorf("HTMLUnescape(%q) = %q, Python gives %q", c[0], got, c[1])
		}
	}
}

// TestHTMLUnescapeAllocatesItsResult: decoding allocates the result and
// nothing an entity (a name joined to its ';', a replacement joined to
// its tail, a rune's string: 3 M entities of `&amp;` took 650 ms), and an
// unknown name is matched against the names that need no ';' only, not
// tried at every length against the whole table (31 binary searches an
// entity: 1.07 s for 300,000 of them).
func TestHTMLUnescapeAllocatesItsResult(t *testing.T) {
	for _, s := range []string{
		strings.Repeat("&amp;", 1000),
		strings.Repeat("&#x41;&#65;&#0;&#x80;&#xd800;", 200),
		strings.Repeat("&"+strings.Repeat("z", 31)+" ", 100),
		strings.Repeat("&notit;&ampx&AEligz", 200),
	} {
		if a := testing.AllocsPerRun(5, func() { HTMLUnescape(s) }); a > 1 {
			t.Errorf("HTMLUnescape of %q...: %v allocations, want the result's one", s[:20], a)
		}
	}
}

// TestLegacyEntities: the hash index finds every entity with its text,
// and no name the table lacks; the legacy table holds exactly the
// entities whose names have no ';', none longer than legacyMax, and the
// longest is legacyMax long (a longer one added to the table would go
// unmatched as a prefix).
func TestLegacyEntities(t *testing.T) {
	all, legacy := html5Entities(), legacyEntities()
	n, longest := 0, 0
	for i := 0; i < all.len(); i++ {
		name := all.nameAt(i)
		// the hash index finds every entry, with its own text
		if text, ok := all.lookup(name); !ok || text != all.texts[all.text[i]:all.text[i+1]] {
			t.Fatalf("lookup(%q) = %q, %v", name, text, ok)
		}
		if _, ok := all.lookup(name + "x"); ok && !strings.HasSuffix(name, ";") {
			if _, real := html5EntityTable()[name+"x"]; !real {
				t.Fatalf("lookup(%q) found a name the table does not hold", name+"x")
			}
		}
		if strings.HasSuffix(name, ";") {
			if _, ok := legacy.lookup(name); ok {
				t.Fatalf("legacy table holds %q", name)
			}
			continue
		}
		n++
		longest = max(longest, len(name))
		if _, ok := legacy.lookup(name); !ok {
			t.Fatalf("legacy table lacks %q", name)
		}
	}
	if n != legacy.len() || longest != legacyMax {
		t.Fatalf("%d legacy names (table %d), longest %d, legacyMax %d", n, legacy.len(), longest, legacyMax)
	}
}

// TestCollapseSpaceIsJoinSplit: collapseSpace, which writes each word as
// one run, is " ".join(s.split()) (Python's whitespace: ASCII, the
// separators \x1c-\x1f, and Unicode spaces) on random mixes of words,
// spaces and invalid bytes.
func TestCollapseSpaceIsJoinSplit(t *testing.T) {
	parts := []string{"a", "bc", "é", "😀", " ", "\t", "\n", "\x1c", "\x1f", "\u00a0", "\u2028", "\u3000", "\x85", "\xff", "\xe2\x80", "&amp;", "x\u200by"}
	seed := uint64(20261206)
	for n := 0; n < 20000; n++ {
		var sb strings.Builder
		for k := int(seed % 9); k >= 0; k-- {
			seed = seed*6364136223846793005 + 1442695040888963407
			sb.WriteString(parts[(seed>>33)%uint64(len(parts))])
		}
		s := sb.String()
		want := strings.Join(strings.FieldsFunc(s, pyIsSpace), " ")
		if got := collapseSpace(s); got != want {
			t.Fatalf("collapseSpace(%q) = %q, want %q", s, got, want)
		}
	}
}
