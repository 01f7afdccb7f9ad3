package builtins

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/value"
)

// Sequence filters that draw, pick or reshape items. Every item is charged
// when drawn; batch, slice and items return lazy generators (filters_gen.go).

func init() {
	regFilter(fFirst, "first")
	regFilter(fLast, "last")
	regFilter(fLength, "length", "count")
	regFilter(fList, "list")
	regFilter(fReverse, "reverse")
	regFilter(fRandom, "random")
	regFilter(fBatch, "batch")
	regFilter(fSlice, "slice")
	regFilter(fJoin, "join")
	regFilter(fItems, "items")
	regFilter(fDefault, "default", "d")
	regFilter(fAttr, "attr")
	regFilter(fSum, "sum")
}

func emptyUndef(msg string) value.Value { return value.UndefHint("", msg) }

func fFirst(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "do_first")
	switch v.Kind() {
	case value.String:
		s := v.Str()
		if s == "" {
			break
		}
		_, w := decodeRune(s, 0)
		return value.FromString(s[:w]) // iterating Markup yields str
	default:
		if o, ok := v.ObjectImpl().(*iterObj); ok && v.Kind() == value.Object {
			if it, ok := o.at(c, 0); ok { // next(iter(gen)) draws one item
				c.Charge(budget.Elem, "filter first")
				return it
			}
			break
		}
		items := draw1(c, v)
		if len(items) > 0 {
			c.Charge(budget.Elem, "filter first")
			return items[0]
		}
	}
	return emptyUndef("No first item, sequence was empty.")
}

// draw1 returns the items without charging them all (first and last
// touch one item).
func draw1(c value.Ctx, v value.Value) []value.Value {
	if v.IsUndefined() && !c.Strict() {
		return nil
	}
	return value.Iterate(c, v)
}

func fLast(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "do_last")
	switch v.Kind() {
	case value.String:
		s := v.Str()
		if s == "" {
			break
		}
		i := len(s) - 1
		for i > 0 && s[i]&0xC0 == 0x80 {
			i--
		}
		return value.StringLike(v, s[i:]) // reversed() indexes: Markup.__getitem__
	case value.List, value.Tuple, value.Dict, value.Undefined:
		items := draw1(c, v)
		if len(items) > 0 {
			c.Charge(budget.Elem, "filter last")
			return items[len(items)-1]
		}
	default:
		errs.Throwf(errs.Type, "%s object is not reversible", errs.Quote(v.TypeName()))
	}
	return emptyUndef("No last item, sequence was empty.")
}

func fLength(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "len")
	if v.IsUndefined() && c.Strict() {
		vops.ThrowUndefined(v)
	}
	n, ok := value.Length(c, v)
	if !ok {
		errs.Throwf(errs.Type, "object of type %s has no len()", errs.Quote(v.TypeName()))
	}
	return value.FromInt(int64(n))
}

// copyItems charges and copies items into a fresh list.
func copyItems(c value.Ctx, items []value.Value, op string) []value.Value {
	c.Charge(budget.Mul(int64(len(items)), budget.Slot), op)
	return vmem.Append([]value.Value(nil), items...)
}

func fList(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "list")
	items := draw(c, v, "filter list")
	if _, ok := v.ObjectImpl().(*iterObj); ok && v.Kind() == value.Object {
		// a drained iterator's items never change again: the list holds
		// them as they are, with no copy (charged as one all the same)
		c.Charge(budget.Mul(int64(len(items)), budget.Slot), "filter list")
		return value.NewList(items[:len(items):len(items)])
	}
	return value.NewList(copyItems(c, items, "filter list"))
}

