package builtins

import (
	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/value"
)

// matchChunk is how many matches countCharged finds between two charges:
// a chunk of a dense two-byte needle is about 30 us of work, so a render
// that cannot pay for the next chunk, or whose context is cancelled (a
// charge polls it), stops within one chunk.
const matchChunk = 1024

// countCharged is strings.Count(s, sub) (sub non-empty) that charges
// perMatch units a match as it goes, a chunk of matches at a time, before
// it looks for the next chunk. Counting a needle of two bytes or more is
// a search a match (tens of ns each on a dense needle, red team round 3:
// 20 M matches of "aa" took 0.5 s for units that priced only the bytes),
// so the count is paid for while it is taken, never after. A one-byte
// needle is counted by strings.Count's vectorised scan, linear in the
// bytes the caller already charged, and its matches charged after.
func countCharged(c value.Ctx, s, sub string, perMatch int64, op string) int64 {
	if len(sub) == 1 {
		n := int64(strutil.Count(s, sub))
		c.Charge(budget.Mul(n, perMatch), op)
		return n
	}
	var n, pending int64
	for {
		i := strutil.Index(s, sub) // linear whatever the needle
		if i < 0 {
			break
		}
		n++
		pending++
		s = s[i+len(sub):]
		if pending == matchChunk {
			c.Charge(budget.Mul(pending, perMatch), op)
			pending = 0
		}
	}
	c.Charge(budget.Mul(pending, perMatch), op)
	return n
}

// matchUnits is what a match found by a search costs beyond the bytes
// scanned: a search call and, for replace, a copy of its own.
const matchUnits = budget.Elem / 2
