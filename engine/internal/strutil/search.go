package strutil

import "strings"

// Substring search in time linear in the text, whatever the text and the
// needle. Go's strings.Index, LastIndex, Count, Replace and Split fall
// back to Rabin-Karp for a needle longer than the vectorised brute force
// takes (bytealg.MaxLen: 63 bytes with AVX2, 31 without; LastIndex for
// any needle of two bytes or more), and a Rabin-Karp hash modulo 2^32 has
// collisions anyone can make: two Thue-Morse blocks of 2,048 bytes hash
// alike under every base. A text of such blocks, searched for a needle of
// half its length that differs from it only in its last block, makes
// every block a candidate compared almost to the needle's end: a 16 MB
// text took 1.1 s for 17 M units (redteam-style "substring search with
// colliding hashes"; TestSearchLinearOnCollidingHashes), and one runtime
// call no charge or cancellation can interrupt. A needle up to
// bruteMax bytes goes to the standard library, whose brute force is then
// at most bruteMax comparisons a byte; a longer one to the Two-Way
// algorithm (Crochemore and Perrin, 1991, as musl's strstr implements it:
// linear time, constant space), which also shifts by the needle's last
// byte, so a long needle absent from a text skips most of it.

// bruteMax is the longest needle the standard library's search is given:
// the brute-force limit on machines without AVX2, so no build and no
// machine takes the Rabin-Karp path.
const bruteMax = 31

// Index is strings.Index(s, sub) in time linear in len(s)+len(sub).
func Index(s, sub string) int {
	if len(sub) <= bruteMax {
		//scratch:ok a needle of at most bruteMax bytes: the standard library's brute force
		return strings.Index(s, sub)
	}
	return twoWay(s, sub, false)
}

// LastIndex is strings.LastIndex(s, sub) in time linear in
// len(s)+len(sub): the Two-Way search run from the end.
func LastIndex(s, sub string) int {
	switch {
	case len(sub) == 0:
		return len(s)
	case len(sub) == 1:
		return strings.LastIndexByte(s, sub[0])
	case len(sub) <= bruteMax:
		// Rabin-Karp, whose collisions cost at most len(sub) each
		//scratch:ok a needle of at most bruteMax bytes: the standard library's brute force
		return strings.LastIndex(s, sub)
	}
	i := twoWay(s, sub, true)
	if i < 0 {
		return -1
	}
	return len(s) - len(sub) - i
}

// Contains is strings.Contains(s, sub) in linear time.
func Contains(s, sub string) bool { return Index(s, sub) >= 0 }

// Count is strings.Count(s, sub) for a non-empty sub, in linear time:
// matches do not overlap, so each search starts past the last match.
func Count(s, sub string) int {
	if len(sub) <= bruteMax {
		//scratch:ok a needle of at most bruteMax bytes: the standard library's brute force
		return strings.Count(s, sub)
	}
	n := 0
	for {
		i := twoWay(s, sub, false)
		if i < 0 {
			return n
		}
		n++
		s = s[i+len(sub):]
	}
}

// Replace is strings.Replace(s, old, nw, n) for a non-empty old, its
// matches found in linear time; the result is built once at its size.
func Replace(s, old, nw string, n int) string {
	if len(old) <= bruteMax {
		//scratch:ok a needle of at most bruteMax bytes: the standard library's brute force
		return strings.Replace(s, old, nw, n)
	}
	m := Count(s, old)
	if n < 0 || m < n {
		n = m
	}
	if n == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + n*(len(nw)-len(old)))
	for ; n > 0; n-- {
		i := twoWay(s, old, false)
		b.WriteString(s[:i])
		b.WriteString(nw)
		s = s[i+len(old):]
	}
	b.WriteString(s)
	return b.String()
}