func fReverse(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "do_reverse")
	switch v.Kind() {
	case value.String:
		s := v.Str()
		// read, then written a code point at a time, as concatenation
		// counts twice (one unit a byte ran 4 ns and 2.3 bytes a unit)
		c.Charge(budget.Mul(int64(len(s)), 2), "filter reverse")
		// a byte at a time into a TextWriter (inlined stores; a write of
		// each code point through a strings.Builder ran 3 ns a byte)
		var b strutil.TextWriter
		b.Grow(len(s))
		for i := len(s); i > 0; {
			if c := s[i-1]; c < 0x80 { // ASCII: itself
				b.WriteByte(c)
				i--
				continue
			}
			j := i - 1
			for j > 0 && s[j]&0xC0 == 0x80 && i-j < 4 {
				j--
			}
			for k := j; k < i; k++ {
				b.WriteByte(s[k])
			}
			i = j
		}
		return value.StringLike(v, b.String())
	case value.List, value.Tuple, value.Dict, value.Undefined, value.Object:
		if v.Kind() == value.Object {
			if _, ok := v.ObjectImpl().(value.Iterable); !ok {
				break
			}
		}
		items := copyItems(c, draw(c, v, "filter reverse"), "filter reverse")
		for i, j := 0, len(items)-1; i < j; i, j = i+1, j-1 {
			items[i], items[j] = items[j], items[i]
		}
		// reversed() gives an iterator; a generator is listed first
		switch v.Kind() {
		case value.Object:
			return value.NewList(items)
		case value.Dict:
			return newIterator("dict_reversekeyiterator", items)
		case value.Undefined, value.Tuple:
			// a tuple has no __reversed__: reversed() walks it by index
			return newIterator("reversed", items)
		}
		switch vops.ViewOf(v) {
		case "range":
			return newIterator("range_iterator", items)
		case "dict_keys":
			return newIterator("dict_reversekeyiterator", items)
		case "dict_values":
			return newIterator("dict_reversevalueiterator", items)
		case "dict_items":
			return newIterator("dict_reverseitemiterator", items)
		}
		return newIterator("list_reverseiterator", items)
	}
	errs.Throw(errs.Render, "argument must be iterable")
	return value.Value{}
}

func fRandom(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "do_random")
	switch v.Kind() {
	case value.String:
		// the n-th character found in place: no []rune copy of the text
		str := scanRecv(c, "filter random", v, 1)
		if n := v.RuneCount(); n > 0 {
			k := int(c.Rand() % uint64(n))
			for _, r := range str {
				if k == 0 {
					return value.StringLike(v, string(r))
				}
				k--
			}
		}
	case value.List, value.Tuple:
		items := v.Items()
		if len(items) > 0 {
			if vops.IsDictView(v) {
				// random.choice indexes it: a dict view has no __getitem__
				errs.Throwf(errs.Type, "%s object is not subscriptable", errs.Quote(v.TypeName()))
			}
			return items[c.Rand()%uint64(len(items))]
		}
	case value.Undefined:
		if c.Strict() {
			vops.ThrowUndefined(v)
		}
	case value.Dict:
		if v.DictData().Len() > 0 {
			// random.choice indexes the dict by position, a missing key
			errs.Throw(errs.Render, "random needs a sequence, not a dict")
		}
	default:
		errs.Throwf(errs.Type, "object of type %s has no len()", errs.Quote(v.TypeName()))
	}
	return emptyUndef("No random item, sequence was empty.")
}

// fBatch is do_batch; the padding is charged before it is made.
func fBatch(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_batch", "linecount", "fill_with")
	if a[0].IsMissing() {
		errs.Throw(errs.Type, "do_batch() missing 1 required positional argument: 'linecount'")
	}
	return newEagerGen("do_batch", func(c value.Ctx) []value.Value {
		// Python compares len(tmp) == linecount, so a float count works
		var n float64
		if a[0].Kind() == value.Float {
			n = a[0].Float()
		} else {
			n = float64(argInt("batch", a[0], 0))
		}
		fill := !isNoneOrMissing(a[1])
		items := draw(c, v, "filter batch")
		// every item is copied into a batch: a slot each, the batches sized
		// up front (an element a batch alone allocated 2.6 bytes a unit)
		c.Charge(budget.Mul(int64(len(items)), budget.Slot), "filter batch")
		size := len(items)
		if n >= 1 && n < float64(size) {
			size = int(math.Ceil(n))
		}
		var out []value.Value
		var tmp []value.Value
		for _, it := range items {
			if float64(len(tmp)) == n {
				c.Charge(budget.Elem, "filter batch")
				out = append(vmem.Grown(out), value.NewList(tmp))
				tmp = nil
			}
			if tmp == nil {
				tmp = vmem.Fresh(make([]value.Value, 0, size))
			}
			tmp = append(vmem.Grown(tmp), it)
		}
		if len(tmp) > 0 {
			if fill && float64(len(tmp)) < n {
				if n != math.Trunc(n) {
					errs.Throw(errs.Type, "can't multiply sequence by non-int of type 'float'")
				}
				if n > 1<<53 {
					c.Charge(math.MaxInt64, "filter batch") // past any budget
				}
				pad := int64(n) - int64(len(tmp))
				c.Charge(budget.Mul(pad, budget.Elem+budget.Slot), "filter batch")
				for ; pad > 0; pad-- {
					tmp = append(vmem.Grown(tmp), a[1])
				}
			}
			out = append(out, value.NewList(tmp))
		}
		return out
	})
}

