package builtins

import (
	"strings"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/value"
)

// pprint: Python's pprint.pformat (width 80, indent 1, dicts sorted by
// key). Like Python, each level measures the one-line repr of its subtree
// before deciding to break it; that measuring is charged node by node, and
// every piece is charged before it is written.

func init() {
	regFilter(fPprint, "pprint")
}

const ppWidth = 80

type pp struct {
	c  value.Ctx
	sb strutil.TextWriter
}

func (p *pp) write(s string) {
	p.c.Charge(int64(len(s)), "filter pprint")
	p.sb.WriteString(s)
}

// safeLess is pprint's _safe_key ordering: values that cannot be compared
// order by type name.
func safeLess(c value.Ctx, a, b value.Value) (less bool) {
	if (a.IsNumber() && b.IsNumber()) || (a.IsString() && b.IsString()) ||
		(a.Kind() == b.Kind() && (a.IsSeq())) {
		defer func() {
			if r := recover(); r != nil {
				e, ok := r.(*errs.Error)
				if !ok || (e.Kind != errs.Type && e.Kind != errs.Render) {
					panic(r)
				}
				less = typeKey(a) < typeKey(b)
			}
		}()
		return value.Compare(c, a, b, "<") == -1
	}
	return typeKey(a) < typeKey(b)
}

func typeKey(v value.Value) string { return "<class '" + v.TypeName() + "'>" }

// sortedItems returns a dict's entry indexes in pprint's order.
func ppOrder(c value.Ctx, d *value.DictData) []int {
	//scratch:ok one index an entry of a dict whose repr pprint charged before ordering it
	idx := make([]int, d.Len())
	for i := range idx {
		idx[i] = i
	}
	c.Charge(budget.Mul(int64(len(idx)), budget.Elem), "filter pprint")
	sortStable(idx, func(x, y int) bool {
		c.Charge(budget.Elem, "filter pprint")
		return safeLess(c, d.KeyAt(x), d.KeyAt(y))
	})
	return idx
}

// sortStable is an insertion-merge stable sort on ints with a less func.
func sortStable(a []int, less func(x, y int) bool) {
	if len(a) < 2 {
		return
	}
	m := len(a) / 2
	sortStable(a[:m], less)
	sortStable(a[m:], less)
	//scratch:ok merge scratch of the indexes ppOrder made, one int an entry already charged
	out := make([]int, 0, len(a))
	i, j := 0, m
	for i < m && j < len(a) {
		if less(a[j], a[i]) {
			//scratch:ok merge scratch of the indexes ppOrder made, one int an entry already charged
			out = append(out, a[j])
			j++
		} else {
			//scratch:ok merge scratch of the indexes ppOrder made, one int an entry already charged
			out = append(out, a[i])
			i++
		}
	}
	out = append(out, a[i:m]...)
	out = append(out, a[j:]...)
	copy(a, out)
}

// isGroupTuple reports groupby's (grouper, list) tuples, ranges and dict
// views: pprint has no printer for their classes, so it prints them with
// plain repr (dicts inside unsorted) and never breaks them.
func isGroupTuple(v value.Value) bool {
	if k := v.Kind(); k != value.List && k != value.Tuple {
		return false // asked of every node: most are neither
	}
	_, ok := v.TupleField("grouper")
	return ok || vops.ViewOf(v) != "" // ranges and dict views print as repr too
}

// reprLen measures the one-line safe repr in code points, charging as it
// walks; stop bounds the walk once the answer is known to exceed it.
func (p *pp) reprLen(v value.Value, stop int64) int64 {
	p.c.Charge(budget.Elem, "filter pprint")
	if isGroupTuple(v) {
		p.c.Charge(value.Size(v, p.c.Meter().Left()), "filter pprint")
		return int64(strutil.RuneLen(value.ReprIn(p.c, v)))
	}
	switch v.Kind() {
	case value.String:
		p.c.Charge(int64(len(v.Str())), "filter pprint")
		if v.IsSafe() {
			return int64(strutil.RuneLen(value.ReprIn(p.c, v)))
		}
		return int64(quotedLen(v.Str()))
	case value.List, value.Tuple:
		items := v.Items()
		n := int64(2)
		if v.Kind() == value.Tuple && len(items) == 1 {
			n++
		}
		for i, it := range items {
			if i > 0 {
				n += 2
			}
			if n > stop {
				return n
			}
			n += p.reprLen(it, stop-n)
		}
		return n
	case value.Dict:
		d := v.DictData()
		n := int64(2)
		for i := 0; i < d.Len(); i++ {
			if i > 0 {
				n += 2
			}
			if n > stop {
				return n
			}
			n += p.reprLen(d.KeyAt(i), stop-n) + 2
			n += p.reprLen(d.ValAt(i), stop-n)
		}
		return n
	}
	return int64(strutil.RuneLen(value.ReprIn(p.c, v)))
}

