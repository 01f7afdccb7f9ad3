package strutil

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// thueMorse returns the Thue-Morse block of 2^q bytes over a and b, and
// its complement: the two hash alike under any polynomial hash modulo
// 2^32 (Go's Rabin-Karp), whatever the base.
func thueMorse(q int) (string, string) {
	a, b := make([]byte, 1<<q), make([]byte, 1<<q)
	for i := range a {
		p := byte(0)
		for x := i; x > 0; x &= x - 1 {
			p ^= 1
		}
		a[i], b[i] = 'a'+p, 'b'-p
	}
	return string(a), string(b)
}

// checkSearch holds Index, LastIndex and Count of sub in s to the
// standard library's answers.
func checkSearch(t *testing.T, s, sub string) {
	t.Helper()
	if got, want := Index(s, sub), strings.Index(s, sub); got != want {
		t.Fatalf("Index(%q, %q) = %d, want %d", s, sub, got, want)
	}
	if got, want := LastIndex(s, sub), strings.LastIndex(s, sub); got != want {
		t.Fatalf("LastIndex(%q, %q) = %d, want %d", s, sub, got, want)
	}
	if got, want := Count(s, sub), strings.Count(s, sub); got != want {
		t.Fatalf("Count(%q, %q) = %d, want %d", s, sub, got, want)
	}
}

// TestSearchAsStrings holds Index, LastIndex, Count, Replace and Split to
// the standard library's answers on texts of a small alphabet (dense
// partial matches, periodic needles) with needles on both sides of
// bruteMax.
func TestSearchAsStrings(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func(n int, alpha string) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alpha[rng.IntN(len(alpha))]
		}
		return string(b)
	}
	for iter := 0; iter < 20000; iter++ {
		alpha := []string{"a", "ab", "abc", "aab"}[iter%4]
		period := gen(1+rng.IntN(6), alpha)
		var s, sub string
		switch iter % 3 {
		case 0: // periodic text and needle, one byte changed sometimes
			s = strings.Repeat(period, 1+rng.IntN(80))
			sub = strings.Repeat(period, 1+rng.IntN(20))
			if rng.IntN(2) == 0 && len(sub) > 0 {
				b := []byte(sub)
				b[rng.IntN(len(b))] = alpha[rng.IntN(len(alpha))]
				sub = string(b)
			}
		case 1: // random text, needle cut from it
			s = gen(rng.IntN(400), alpha)
			if len(s) > 0 {
				i := rng.IntN(len(s))
				sub = s[i:min(len(s), i+rng.IntN(120))]
			}
		default:
			s, sub = gen(rng.IntN(300), alpha), gen(32+rng.IntN(40), alpha)
		}
		if sub == "" {
			continue
		}
		checkSearch(t, s, sub)
		for _, n := range []int{-1, 0, 1, 2} {
			if got, want := Replace(s, sub, "<>", n), strings.Replace(s, sub, "<>", n); got != want {
				t.Fatalf("Replace(%q, %q, %d) = %q, want %q", s, sub, n, got, want)
			}
		}
		if got, want := Split(s, sub), strings.Split(s, sub); !slices.Equal(got, want) {
			t.Fatalf("Split(%q, %q) = %q, want %q", s, sub, got, want)
		}
	}
}

