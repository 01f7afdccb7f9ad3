package builtins

import (
	"maps"
	"strings"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/policy"
)

// The methods of str. Indices and widths count code points, as Python does;
// strings are UTF-8 underneath, so cpOffset converts.

// cpOffset returns the byte offset of code point i of s (len(s) past the end).
func cpOffset(s string, i int64) int {
	if i <= 0 {
		return 0
	}
	if asciiOnly(s) {
		if i > int64(len(s)) {
			return len(s)
		}
		return int(i)
	}
	n := int64(0)
	for off := range s {
		if n == i {
			return off
		}
		n++
	}
	return len(s)
}

// cpWindow is s[start:end] in code points, s having n of them: the ends
// of s are found without a walk (a search over the whole string, the
// default, walked it once more for its end: 1.5 ns a unit).
func cpWindow(s string, n, start, end int64) string {
	lo, hi := 0, len(s)
	if start > 0 {
		lo = cpOffset(s, start)
	}
	if end < n {
		hi = lo + cpOffset(s[lo:], end-start)
	}
	return s[lo:hi]
}

// scanRecv charges reading recv's text times over and the string
// arguments ss, a unit a byte, then returns the text. The charge comes
// before the text is read: a lazy receiver (a repetition, a long
// concatenation) whose scan the budget refuses is never built, where
// building it first touched up to the budget's bytes of fresh memory
// (the hostile corpus's budget/split: 90 MB, 23,000 page faults, before the
// refusal).
func scanRecv(c value.Ctx, op string, recv value.Value, times int64, ss ...string) string {
	n := budget.Mul(int64(recv.ByteLen()), times)
	for _, s := range ss {
		n += int64(len(s))
	}
	c.Charge(n, op)
	return recv.Str()
}

// caseMethod builds upper/lower/..., charged caseCost a byte.
func caseMethod(name string, f func(string) string) methodFunc {
	return func(c value.Ctx, recv value.Value, args *value.Args) value.Value {
		posArgs(name, args, 0, 0)
		c.Charge(budget.Mul(int64(recv.ByteLen()), caseCost), "str."+name)
		return caseMapped(recv, f(recv.Str()))
	}
}

func predicate(name string, empty bool, f func(string) bool) methodFunc {
	return func(c value.Ctx, recv value.Value, args *value.Args) value.Value {
		posArgs(name, args, 0, 0)
		s := scanRecv(c, "str."+name, recv, 1)
		if s == "" {
			return value.FromBool(empty)
		}
		return value.FromBool(f(s))
	}
}

func runePred(f func(rune) bool) func(string) bool {
	return func(s string) bool { return allRunes(s, f) }
}

// searchArgs reads (sub, start, end) and returns the searched window.
func searchArgs(c value.Ctx, name string, recv value.Value, args *value.Args) (s, sub string, n, start, end int64, ok bool) {
	a := posArgs(name, args, 1, 3)
	sub = strArg(name, a[0])
	// the window's offsets are found (a walk when start or end is
	// given), it is searched, and a match's position counted: up to two
	// passes over s (one ran 2 ns a unit); s's own count is its value's
	s = scanRecv(c, "str."+name, recv, 2, sub)
	n = int64(value.StrLen(c, recv))
	start, end = adjust(optIndex(a[1], 0), optIndex(a[2], n), n)
	return s, sub, n, start, end, start <= end && start <= n
}

func strCount(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	s, sub, n, start, end, ok := searchArgs(c, "count", recv, args)
	if !ok {
		return value.FromInt(0)
	}
	if sub == "" {
		return value.FromInt(end - start + 1)
	}
	w := cpWindow(s, n, start, end)
	return value.FromInt(countCharged(c, w, sub, matchUnits, "str.count"))
}