// safeRepr is pprint's _safe_repr: repr with dicts sorted. The leaves'
// reprs are written in place (a string made for each ran a third of
// pprint's time).
func (p *pp) safeRepr(sb *strutil.TextWriter, v value.Value) {
	if isGroupTuple(v) {
		value.WriteReprIn(sb, p.c, v)
		return
	}
	switch v.Kind() {
	case value.List, value.Tuple:
		items := v.Items()
		open, close := "[", "]"
		if v.Kind() == value.Tuple {
			open, close = "(", ")"
			if len(items) == 1 {
				close = ",)"
			}
		}
		sb.WriteString(open)
		for i, it := range items {
			if i > 0 {
				sb.WriteString(", ")
			}
			p.safeRepr(sb, it)
		}
		sb.WriteString(close)
	case value.Dict:
		d := v.DictData()
		sb.WriteByte('{')
		for i, idx := range ppOrder(p.c, d) {
			if i > 0 {
				sb.WriteString(", ")
			}
			p.safeRepr(sb, d.KeyAt(idx))
			sb.WriteString(": ")
			p.safeRepr(sb, d.ValAt(idx))
		}
		sb.WriteByte('}')
	default:
		value.WriteReprIn(sb, p.c, v)
	}
}

func (p *pp) repr(v value.Value) string {
	var sb strutil.TextWriter
	p.safeRepr(&sb, v)
	return sb.String()
}

// format is PrettyPrinter._format.
func (p *pp) format(v value.Value, indent, allowance, level int) {
	maxWidth := int64(ppWidth - indent - allowance)
	if depthLimit := 500; level > depthLimit {
		errs.Throw(errs.Render, "maximum recursion depth exceeded in pprint")
	}
	l := p.reprLen(v, maxWidth+1)
	if l > maxWidth {
		switch {
		case v.Kind() == value.Dict:
			p.dict(v.DictData(), indent, allowance, level+1)
			return
		case v.Kind() == value.List:
			p.write("[")
			p.items(v.Items(), indent, allowance+1, level+1)
			p.write("]")
			return
		case v.Kind() == value.Tuple && !isGroupTuple(v):
			end := ")"
			if len(v.Items()) == 1 {
				end = ",)"
			}
			p.write("(")
			p.items(v.Items(), indent, allowance+len(end), level+1)
			p.write(end)
			return
		case v.Kind() == value.String && !v.IsSafe():
			p.str(v.Str(), indent, allowance, level+1)
			return
		}
	}
	p.write(p.repr(v))
}

func (p *pp) dict(d *value.DictData, indent, allowance, level int) {
	p.write("{")
	if d.Len() > 0 {
		indent++
		delim := ",\n" + strings.Repeat(" ", indent)
		order := ppOrder(p.c, d)
		for i, idx := range order {
			last := i == len(order)-1
			rep := p.repr(d.KeyAt(idx))
			p.write(rep)
			p.write(": ")
			al := 1
			if last {
				al = allowance + 1
			}
			p.format(d.ValAt(idx), indent+strutil.RuneLen(rep)+2, al, level)
			if !last {
				p.write(delim)
			}
		}
	}
	p.write("}")
}

func (p *pp) items(items []value.Value, indent, allowance, level int) {
	indent++
	delim := ""
	for i, it := range items {
		p.write(delim)
		delim = ",\n" + strings.Repeat(" ", indent)
		al := 1
		if i == len(items)-1 {
			al = allowance
		}
		p.format(it, indent, al, level)
	}
}

// lineEndBytes counts the bytes of s that can end a line break of
// str.splitlines: the ASCII breaks, and the last bytes of U+0085 (C2 85),
// U+2028 and U+2029 (E2 80 A8, A9), so it is at least the breaks'
// number.
func lineEndBytes(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x85, 0xa8, 0xa9:
			n++
		}
	}
	return n
}

// lineEnd is where the line of str.splitlines(True) that starts at i
// ends (its break included).
func lineEnd(s string, i int) int {
	for i < len(s) {
		if b := s[i]; (b >= 0x20 && b < 0x80) || (b >= 0x80 && b != 0xc2 && b != 0xe2) {
			// no ASCII break is printable, and only C2 (U+0085) and E2
			// (U+2028, U+2029) begin a break past ASCII: any other byte
			// is stepped over undecoded (a continuation byte begins
			// nothing, so the breaks found are the decoder's)
			i++
			continue
		}
		r, w := decodeRune(s, i)
		i += w
		switch r {
		case '\n', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
			return i
		case '\r':
			if i < len(s) && s[i] == '\n' {
				i++
			}
			return i
		}
	}
	return i
}

// wordEnd is where the match of re.findall(r'\S*\s*', line) that
// starts at i ends.
func wordEnd(line string, j int) int {
	for j < len(line) {
		if b := line[j]; b < 0x80 || !spaceLead(b) {
			if b < 0x80 && asciiSpace(b) {
				break
			}
			j++ // a byte no space past ASCII begins with: not decoded
			continue
		}
		r, w := decodeRune(line, j)
		if pyIsSpace(r) {
			break
		}
		j += w
	}
	for j < len(line) {
		if b := line[j]; b < 0x80 {
			if !asciiSpace(b) {
				break
			}
			j++
			continue
		}
		r, w := decodeRune(line, j)
		if !pyIsSpace(r) {
			break
		}
		j += w
	}
	return j
}