// TestSearchLinearOnCollidingHashes: a text of Thue-Morse blocks searched
// for a needle of half its length that differs from it only in its last
// block (its complement, which hashes alike) made every block a Rabin-Karp
// candidate compared almost to the needle's end: quadratic, 1.1 s for a
// 16 MB text in strings.Index. The Two-Way search reads each byte of the
// text and needle a bounded number of times, forwards and from the end.
func TestSearchLinearOnCollidingHashes(t *testing.T) {
	a, b := thueMorse(11)
	block := "x" + a
	for _, k := range []int{64, 512} {
		hay := strings.Repeat(block, k)
		needle := strings.Repeat(block, k/2-1) + "x" + b
		rneedle := "x" + b + strings.Repeat(block, k/2-1)
		for _, tc := range []struct {
			name   string
			needle string
			rev    bool
		}{{"forwards", needle, false}, {"from the end", rneedle, true}, {"periodic, present", strings.Repeat(block, k/2), false}} {
			i, reads := twoWayReads(hay, tc.needle, tc.rev)
			want := strings.Index(hay, tc.needle)
			if tc.rev {
				want = strings.LastIndex(hay, tc.needle)
				if i >= 0 {
					i = len(hay) - len(tc.needle) - i
				}
			}
			if i != want {
				t.Errorf("%s, %d blocks: index %d, want %d", tc.name, k, i, want)
			}
			if bound := 4 * (len(hay) + len(tc.needle)); reads > bound {
				t.Errorf("%s, %d blocks: %d bytes read for a text of %d and a needle of %d (over %d)", tc.name, k, reads, len(hay), len(tc.needle), bound)
			}
		}
	}
}

// BenchmarkIndexLongNeedle compares the Two-Way search with the standard
// library on an ordinary text and on the colliding one.
func BenchmarkIndexLongNeedle(b *testing.B) {
	words := strings.Repeat("lorem ipsum dolor sit amet, consectetur adipiscing elit ", 20000)
	needle := "consectetur adipiscing elit, sed do eiusmod"
	ta, tb := thueMorse(11)
	block := "x" + ta
	hay := strings.Repeat(block, 512)
	bad := strings.Repeat(block, 255) + "x" + tb
	for _, c := range []struct{ name, s, sub string }{{"prose", words, needle}, {"colliding", hay, bad}} {
		b.Run(c.name+"/strings", func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			for b.Loop() {
				strings.Index(c.s, c.sub)
			}
		})
		b.Run(c.name+"/twoway", func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			for b.Loop() {
				Index(c.s, c.sub)
			}
		})
	}
}

// BenchmarkIndexPeriodic is the Two-Way search's worst preprocessing: a
// needle of one repeated byte, half its text.
func BenchmarkIndexPeriodic(b *testing.B) {
	hay := strings.Repeat("x", 8<<20)
	for _, c := range []struct{ name, sub string }{{"half", hay[:4<<20]}, {"half-miss", hay[:4<<20-1] + "y"}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(hay)))
			for b.Loop() {
				Index(hay, c.sub)
			}
		})
	}
}

// FuzzSearch holds the linear searches to the standard library's answers
// on any text and needle (the needle repeated to pass bruteMax).
func FuzzSearch(f *testing.F) {
	f.Add("abababababab", "abab", uint8(9))
	f.Add("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "aab", uint8(12))
	f.Fuzz(func(t *testing.T, s, sub string, rep uint8) {
		if sub == "" {
			return
		}
		sub = strings.Repeat(sub, int(rep)%40+1)
		if len(sub) > 4096 || len(s) > 1<<16 {
			return
		}
		s = strings.Repeat(s, 3) + sub[:len(sub)/2]
		checkSearch(t, s, sub)
	})
}

// TestSearchSkipsToFirstByte: a text without the needle's first byte (its
// last, from the end) is answered before the needle is preprocessed: a
// megabyte needle of 'a' in a text of two-byte letters read the needle
// three times for nothing.
func TestSearchSkipsToFirstByte(t *testing.T) {
	hay := strings.Repeat("é", 1<<20)
	needle := strings.Repeat("a", 1<<20)
	for _, rev := range []bool{false, true} {
		if i, reads := twoWayReads(hay, needle, rev); i != -1 || reads != 0 {
			t.Errorf("rev %v: index %d after %d bytes read, want -1 after none", rev, i, reads)
		}
	}
	if Index(hay, needle) != -1 || LastIndex(hay, needle) != -1 || Count(hay, needle) != 0 {
		t.Error("a needle absent from the text was found")
	}
}
