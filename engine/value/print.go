package value

import (
	"strconv"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
)

// ToString is Python's str() of a value, as Jinja prints it.
func ToString(v Value) string {
	switch v.k {
	case Undefined:
		return ""
	case String:
		return v.Str()
	case None:
		return "None"
	case Bool:
		if v.n != 0 {
			return "True"
		}
		return "False"
	case Int:
		return strconv.FormatInt(v.n, 10)
	case Float:
		return strutil.FormatFloat(v.Float())
	case Object:
		if ts, ok := v.ref.(interface{ TemplateString() string }); ok {
			return ts.TemplateString()
		}
	}
	var sb strutil.TextWriter
	writeRepr(&sb, v, 0, nil, nil)
	return sb.String()
}

// Repr is Python's repr() of a value.
func Repr(v Value) string {
	var sb strutil.TextWriter
	writeRepr(&sb, v, 0, nil, nil)
	return sb.String()
}

// ToString and Repr serve hosts and messages, which have no render to
// refuse: past maxReprDepth they print "...". A render prints through
// StrIn, ReprIn and EscapeIn instead, where a structure nested deeper than
// the render's nesting limit is a budget error (P11), never truncated
// output (Python raises RecursionError) and never a Go stack overflow.

// StrIn is str(v) inside the render c.
func StrIn(c Ctx, v Value) string {
	switch v.k {
	case List, Tuple, Dict, Object:
		if v.k == Object {
			if ts, ok := v.ref.(interface{ TemplateString() string }); ok {
				return ts.TemplateString()
			}
		}
		return ReprIn(c, v)
	}
	return ToString(v)
}

// ReprIn is repr(v) inside the render c. The builder is sized once by
// the value's Size, which every caller has charged (twice over) before
// printing: grown from nothing it grew by a quarter at a time past a few
// hundred bytes, copying the repr about four more times.
//
// Size counts a string's bytes, and its repr escapes some: a control byte
// is four ('\x01'), a backslash two, a non-printable code point up to ten.
// What the escapes add is counted (reprExtra, a scan of the strings, which
// the callers' two units a byte of Size pay for) and charged here, two
// units a byte as the rest, before anything is written: charged by Size
// alone, a list of one 1 MB string of control bytes printed 4 MB on 2 M
// units, allocating 10 bytes and spending up to 29 ns a unit.
func ReprIn(c Ctx, v Value) string {
	size := Size(v, c.Meter().Left()) + chargeReprExtra(c, v)
	var sb strutil.TextWriter
	sb.Grow(int(size) + 2)
	writeRepr(&sb, v, 0, c, nil)
	return sb.String()
}

// WriteReprIn writes repr(v) inside the render c to w, which a caller
// building a larger text holds (no string of its own; the caller has
// charged Size, and the escapes are charged here, as ReprIn does).
func WriteReprIn(w *strutil.TextWriter, c Ctx, v Value) {
	chargeReprExtra(c, v)
	writeRepr(w, v, 0, c, nil)
}

// chargeReprExtra charges what the escapes of repr(v) add to Size(v), two
// units a byte, and returns it.
func chargeReprExtra(c Ctx, v Value) int64 {
	extra := reprExtra(v, c.Meter().Left(), int(nestingLimit(c)), nil)
	if extra > 0 {
		c.Charge(budget.Mul(extra, 2), "printing escapes")
	}
	return extra
}

// reprExtra is how many bytes the escapes in repr(v)'s strings add to
// Size(v) (which counts a string's bytes, its quotes within a container's
// 8 an item): strutil.CountStrRepr's count of each string's repr less its
// bytes and quotes. It walks what Size walks, and stops past limit, and
// below depth levels (the repr refuses a value nested deeper than the
// nesting limit, the depth it is given: it recurses no deeper than the
// repr that follows it, never as deep as a value 90,000 levels deep,
// which overflowed a 4 MiB stack, TestDeepValuesFitSmallStack).
func reprExtra(v Value, limit int64, depth int, active reprActive) int64 {
	if depth < 0 {
		return 0
	}
	switch v.k {
	case String:
		_, b := strutil.CountStrRepr(v.Str()).Len()
		return max(int64(b-2-v.byteLen()), 0)
	case List, Tuple:
		total := int64(0)
		for _, it := range v.ref.(*ListData).Items {
			if total > limit {
				break
			}
			switch it.k {
			case String, List, Tuple, Dict, Object:
				total += reprExtra(it, limit-total, depth-1, active)
			}
		}
		return total
	case Dict:
		d := v.DictData()
		total := int64(0)
		for i := 0; i < d.Len() && total <= limit; i++ {
			total += reprExtra(d.keys[i], limit-total, depth-1, active) + reprExtra(d.vals[i], limit-total, depth-1, active)
		}
		return total
	case Object:
		if ns, ok := v.ref.(*Namespace); ok && !active.has(ns) {
			return reprExtra(FromDict(ns.D), limit, depth-1, append(active, ns))
		}
	}
	return 0
}