// spaceLead reports the bytes a white space past ASCII can begin with
// (U+0085 and U+00A0: C2; U+1680: E1; U+2000-U+205F: E2; U+3000: E3).
func spaceLead(b byte) bool { return b == 0xc2 || b == 0xe1 || b == 0xe2 || b == 0xe3 }

// quotedLen is len(repr(s)) in code points, counted, not built.
func quotedLen(s string) int {
	n, _ := strutil.CountStrRepr(s).Len()
	return n
}

// strChunks is the chunking of PrettyPrinter._pprint_str: each chunk
// is a piece of s whose repr pprint writes on a line of its own, handed
// to emit with its repr's count. maxWidth and allowance are the ones the
// chunking reads (after level 1 widened them). Nothing is allocated: a
// line and a word part are spans of s, and the repr of a candidate
// (the current chunk and the next part) is counted from the counts of
// its pieces, each piece read once. (It built the repr of every line,
// of every candidate and of every chunk, and a slice of the parts and
// of the chunks: 2.7 to 4.6 bytes a unit on whitespace and on words.)
func strChunks(s string, maxWidth, allowance int, emit func(chunk string, r strutil.StrRepr)) {
	maxWidth1 := maxWidth
	for start := 0; start < len(s); {
		end := lineEnd(s, start)
		line := s[start:end]
		last := end == len(s)
		start = end
		if last {
			maxWidth1 -= allowance
		}
		// a code point's repr is one at least, and a code point four
		// bytes at most: a longer line cannot fit, and is not counted
		if len(line) <= 4*max(maxWidth1, 0) {
			lr := strutil.CountStrRepr(line)
			if n, _ := lr.Len(); n <= maxWidth1 {
				emit(line, lr)
				continue
			}
		}
		maxWidth2 := maxWidth
		cur, curEnd := 0, 0 // the current chunk: line[cur:curEnd]
		var cr strutil.StrRepr
		for i := 0; i < len(line); {
			j := wordEnd(line, i)
			pr := strutil.CountStrRepr(line[i:j])
			cand := cr.Plus(pr)
			if j == len(line) && last {
				maxWidth2 -= allowance
			}
			if n, _ := cand.Len(); n > maxWidth2 {
				if curEnd > cur {
					emit(line[cur:curEnd], cr)
				}
				cur, curEnd, cr = i, j, pr
			} else {
				curEnd, cr = j, cand
			}
			i = j
		}
		if curEnd > cur {
			emit(line[cur:curEnd], cr)
		}
	}
}

// str is PrettyPrinter._pprint_str: long strings become adjacent
// literals split at whitespace.
func (p *pp) str(s string, indent, allowance, level int) {
	p.c.Charge(budget.Mul(int64(len(s)), 4), "filter pprint")
	// each line is a chunk at least, written with the newline and the
	// indent before it: charged 128 units a line before the lines are
	// split (charged by bytes alone, a text of short lines allocated 6
	// bytes a unit: the cost search's pprint SL). The count is an upper
	// bound read from the bytes a line break can end in.
	if n := lineEndBytes(s); n > 0 {
		p.c.Charge(budget.Mul(int64(n)+1, 128), "filter pprint")
	}
	if level == 1 {
		indent++
		allowance++
	}
	maxWidth := ppWidth - indent
	// the chunks are counted first, so the output is sized once (grown
	// by a quarter at a time, a long one was allocated five times over)
	chunks, size := 0, 0
	first := ""
	strChunks(s, maxWidth, allowance, func(ch string, r strutil.StrRepr) {
		if chunks == 0 {
			first = ch
		}
		chunks++
		_, b := r.Len()
		size += b
	})
	if chunks <= 1 {
		p.c.Charge(int64(size), "filter pprint")
		// sized once here too: a line of 5 M control bytes (a 20 MB
		// repr) grew through its arrays to 89 MB peak and 500 ms
		p.sb.Grow(size)
		strutil.WriteQuoted(&p.sb, first)
		return
	}
	// the whole output charged before it is sized: what the chunks
	// write, and a newline and the indent before each but the first
	total := budget.Add(int64(size), budget.Mul(int64(chunks-1), int64(1+indent)))
	if level == 1 {
		total = budget.Add(total, 2) // the parentheses
	}
	p.c.Charge(total, "filter pprint")
	p.sb.Grow(int(total))
	if level == 1 {
		p.sb.WriteByte('(')
	}
	i := 0
	strChunks(s, maxWidth, allowance, func(ch string, _ strutil.StrRepr) {
		if i > 0 {
			p.sb.WriteByte('\n')
			p.sb.WriteRepeat(" ", indent)
		}
		i++
		strutil.WriteQuoted(&p.sb, ch)
	})
	if level == 1 {
		p.sb.WriteByte(')')
	}
}

func fPprint(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "do_pprint")
	p := &pp{c: c}
	p.format(v, 0, 0, 0)
	return value.FromString(p.sb.String())
}