func findMethod(name string, last, raise bool) methodFunc {
	return func(c value.Ctx, recv value.Value, args *value.Args) value.Value {
		s, sub, n, start, end, ok := searchArgs(c, name, recv, args)
		res := int64(-1)
		if ok && end-start >= int64(strutil.RuneLen(sub)) {
			w := cpWindow(s, n, start, end)
			var i int
			if last {
				i = strutil.LastIndex(w, sub)
			} else {
				i = strutil.Index(w, sub)
			}
			switch {
			case i >= 0 && i > len(w)/2:
				// w holds end-start code points: count the shorter
				// side of the match (rfind matches near the end)
				res = end - int64(strutil.RuneLen(w[i:]))
			case i >= 0:
				res = start + int64(strutil.RuneLen(w[:i]))
			}
		}
		if res < 0 && raise {
			valueError("substring not found")
		}
		return value.FromInt(res)
	}
}

func affixMethod(name string, suffix bool) methodFunc {
	return func(c value.Ctx, recv value.Value, args *value.Args) value.Value {
		a := posArgs(name, args, 1, 3)
		var cands []string
		switch a[0].Kind() {
		case value.String:
			cands = []string{a[0].Str()}
		case value.Tuple:
			for _, it := range a[0].Items() {
				if !it.IsString() {
					typeError("tuple for " + name + " must only contain str, not " + it.TypeName())
				}
				//scratch:ok one string header an item of the tuple argument, a value that exists
				cands = append(vmem.Grown(cands), it.Str())
			}
		default:
			typeError(name + " first arg must be str or a tuple of str, not " + pyTypeName(a[0]))
		}
		s := scanRecv(c, "str."+name, recv, 1)
		c.Charge(budget.Mul(int64(len(cands)), budget.Elem), "str."+name)
		n := int64(value.StrLen(c, recv))
		start, end := adjust(optIndex(a[1], 0), optIndex(a[2], n), n)
		if start > end {
			return value.False // also covers start past the end
		}
		w := cpWindow(s, n, start, end)
		for _, p := range cands {
			if (suffix && strings.HasSuffix(w, p)) || (!suffix && strings.HasPrefix(w, p)) {
				return value.True
			}
		}
		return value.False
	}
}

// padArgs reads (width[, fillchar]) for center/ljust/rjust and charges the
// padded size before anything is built.
func padArgs(c value.Ctx, name string, recv value.Value, args *value.Args) (s string, n, pad int64, fill string) {
	a := posArgs(name, args, 1, 2)
	width := intArg(a[0])
	fill = " "
	if !a[1].IsMissing() {
		if !a[1].IsString() || strutil.RuneLen(a[1].Str()) != 1 {
			typeError("The fill character must be exactly one character long")
		}
		fill = a[1].Str()
	}
	// the code points counted (a scan), then the result written, charged
	// before a lazy receiver is built
	n = int64(value.StrLen(c, recv))
	if width > n {
		pad = width - n
	}
	c.Charge(budget.Add(int64(recv.ByteLen()), budget.Mul(pad, int64(len(fill)))), "str."+name)
	return recv.Str(), n, pad, fill
}

// padded is left fills, s (of n code points), then right fills (one
// code point each), built once (the Repeats and the concatenation
// allocated the result twice: 1.8 bytes a unit), the fills a block at a
// time (a write a fill ran 2.5 ns a unit), its code points known.
func padded(recv value.Value, s string, n, left, right int64, fill string) value.Value {
	if left+right == 0 {
		return recv
	}
	var sb strutil.TextWriter
	sb.Grow(int(left+right)*len(fill) + len(s))
	sb.WriteRepeat(fill, int(left))
	sb.WriteString(s)
	sb.WriteRepeat(fill, int(right))
	return value.StringLikeCounted(recv, sb.String(), int(n+left+right))
}

func strCenter(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	s, n, pad, fill := padArgs(c, "center", recv, args)
	left := pad/2 + (pad & (n + pad) & 1)
	return padded(recv, s, n, left, pad-left, fill)
}

func strLjust(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	s, n, pad, fill := padArgs(c, "ljust", recv, args)
	return padded(recv, s, n, 0, pad, fill)
}

func strRjust(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	s, n, pad, fill := padArgs(c, "rjust", recv, args)
	return padded(recv, s, n, pad, 0, fill)
}

