package strutil

import "unicode/utf8"

// StrRepr counts Python's repr of a str without building it (pprint
// measures the repr of every candidate chunk of a long string; building
// each allocated several bytes a unit charged). The counts add up: the
// count of a+b is CountStrRepr(a).Plus(CountStrRepr(b)), so a caller
// growing a string piece by piece counts each piece once.
type StrRepr struct {
	// Runes and Bytes are the body's code points and bytes, each quote
	// counted unescaped; Singles counts the single quotes, Double says
	// whether a double quote occurs (together they choose the quote).
	Runes, Bytes, Singles int
	Double                bool
}

// CountStrRepr counts the repr of s: the same text QuoteString writes.
func CountStrRepr(s string) StrRepr {
	var r StrRepr
	for i := 0; i < len(s); {
		b := s[i]
		if b < 0x80 {
			n := int(asciiEscapeLen[b])
			r.Runes += n
			r.Bytes += n
			switch b {
			case '\'':
				r.Singles++
			case '"':
				r.Double = true
			}
			i++
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case c == utf8.RuneError || isPrint(c):
			// printable (its own bytes), or an invalid byte or U+FFFD
			// (written as U+FFFD)
			r.Runes++
			if c == utf8.RuneError {
				r.Bytes += 3
			} else {
				r.Bytes += size
			}
		case c <= 0xff:
			r.Runes += 4
			r.Bytes += 4
		case c <= 0xffff:
			r.Runes += 6
			r.Bytes += 6
		default:
			r.Runes += 10
			r.Bytes += 10
		}
	}
	return r
}

// Plus is the count of the concatenation.
func (r StrRepr) Plus(o StrRepr) StrRepr {
	return StrRepr{Runes: r.Runes + o.Runes, Bytes: r.Bytes + o.Bytes, Singles: r.Singles + o.Singles, Double: r.Double || o.Double}
}

// Len is the repr's length in code points and bytes, quotes included: a
// single quote is escaped when the repr is quoted by single quotes,
// which it is unless the text has a single quote and no double quote.
func (r StrRepr) Len() (runes, bytes int) {
	extra := 2
	if r.Singles > 0 && r.Double {
		extra += r.Singles
	}
	return r.Runes + extra, r.Bytes + extra
}

// asciiEscapeLen is the length of each ASCII byte's repr, a quote
// counted unescaped.
var asciiEscapeLen = func() (t [0x80]uint8) {
	for b := range t {
		t[b] = uint8(len(asciiEscapes[b]))
	}
	return t
}()