// fSlice is do_slice: n columns, the first ones one longer, optionally
// padded. The column count is charged before any column is made.
func fSlice(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_slice", "slices", "fill_with")
	if a[0].IsMissing() {
		errs.Throw(errs.Type, "do_slice() missing 1 required positional argument: 'slices'")
	}
	return newEagerGen("sync_do_slice", func(c value.Ctx) []value.Value {
		slices := argInt("slice", a[0], 0)
		fill := !isNoneOrMissing(a[1])
		seq := draw(c, v, "filter slice")
		length := int64(len(seq))
		if slices == 0 {
			zeroDivision("integer division or modulo by zero")
		}
		if slices < 0 {
			return nil
		}
		c.Charge(budget.Add(budget.Mul(slices, budget.Elem+budget.Slot), budget.Mul(length, budget.Slot)), "filter slice")
		per, extra := length/slices, length%slices
		out := vmem.Fresh(make([]value.Value, 0, slices))
		offset := int64(0)
		for n := int64(0); n < slices; n++ {
			start := offset + n*per
			if n < extra {
				offset++
			}
			end := offset + (n+1)*per
			col := vmem.Append([]value.Value(nil), seq[start:end]...)
			if fill && n >= extra {
				col = append(vmem.Grown(col), a[1])
			}
			if col == nil {
				col = []value.Value{}
			}
			out = append(vmem.Grown(out), value.NewList(col))
		}
		return out
	})
}

func zeroDivision(msg string) {
	e := errs.New(errs.Render, msg)
	e.PyError = "ZeroDivisionError"
	panic(e)
}

// fJoin is do_join, with Jinja's markup rule under autoescape: if any
// item is markup, plain items and the separator are escaped. The joined
// size is charged before the join.
func fJoin(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_join", "d", "attribute")
	sep := value.EmptyString
	if !a[0].IsMissing() {
		sep = a[0]
	}
	items := draw(c, v, "filter join")
	var path attrPath
	byAttr := !isNoneOrMissing(a[1])
	if byAttr {
		path = parseAttrPath(c, a[1])
		if len(items) == 0 {
			refuseUnresolved(path)
		}
	}
	// A string or a number is written as it is found (looked up, with
	// attribute=); anything else prints as its repr, each sized and
	// charged before it is built. The values looked up are not kept: a
	// list of them was 48 bytes an item.
	var small [8]string // the parts of a short list, on the stack
	var strs []string
	if len(items) <= len(small) {
		strs = small[:len(items)]
	} else {
		//scratch:ok one string header (or flag) an item of a list that exists; the joined text is charged before it is built
		strs = make([]string, len(items))
	}
	var safe []bool // which items are markup, made at the first
	runes := 0      // the parts' code points
	for i, it := range items {
		if byAttr {
			it = path.get(c, it, nil)
		}
		if it.IsString() || it.IsNumber() {
			strs[i] = strOf(c, it)
			if it.IsString() {
				runes += it.RuneCount()
			} else {
				runes += strutil.RuneLen(strs[i])
			}
			if it.IsSafe() {
				if safe == nil {
					//scratch:ok one string header (or flag) an item of a list that exists; the joined text is charged before it is built
					safe = make([]bool, len(items))
				}
				safe[i] = true
			}
			continue
		}
		// a repr, charged (twice its size, and the 8 slots an item the
		// lists of them cost when they were kept) before it is built.
		// The items printed as one were kept, an index and a value each
		// in lists grown by doubling, to be built after all were
		// charged: 2.5-2.8 bytes a unit on a list of dicts of 16,385 and
		// 30,000 items (the cost search's join LD ('b') and (N))
		c.Charge(budget.Add(budget.Mul(value.Size(it, c.Meter().Left()), 2), 8*budget.Slot), "filter join")
		strs[i] = strOf(c, it)
		runes += strutil.RuneLen(strs[i])
	}
	var total int64
	for _, s := range strs {
		total = budget.Add(total, int64(len(s)))
	}
	escape := c.Autoescape() && (sep.IsSafe() || safe != nil)
	sepStr := pyStr(c, sep)
	if escape {
		total = budget.Mul(total, budget.EscapeFactor)
		sepStr = vops.EscapeStr(softStr(c, sep))
	}
	if len(strs) > 1 {
		total = budget.Add(total, budget.Mul(int64(len(strs)-1), int64(len(sepStr))))
	}
	c.Charge(total, "filter join")
	if escape {
		for i := range strs {
			if safe == nil || !safe[i] {
				strs[i] = value.EscapeHTML(strs[i])
			}
		}
		return value.Safe(strings.Join(strs, sepStr))
	}
	return joinedCounted(strs, sepStr, runes)
}