// EscapeIn is Escape inside the render c.
func EscapeIn(c Ctx, v Value) Value {
	if v.k == String && v.safe {
		return v
	}
	return Safe(EscapeHTML(StrIn(c, v)))
}

// nestingLimit is the render's nesting limit (the default when unset).
func nestingLimit(c Ctx) int64 {
	if n := c.Meter().Limits.NestingDepth; n > 0 {
		return n
	}
	return budget.DefaultNestingDepth
}

// tooDeep refuses printing a container depth levels down in the render c.
func tooDeep(c Ctx, depth int) {
	errs.Raise(&budget.Error{Limit: budget.LimitNestingDepth, Phase: c.Meter().Phase, Op: "printing a nested value",
		Configured: nestingLimit(c), Observed: int64(depth) + 1})
}

// reprActive lists the namespaces being printed: a namespace is the one
// mutable container, so the only way to a cycle; re-entering one prints
// {...} as Python's recursive repr does.
type reprActive []*Namespace

func (a reprActive) has(ns *Namespace) bool {
	for _, x := range a {
		if x == ns {
			return true
		}
	}
	return false
}

// maxReprDepth stops runaway nesting outside a render; the budget bounds
// sizes before this.
const maxReprDepth = 300

// writeRepr writes the repr of v, nested depth containers down. In a
// render (c not nil) a container at the render's nesting limit is refused;
// outside one, past maxReprDepth prints "...".
func writeRepr(sb *strutil.TextWriter, v Value, depth int, c Ctx, active reprActive) {
	if c != nil {
		switch v.k {
		case List, Tuple, Dict: // a namespace's data is its dict, one level down
			if int64(depth) >= nestingLimit(c) {
				tooDeep(c, depth)
			}
		}
	} else if depth > maxReprDepth {
		sb.WriteString("...")
		return
	}
	switch v.k {
	case Undefined:
		sb.WriteString("Undefined")
	case String:
		if v.safe {
			sb.WriteString("Markup(")
			strutil.WriteQuoted(sb, v.Str())
			sb.WriteByte(')')
			return
		}
		strutil.WriteQuoted(sb, v.Str())
	case List:
		if d := v.ref.(*ListData); d.View() != "" {
			sb.WriteString(d.meta.view)
			sb.WriteByte('(')
			if d.meta.viewArgs != "" {
				sb.WriteString(d.meta.viewArgs)
			} else {
				writeRepr(sb, NewList(d.Items), depth+1, c, active)
			}
			sb.WriteByte(')')
			return
		}
		sb.WriteByte('[')
		for i, it := range v.Items() {
			if i > 0 {
				sb.WriteString(", ")
			}
			writeRepr(sb, it, depth+1, c, active)
		}
		sb.WriteByte(']')
	case Tuple:
		items := v.Items()
		sb.WriteByte('(')
		for i, it := range items {
			if i > 0 {
				sb.WriteString(", ")
			}
			writeRepr(sb, it, depth+1, c, active)
		}
		if len(items) == 1 {
			sb.WriteByte(',')
		}
		sb.WriteByte(')')
	case Dict:
		d := v.DictData()
		sb.WriteByte('{')
		for i := 0; i < d.Len(); i++ {
			if i > 0 {
				sb.WriteString(", ")
			}
			writeRepr(sb, d.keys[i], depth+1, c, active)
			sb.WriteString(": ")
			writeRepr(sb, d.vals[i], depth+1, c, active)
		}
		sb.WriteByte('}')
	case Callable:
		if o, ok := v.ref.(interface{ Repr() string }); ok {
			sb.WriteString(o.Repr())
			return
		}
		sb.WriteString("<function ")
		if c := v.CallableImpl(); c != nil {
			sb.WriteString(c.CallName())
		}
		sb.WriteByte('>')
	case Object:
		if ns, ok := v.ref.(*Namespace); ok {
			sb.WriteString("<Namespace ")
			if active.has(ns) {
				sb.WriteString("{...}")
			} else {
				writeRepr(sb, FromDict(ns.D), depth+1, c, append(active, ns))
			}
			sb.WriteByte('>')
			return
		}
		if o, ok := v.ref.(interface{ Repr() string }); ok {
			sb.WriteString(o.Repr())
			return
		}
		sb.WriteString("<")
		sb.WriteString(v.TypeName())
		sb.WriteString(" object>")
	default:
		sb.WriteString(ToString(v))
	}
}