// Split is strings.Split(s, sep) for a non-empty sep, in linear time.
func Split(s, sep string) []string {
	if len(sep) <= bruteMax {
		//scratch:ok a needle of at most bruteMax bytes: the standard library's brute force
		return strings.Split(s, sep)
	}
	//scratch:ok its callers charge the parts before they split (splitCharged)
	out := make([]string, 0, Count(s, sep)+1)
	for {
		i := twoWay(s, sep, false)
		if i < 0 {
			//scratch:ok within the capacity counted: no growth
			return append(out, s)
		}
		//scratch:ok within the capacity counted: no growth
		out = append(out, s[:i])
		s = s[i+len(sep):]
	}
}

// twoWay returns the first index of n in h (n longer than bruteMax), or
// -1; with rev, both are read from their ends (byte i of h is
// h[len(h)-1-i]) and the index is in that reversed text. The proof of
// its bound is the Two-Way algorithm's: the right half of the needle
// (after its critical factorisation) is compared left to right and a
// mismatch shifts past it, the left half right to left on a right-half
// match, and a periodic needle remembers (mem) the prefix a shift by its
// period already matched, so no text byte is compared more than twice.
func twoWay(h, n string, rev bool) int {
	i, _ := twoWayReads(h, n, rev)
	return i
}

// twoWayReads is twoWay that also returns how many bytes of h and n it
// read: the test of its linear bound counts them.
func twoWayReads(h, n string, rev bool) (int, int) {
	reads := 0
	at := func(s string, i int) byte {
		reads++
		if rev {
			return s[len(s)-1-i]
		}
		return s[i]
	}
	l := len(n)
	if l > len(h) {
		return -1, 0
	}
	// the bad-character shift of the needle's last byte: how far the
	// window moves when its last byte is c (0: c is the needle's last)
	var inNeedle [256]bool
	var shift [256]int
	for i := 0; i < l; i++ {
		c := at(n, i)
		inNeedle[c], shift[c] = true, i+1
	}
	// the maximal suffix for < and for >; the critical factorisation is
	// the later of the two (ms), with the period of its suffix (p)
	ms, p := maxSuffix(n, l, at, false)
	ms2, p2 := maxSuffix(n, l, at, true)
	if ms2 > ms {
		ms, p = ms2, p2
	}
	// a periodic needle (its prefix up to ms repeats at p) shifts by p
	// and remembers what matched; any other shifts past the longer half
	mem0 := 0
	periodic := true
	for i := 0; i <= ms; i++ {
		if at(n, i) != at(n, i+p) {
			periodic = false
			break
		}
	}
	if periodic {
		mem0 = l - p
	} else {
		p = max(ms, l-ms-1) + 1
	}
	mem := 0
	for pos := 0; pos+l <= len(h); {
		// the window's last byte first: a byte the needle lacks moves
		// the window past it, another to its last place in the needle
		c := at(h, pos+l-1)
		if !inNeedle[c] {
			pos += l
			mem = 0
			continue
		}
		if k := l - shift[c]; k > 0 {
			pos += max(k, mem)
			mem = 0
			continue
		}
		// the right half, left to right
		k := max(ms+1, mem)
		for k < l && at(n, k) == at(h, pos+k) {
			k++
		}
		if k < l {
			pos += k - ms
			mem = 0
			continue
		}
		// the left half, right to left
		k = ms + 1
		for k > mem && at(n, k-1) == at(h, pos+k-1) {
			k--
		}
		if k <= mem {
			return pos, reads
		}
		pos += p
		mem = mem0
	}
	return -1, reads
}

// maxSuffix returns the start minus one of n's maximal suffix (under
// byte order, or its reverse when inverse) and that suffix's period: the
// first loop of musl's twoway_strstr.
func maxSuffix(n string, l int, at func(string, int) byte, inverse bool) (ms, p int) {
	ip, jp, k := -1, 0, 1
	p = 1
	for jp+k < l {
		a, b := at(n, ip+k), at(n, jp+k)
		switch {
		case a == b:
			if k == p {
				jp += p
				k = 1
			} else {
				k++
			}
		case (a > b) != inverse:
			jp += k
			k = 1
			p = jp - ip
		default:
			ip = jp
			jp++
			k, p = 1, 1
		}
	}
	return ip, p
}
