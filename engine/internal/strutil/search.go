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
// The halves are compared a run at a time (commonPrefix, commonSuffix:
// runs doubling from 8 bytes, each one comparison of the runtime's), so
// a long match costs what the runtime's equality does, not a loop a byte.
func twoWay(h, n string, rev bool) int {
	i, _ := twoWayReads(h, n, rev)
	return i
}

// byteAt is byte i of s, counted from its end when rev.
func byteAt(s string, i int, rev bool) byte {
	if rev {
		return s[len(s)-1-i]
	}
	return s[i]
}

// twoWayReads is twoWay that also returns how many bytes of h and n it
// read: the test of its linear bound counts them.
func twoWayReads(h, n string, rev bool) (int, int) {
	l, hl := len(n), len(h)
	switch {
	case l > hl:
		return -1, 0
	case l == hl:
		if h == n {
			return 0, l
		}
		return -1, l
	}
	// no match can start before the needle's first byte occurs (end after
	// its last, read from the end): a vectorised scan finds it, and a text
	// without it is answered before the needle's preprocessing, which
	// reads the needle three times (a megabyte needle of 'a' in a text of
	// two-byte letters cost that much against a scan of nothing)
	first := byteAt(n, 0, rev)
	var skip int
	if rev {
		// reversed byte pos is h[hl-1-pos], for pos up to hl-l: the last
		// occurrence in h[l-1:]
		skip = strings.LastIndexByte(h[l-1:], first)
		if skip >= 0 {
			skip = hl - l - skip
		}
	} else {
		skip = strings.IndexByte(h[:hl-l+1], first)
	}
	if skip < 0 {
		return -1, 0
	}
	reads := l
	// the bad-character shift: the window moves by l-shift[c] when its
	// last byte is c (0: c is the needle's last byte; l: c is not in it)
	var shift [256]int
	if rev {
		for i := 0; i < l; i++ {
			shift[n[l-1-i]] = i + 1
		}
	} else {
		for i := 0; i < l; i++ {
			shift[n[i]] = i + 1
		}
	}
	// the maximal suffix for < and for >; the critical factorisation is
	// the later of the two (ms), with the period of its suffix (p)
	ms, p, r1 := maxSuffix(n, rev, false)
	ms2, p2, r2 := maxSuffix(n, rev, true)
	reads += r1 + r2
	if ms2 > ms {
		ms, p = ms2, p2
	}
	// a periodic needle (its prefix up to ms repeats at p) shifts by p
	// and remembers what matched; any other shifts past the longer half
	mem0 := 0
	var prefix, shifted string
	if rev {
		prefix, shifted = n[l-ms-1:], n[l-ms-1-p:l-p]
	} else {
		prefix, shifted = n[:ms+1], n[p:p+ms+1]
	}
	reads += 2 * (ms + 1)
	if prefix == shifted {
		mem0 = l - p
	} else {
		p = max(ms, l-ms-1) + 1
	}
	last := byteAt(n, l-1, rev)
	mem, windows := 0, 0
	for pos := skip; pos+l <= hl; {
		// the window's last byte first: a byte the needle lacks moves
		// the window past it, another to its last place in the needle
		windows++
		if k := l - shift[byteAt(h, pos+l-1, rev)]; k > 0 {
			// and on to the next window ending in the needle's last
			// byte, found by the runtime's vectorised scan (a periodic
			// text shifts one byte a window, several ns each)
			pos += max(k, mem)
			mem = 0
			if pos+l > hl {
				break
			}
			var i int
			if rev {
				i = strings.LastIndexByte(h[:hl-pos-l+1], last)
				if i >= 0 {
					i = hl - pos - l - i
				}
			} else {
				i = strings.IndexByte(h[pos+l-1:], last)
			}
			if i < 0 {
				break
			}
			pos += i
			continue
		}
		// the right half, left to right: n[k:] against the window's
		k := max(ms+1, mem)
		var m, r int
		if rev {
			m, r = commonSuffix(n[:l-k], h[:hl-pos-k])
		} else {
			m, r = commonPrefix(n[k:], h[pos+k:pos+l])
		}
		reads += r
		if k += m; k < l {
			pos += k - ms
			mem = 0
			continue
		}
		// the left half, right to left: n[mem:ms+1] against the window's
		if rev {
			m, r = commonPrefix(n[l-ms-1:l-mem], h[hl-pos-ms-1:hl-pos-mem])
		} else {
			m, r = commonSuffix(n[mem:ms+1], h[pos+mem:pos+ms+1])
		}
		reads += r
		if ms+1-m <= mem {
			return pos, reads + windows
		}
		pos += p
		mem = mem0
	}
	return -1, reads + windows
}

// commonPrefix is the length of the longest common prefix of a and b,
// and the bytes it read: compared in runs doubling from 8 bytes, a run
// that differs walked a byte at a time (at most twice what matched
// before it, plus 8).
func commonPrefix(a, b string) (int, int) {
	n := min(len(a), len(b))
	i, reads := 0, 0
	for step := 8; i < n; step *= 2 {
		j := min(i+step, n)
		reads += 2 * (j - i)
		if a[i:j] != b[i:j] {
			for a[i] == b[i] {
				i++
			}
			return i, reads
		}
		i = j
	}
	return n, reads
}

// commonSuffix is commonPrefix from the ends of a and b.
func commonSuffix(a, b string) (int, int) {
	n := min(len(a), len(b))
	la, lb := len(a), len(b)
	i, reads := 0, 0
	for step := 8; i < n; step *= 2 {
		j := min(i+step, n)
		reads += 2 * (j - i)
		if a[la-j:la-i] != b[lb-j:lb-i] {
			for a[la-1-i] == b[lb-1-i] {
				i++
			}
			return i, reads
		}
		i = j
	}
	return n, reads
}

// maxSuffix returns the start minus one of n's maximal suffix (under
// byte order, or its reverse when inverse; n read from its end when rev),
// that suffix's period and the bytes it read: the first loop of musl's
// twoway_strstr. The loop runs over the needle's bytes a few times per
// search, so the reversed reading is a copy of the loop with its indices
// mirrored rather than a branch or a call a byte (both ran 2 to 5 times
// slower).
func maxSuffix(n string, rev, inverse bool) (ms, p, reads int) {
	l := len(n)
	ip, jp, k := -1, 0, 1
	p = 1
	for jp+k < l {
		var a, b byte
		if rev {
			a, b = n[l-1-(ip+k)], n[l-1-(jp+k)]
		} else {
			a, b = n[ip+k], n[jp+k]
		}
		reads += 2
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
	return ip, p, reads
}
