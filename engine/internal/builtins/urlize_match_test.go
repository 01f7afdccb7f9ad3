package builtins

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// emailPattern is the pattern isEmail matches by hand, kept here as its
// oracle (Jinja's utils._email_re with \S and \w spelled out for RE2).
var emailPattern = regexp.MustCompile(`^[^` + pyWS + `]+@[` + pyWord + `][` + pyWord + `.-]*\.[` + pyWord + `]+$`)

// urlizeWords are words built from the pieces the two patterns care
// about, so that matches and near misses both come up often.
func urlizeWords(n int) []string {
	pieces := []string{"a", "Z", "9", "_", "é", "ß", "٣", "-", ".", "@", "%", ":", "/", "?", "#", "com", ".COM",
		".org", ".info", "www.", "http://", "HTTPS://", "xn--", "mailto:", "[", "]", "80", "\u00a0", "\xff", "b.c", ""}
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"a@b.com", "a@b", "@b.com", "a@.com", "a@b.", "a@b.c-", "a@-b.com", "a@b@c.com", "é@ß.٣",
		"example.com", "www.example.com/x", "http://[::1]:80/", "a.b.com:8080?x", "x@example.org", "ab.info#f"}
	for len(words) < n {
		var sb strings.Builder
		for k := r.IntN(7); k >= 0; k-- {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		words = append(words, sb.String())
	}
	return words
}

// TestEmailMatchesPattern: isEmail answers as Jinja's e-mail pattern
// does on every word.
func TestEmailMatchesPattern(t *testing.T) {
	matched := 0
	for _, w := range urlizeWords(200000) {
		want := emailPattern.MatchString(w)
		if got := isEmail(w); got != want {
			t.Fatalf("isEmail(%q) = %v, the pattern says %v", w, got, want)
		}
		if want {
			matched++
		}
	}
	if matched < 300 {
		t.Fatalf("only %d words matched: the generator tests nothing", matched)
	}
}

// TestURLCandidateNeverMissesAMatch: httpCandidate is a necessary
// condition of httpRe (a word it turns away never matches), and it turns
// most non-URLs away.
func TestURLCandidateNeverMissesAMatch(t *testing.T) {
	matched, refused := 0, 0
	words := urlizeWords(200000)
	for _, w := range words {
		m := httpRe().MatchString(w)
		c := httpCandidate(w)
		if m && !c {
			t.Fatalf("httpCandidate(%q) is false, but httpRe matches it", w)
		}
		if m {
			matched++
		}
		if !c {
			refused++
		}
	}
	if matched < 1000 || refused < len(words)/2 {
		t.Fatalf("%d matched, %d turned away of %d: the generator tests nothing", matched, refused, len(words))
	}
}