// EscapeHTML is markupsafe.escape on text: what a host filter that
// builds markup (Safe) escapes the text it puts in with.
func EscapeHTML(s string) string { return strutil.EscapeHTML(s) }

// Escape returns v as markup: markup stays, anything else is str()'d and
// escaped (markupsafe.escape).
func Escape(v Value) Value {
	if v.k == String && v.safe {
		return v
	}
	return Safe(EscapeHTML(ToString(v)))
}

// Size is the byte size of a value for budget purposes: a string its
// length, a container 8 bytes a slot plus its items (a container referenced
// N times counted N times). It stops adding once it passes limit.
func Size(v Value, limit int64) int64 {
	n, _ := sizeOf(v, limit, nil)
	return n
}

// LeafSize is Size of a value that is neither a container nor an object
// (ok false for those): a string its length, any other value 8 bytes. It
// is inlined, so a caller sizing many values (a filter call's arguments)
// calls Size only for the ones that need the walk.
func LeafSize(v *Value) (n int64, ok bool) {
	switch v.k {
	case String:
		return int64(v.byteLen()), true
	case Object, List, Tuple, Dict:
		return 0, false
	}
	return 8, true
}

// sizeOf is Size; fixed reports whether the size can never change (no
// namespace inside), so a container may cache it.
func sizeOf(v Value, limit int64, active reprActive) (n int64, fixed bool) {
	if n, ok := LeafSize(&v); ok {
		return n, true
	}
	switch v.k {
	case Object:
		// a namespace's data counts like a dict's (each namespace once on
		// a path, so a namespace holding itself ends); it can change
		if ns, ok := v.ref.(*Namespace); ok {
			if active.has(ns) {
				return 8, false
			}
			n, _ := sizeOf(FromDict(ns.D), limit, append(active, ns))
			return 8 + n, false
		}
		// Another host object prints as its TemplateString (a host
		// artefact prints its whole content): count that, or formatting
		// one thousands of times copies megabytes on an 8-unit charge.
		// Not cached: the object decides what it prints.
		if ts, ok := v.ref.(interface{ TemplateString() string }); ok {
			return max(int64(len(ts.TemplateString())), 8), false
		}
		return 8, true
	case List, Tuple:
		ld := v.ref.(*ListData)
		if ld.size > 0 {
			return ld.size - 1, true
		}
		total, fixed := int64(len(ld.Items))*8, true
		for _, it := range ld.Items {
			if total > limit {
				return total, false
			}
			if it.k == List || it.k == Tuple || it.k == Dict || it.k == String || it.k == Object {
				n, f := sizeOf(it, limit-total, active)
				total += n
				fixed = fixed && f
			}
		}
		if fixed && total <= limit {
			ld.size = total + 1 // containers never change: the size holds
		}
		return total, fixed
	case Dict:
		d := v.DictData()
		if d.size > 0 {
			return d.size - 1, true
		}
		total, fixed := int64(d.Len())*16, true
		for i := 0; i < d.Len(); i++ {
			if total > limit {
				return total, false
			}
			kn, kf := sizeOf(d.keys[i], limit-total, active)
			vn, vf := sizeOf(d.vals[i], limit-total, active)
			total += kn + vn
			fixed = fixed && kf && vf
		}
		if fixed && total <= limit {
			d.size = total + 1
		}
		return total, fixed
	}
	panic("unreachable: LeafSize sizes every other kind")
}
