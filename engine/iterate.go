package engine

import (
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/value"
)

// The evaluator's iteration paths (for loops, tuple unpacking, *args)
// charge for each element before they make it. A string is the one
// iterable whose elements do not exist yet: materialising a 40 MB string
// as a list of characters takes gigabytes, so these paths walk it with a
// strCursor, one character at a time, and never build the list first.

// strCursor walks a string's characters (Python iterates a Markup string
// as plain str characters). Each character is a slice of the string, so
// making one allocates nothing.
type strCursor struct {
	s   string
	off int
}

func (c *strCursor) done() bool { return c.off >= len(c.s) }

// peek returns the next character without consuming it.
func (c *strCursor) peek() value.Value {
	r, size := utf8.DecodeRuneInString(c.s[c.off:])
	if r == utf8.RuneError && size <= 1 {
		// an invalid byte iterates as U+FFFD, as ranging over it does
		return value.FromString(string(utf8.RuneError))
	}
	return value.FromString(c.s[c.off : c.off+size])
}

// next consumes and returns the next character.
func (c *strCursor) next() value.Value {
	v := c.peek()
	_, size := utf8.DecodeRuneInString(c.s[c.off:])
	c.off += size
	return v
}

// rest materialises the characters not yet consumed, charging the scan by
// its bytes and each element before the list is allocated.
func (r *renderer) restOf(c *strCursor, op string) []value.Value {
	tail := c.s[c.off:]
	r.Charge(int64(len(tail)), op)
	n := int64(utf8.RuneCountInString(tail))
	r.Charge(n*(budget.Slot+budget.Elem), op)
	out := vmem.Fresh(make([]value.Value, 0, n))
	rest := strCursor{s: tail}
	for !rest.done() {
		out = append(out, rest.next())
	}
	return out
}

// elements returns the elements of v for *args: a string's characters are
// charged before the list is built; other iterables are charged an
// element each before they are appended.
func (r *renderer) elements(v value.Value, op string) []value.Value {
	if v.Kind() == value.String {
		return r.restOf(&strCursor{s: v.Str()}, op)
	}
	items := value.Iterate(r, v)
	r.Charge(int64(len(items))*budget.Elem, op)
	return items
}

// unpack splits v into exactly n items for tuple targets. A string is
// read at most n+1 characters far, so unpacking a long one is refused
// before anything is built.
func (r *renderer) unpack(v value.Value, n int) []value.Value {
	if v.Kind() == value.String {
		cur := strCursor{s: v.Str()}
		out := vmem.Fresh(make([]value.Value, 0, n))
		for !cur.done() {
			if len(out) == n {
				errs.Throwf(errs.Type, "too many values to unpack (expected %d)", n)
			}
			r.Charge(budget.Elem, "unpacking")
			out = append(out, cur.next())
		}
		if len(out) < n {
			errs.Throwf(errs.Type, "not enough values to unpack (expected %d, got %d)", n, len(out))
		}
		return out
	}
	items := value.Iterate(r, v)
	if len(items) != n {
		if len(items) < n {
			errs.Throwf(errs.Type, "not enough values to unpack (expected %d, got %d)", n, len(items))
		}
		errs.Throwf(errs.Type, "too many values to unpack (expected %d)", n)
	}
	r.Charge(int64(n)*budget.Elem, "unpacking")
	return items
}