func strZfill(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	a := posArgs("zfill", args, 1, 1)
	width := intArg(a[0])
	n := int64(value.StrLen(c, recv))
	if width <= n {
		return value.StringLike(recv, scanRecv(c, "str.zfill", recv, 1))
	}
	c.Charge(budget.Add(int64(recv.ByteLen()), width-n), "str.zfill")
	s := recv.Str()
	// the zeros go after a sign; written once into a result sized once
	// (a Repeat and a concatenation allocated it twice: 1.6 bytes a unit)
	sign := 0
	if s != "" && (s[0] == '+' || s[0] == '-') {
		sign = 1
	}
	var sb strutil.TextWriter
	sb.Grow(len(s) + int(width-n))
	sb.WriteString(s[:sign])
	sb.WriteRepeat("0", int(width-n))
	sb.WriteString(s[sign:])
	return value.StringLikeCounted(recv, sb.String(), int(width))
}

func strExpandtabs(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	var a [1]value.Value
	args.Bind("expandtabs", []string{"tabsize"}, a[:])
	tab := int64(8)
	if !a[0].IsMissing() {
		tab = intArg(a[0])
	}
	// the tabs are counted in a lazy receiver's parts: it is built only
	// once the expansion is charged
	tabs := int64(value.CountByte(recv, '\t'))
	step := tab
	if step < 0 {
		step = 0
	}
	est := budget.Add(int64(recv.ByteLen()), budget.Mul(tabs, step))
	// each code point read, then written (a unit a byte ran 2 ns a unit)
	c.Charge(budget.Add(est, int64(recv.ByteLen())), "str.expandtabs")
	s := recv.Str()
	// sized once and padded in place: a Repeat a tab and the doubling
	// allocated 5 bytes a unit charged; the text between tabs is copied
	// a run at a time, the spaces a block at a time (a write a code
	// point or a space ran 3 ns a unit)
	var sb strutil.TextWriter
	sb.Grow(int(est))
	col, start := int64(0), 0
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b == '\t':
			sb.WriteString(s[start:i])
			start = i + 1
			if tab > 0 {
				k := tab - col%tab
				sb.WriteRepeat(" ", int(k))
				col += k
			}
		case b == '\n' || b == '\r':
			col = 0
		case b&0xc0 != 0x80:
			col++ // a code point starts here (any byte but a continuation)
		}
	}
	sb.WriteString(s[start:])
	return value.StringLike(recv, sb.String())
}

func strReplace(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	a := posArgs("replace", args, 2, 3)
	if r, ok := regexArg(a[0]); ok {
		return value.StringLike(recv, r.jsReplace(c, "str.replace", recv.Str(), strArg("replace", a[1])))
	}
	old, nw := strArg("replace", a[0]), strArg("replace", a[1])
	count := int64(-1)
	if !a[2].IsMissing() {
		count = intArg(a[2])
	}
	s := scanRecv(c, "str.replace", recv, 1, old)
	var occ int64
	if old == "" {
		occ = int64(strutil.RuneLen(s)) + 1 // before every character and at the end
	} else {
		// each match also costs a search and a copy of its own (see the
		// replace filter), charged while the matches are counted
		occ = countCharged(c, s, old, matchUnits, "str.replace")
	}
	if count >= 0 && count < occ {
		occ = count
	}
	grow := int64(len(nw)) - int64(len(old))
	if grow < 0 {
		grow = 0
	}
	extra := int64(0)
	if old == "" {
		extra = budget.Mul(occ, matchUnits)
	}
	c.Charge(budget.Add(int64(len(s)), budget.Add(extra, budget.Mul(occ, grow))), "str.replace")
	return value.StringLike(recv, strutil.Replace(s, old, nw, int(occ)))
}

// stripSet is Python's strip argument: nil means whitespace.
func stripArgs(c value.Ctx, name string, recv value.Value, args *value.Args) (string, func(rune) bool) {
	a := posArgs(name, args, 0, 1)
	s := scanRecv(c, "str."+name, recv, 1)
	if a[0].IsMissing() || a[0].IsNone() {
		return s, uniSpace
	}
	chars := strArg(name, a[0])
	chargeStripChars(c, s, chars, "str."+name)
	return s, runeSet(c, chars, "str."+name)
}

func strStrip(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	s, f := stripArgs(c, "strip", recv, args)
	return value.StringLike(recv, strings.TrimRightFunc(strings.TrimLeftFunc(s, f), f))
}