// joinedCounted is strings.Join(parts, sep) with its code points counted
// from the parts' (runes) and the separator's, not by a scan of the
// result (the scan was three quarters of a join's time): the counts add
// up unless a part after the first or the separator begins with a
// continuation byte, which an invalid byte before it could take in, and
// then the result is counted.
func joinedCounted(parts []string, sep string, runes int) value.Value {
	s := strings.Join(parts, sep)
	if len(parts) < 2 {
		return value.StringLikeCounted(value.EmptyString, s, runes)
	}
	if sep != "" && !utf8.RuneStart(sep[0]) {
		return value.FromString(s)
	}
	for _, p := range parts[1:] {
		if p != "" && !utf8.RuneStart(p[0]) {
			return value.FromString(s)
		}
	}
	return value.StringLikeCounted(value.EmptyString, s, runes+(len(parts)-1)*strutil.RuneLen(sep))
}

func fItems(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "do_items")
	return newEagerGen("do_items", func(c value.Ctx) []value.Value {
		if v.IsUndefined() {
			return nil // strict undefined too
		}
		if v.Kind() != value.Dict {
			errs.Throw(errs.Type, "Can only get item pairs from a mapping.")
		}
		d := v.DictData()
		// a (key, value) tuple a pair, charged what it allocates
		c.Charge(budget.Mul(int64(d.Len()), vmem.PairBytes), "filter items")
		return value.ItemPairs(d)
	})
}

func fDefault(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_default", "default_value", "boolean")
	dv := value.EmptyString
	if !a[0].IsMissing() {
		dv = a[0]
	}
	if v.IsUndefined() || (argBool(a[1], false) && !v.Truth()) {
		return dv
	}
	return v
}

// fAttr is do_attr: an attribute only, never an item (a dict's keys are
// not its attributes), through the policy chokepoint.
func fAttr(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_attr", "name")
	if a[0].IsMissing() {
		errs.Throw(errs.Type, "do_attr() missing 1 required positional argument: 'name'")
	}
	if !a[0].IsString() {
		errs.Throw(errs.Type, "attribute name must be string")
	}
	name := a[0].Str()
	if v.Kind() == value.Dict && !strings.HasPrefix(name, "_") {
		m, st, reason := LookupMethod(c, v, name)
		switch st {
		case MethodFound:
			return m
		case MethodRefused:
			errs.Throw(errs.Security, reason)
		}
		return value.UndefAttr("dict", name)
	}
	return c.Attr(v, name)
}

// fSum is Python's sum(iterable, start) through the engine's +, which
// charges each addition (summing lists is quadratic, charged as spent)
// and refuses integers wider than 64 bits.
func fSum(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_sum", "attribute", "start")
	rv := value.FromInt(0)
	if !a[1].IsMissing() {
		rv = a[1]
	}
	if rv.IsString() {
		errs.Throw(errs.Type, "sum() can't sum strings [use ''.join(seq) instead]")
	}
	var path attrPath
	if !isNoneOrMissing(a[0]) {
		path = parseAttrPath(c, a[0])
	}
	items := draw(c, v, "filter sum")
	if len(items) == 0 {
		refuseUnresolved(path)
	}
	for _, it := range items {
		if path != nil {
			it = path.get(c, it, nil)
		}
		rv = value.Add(c, rv, it)
	}
	return rv
}