func strLstrip(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	s, f := stripArgs(c, "lstrip", recv, args)
	return value.StringLike(recv, strings.TrimLeftFunc(s, f))
}

func strRstrip(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	s, f := stripArgs(c, "rstrip", recv, args)
	return value.StringLike(recv, strings.TrimRightFunc(s, f))
}

func affixRemove(name string, suffix bool) methodFunc {
	return func(c value.Ctx, recv value.Value, args *value.Args) value.Value {
		a := posArgs(name, args, 1, 1)
		p := strArg(name, a[0])
		s := scanRecv(c, "str."+name, recv, 1, p)
		// markupsafe does not wrap these: the result is a plain str.
		if suffix {
			return value.FromString(strings.TrimSuffix(s, p))
		}
		return value.FromString(strings.TrimPrefix(s, p))
	}
}

func partitionMethod(name string, last bool) methodFunc {
	return func(c value.Ctx, recv value.Value, args *value.Args) value.Value {
		a := posArgs(name, args, 1, 1)
		sep := strArg(name, a[0])
		if sep == "" {
			valueError("empty separator")
		}
		s := scanRecv(c, "str."+name, recv, 2, sep)
		chargeElems(c, 3, "str."+name)
		var i int
		if last {
			i = strutil.LastIndex(s, sep)
		} else {
			i = strutil.Index(s, sep)
		}
		parts := [3]string{s, "", ""}
		if last {
			parts = [3]string{"", "", s}
		}
		if i >= 0 {
			parts = [3]string{s[:i], sep, s[i+len(sep):]}
		}
		return value.NewTuple([]value.Value{value.StringLike(recv, parts[0]), value.StringLike(recv, parts[1]), value.StringLike(recv, parts[2])})
	}
}

func strJoin(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	a := posArgs("join", args, 1, 1)
	items := value.Iterate(c, a[0])
	// sized from the texts' lengths: a lazy separator or item is built
	// only once the join is charged
	size := budget.Mul(int64(len(items)), int64(recv.ByteLen()))
	for i, it := range items {
		if recv.IsSafe() {
			size = budget.Add(size, budget.Mul(value.Size(it, c.Meter().Left()), budget.EscapeFactor))
			continue
		}
		if !it.IsString() {
			typeError("sequence item " + itoa(int64(i)) + ": expected str instance, " + it.TypeName() + " found")
		}
		size = budget.Add(size, int64(it.ByteLen()))
	}
	c.Charge(budget.Add(size, budget.Mul(int64(len(items)), budget.Elem)), "str.join")
	sep := recv.Str()
	// the items (escaped first under Markup) are written into a result
	// sized once, not a growing series (which allocated 3.3 bytes a unit)
	strs := make([]string, len(items))
	exact := len(sep) * max(len(items)-1, 0)
	for i, it := range items {
		if recv.IsSafe() {
			strs[i] = value.EscapeIn(c, it).Str()
		} else {
			strs[i] = it.Str()
		}
		exact += len(strs[i])
	}
	var sb strings.Builder
	sb.Grow(exact)
	for i, x := range strs {
		if i > 0 {
			sb.WriteString(sep)
		}
		sb.WriteString(x)
	}
	return value.StringLike(recv, sb.String())
}

func itoa(n int64) string { return value.ToString(value.FromInt(n)) }

func init() {
	m := map[string]methodFunc{
		"capitalize":   caseMethod("capitalize", PyCapitalize),
		"casefold":     caseMethod("casefold", PyCasefold),
		"lower":        caseMethod("lower", PyLower),
		"upper":        caseMethod("upper", PyUpper),
		"swapcase":     caseMethod("swapcase", PySwapcase),
		"title":        caseMethod("title", PyTitle),
		"center":       strCenter,
		"ljust":        strLjust,
		"rjust":        strRjust,
		"zfill":        strZfill,
		"count":        strCount,
		"find":         findMethod("find", false, false),
		"rfind":        findMethod("rfind", true, false),
		"index":        findMethod("index", false, true),
		"rindex":       findMethod("rindex", true, true),
		"startswith":   affixMethod("startswith", false),
		"endswith":     affixMethod("endswith", true),
		"removeprefix": affixRemove("removeprefix", false),
		"removesuffix": affixRemove("removesuffix", true),
		"expandtabs":   strExpandtabs,
		"replace":      strReplace,
		"strip":        strStrip,
		"lstrip":       strLstrip,
		"rstrip":       strRstrip,
		"partition":    partitionMethod("partition", false),
		"rpartition":   partitionMethod("rpartition", true),
		"join":         strJoin,
		"split":        splitMethod("split", false),
		"rsplit":       splitMethod("rsplit", true),
		"splitlines":   strSplitlines,
		"translate":    strTranslate,
		"maketrans":    strMaketrans,
		"format":       strFormat,
		"format_map":   strFormatMap,
		"isalnum":      predicate("isalnum", false, runePred(pyIsAlnum)),
		"isalpha":      predicate("isalpha", false, runePred(pyIsAlpha)),
		"isascii":      predicate("isascii", true, asciiOnly),
		"isdecimal":    predicate("isdecimal", false, runePred(pyIsDecimal)),
		"isdigit":      predicate("isdigit", false, runePred(pyIsDigit)),
		"isnumeric":    predicate("isnumeric", false, runePred(pyIsNumeric)),
		"isprintable":  predicate("isprintable", true, runePred(pyIsPrintable)),
		"isspace":      predicate("isspace", false, runePred(uniSpace)),
		"isidentifier": predicate("isidentifier", false, pyIsIdentifier),
		"islower":      predicate("islower", false, pyIsLowerStr),
		"isupper":      predicate("isupper", false, pyIsUpperStr),
		"istitle":      predicate("istitle", false, pyIsTitleStr),
	}
	impls[policy.Str] = m
	//scratch:ok init: a method table, built once from a constant map
	mk := make(map[string]methodFunc, len(m)+3)
	//workflowcheck:ignore a copy into a map is the same map in any order
	maps.Copy(mk, m)
	// markupsafe wraps these: string arguments are escaped first and the
	// result is Markup.
	for _, k := range []string{"capitalize", "title", "lower", "upper", "replace", "ljust", "rjust",
		"lstrip", "rstrip", "center", "strip", "translate", "expandtabs", "swapcase", "zfill", "partition", "rpartition"} {
		mk[k] = escapingArgs(m[k])
	}
	for _, k := range []string{"count", "find", "rfind", "index", "rindex", "startswith", "endswith",
		"removeprefix", "removesuffix", "casefold", "isalnum", "isalpha", "isascii", "isdecimal", "isdigit",
		"isnumeric", "isprintable", "isspace", "isidentifier", "islower", "isupper", "istitle", "maketrans"} {
		mk[k] = plainStr(m[k])
	}
	mk["escape"] = markupEscape
	mk["striptags"] = markupStriptags
	mk["unescape"] = markupUnescape
	impls[policy.Markup] = mk
}

// escapingArgs is markupsafe's _simple_escaping_wrapper: string arguments
// are escaped, the result is Markup.
func escapingArgs(f methodFunc) methodFunc {
	return func(c value.Ctx, recv value.Value, args *value.Args) value.Value {
		if args != nil {
			//scratch:ok one value an argument of the call, a call that exists
			na := &value.Args{Pos: vmem.Fresh(make([]value.Value, len(args.Pos))), Kw: vmem.Fresh(make([]value.KV, len(args.Kw)))}
			for i, v := range args.Pos {
				na.Pos[i] = markupArg(c, v)
			}
			for i, kv := range args.Kw {
				na.Kw[i] = value.KV{Key: kv.Key, Val: markupArg(c, kv.Val)}
			}
			args = na
		}
		return f(c, recv, args)
	}
}

func markupArg(c value.Ctx, v value.Value) value.Value {
	if v.IsString() && !v.IsSafe() {
		c.Charge(budget.Mul(int64(len(v.Str())), budget.EscapeFactor), "markup escape")
		return value.Escape(v)
	}
	return v
}

// plainStr runs a str method on a Markup receiver as on a plain str (the
// methods markupsafe leaves alone return plain values).
func plainStr(f methodFunc) methodFunc {
	return func(c value.Ctx, recv value.Value, args *value.Args) value.Value {
		return f(c, recv.Plain(), args)
	}
}
