package builtins

import (
	"strings"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/value"
)

// String filters. Markup keeps its flag wherever markupsafe's Markup
// method would return Markup (soft_str keeps the subclass).

func init() {
	regFilter(fUpper, "upper")
	regFilter(fLower, "lower")
	regFilter(fCapitalize, "capitalize")
	regFilter(fTitle, "title")
	regFilter(fTrim, "trim")
	regFilter(fCenter, "center")
	regFilter(fReplace, "replace")
	regFilter(fTruncate, "truncate")
	regFilter(fWordcount, "wordcount")
	regFilter(fString, "string")
	regFilter(fIndent, "indent")
	regFilter(fFormat, "format")
}

func fUpper(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "do_upper")
	s := softStr(c, v)
	c.Charge(int64(len(s.Str()))*caseCost, "filter upper")
	return caseMapped(s, pyUpper(s.Str()))
}

func fLower(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "do_lower")
	s := softStr(c, v)
	c.Charge(int64(len(s.Str()))*caseCost, "filter lower")
	return caseMapped(s, pyLower(s.Str()))
}

// fCapitalize is str.capitalize: title-case first code point, rest lower.
func fCapitalize(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "do_capitalize")
	s := softStr(c, v)
	str := s.Str()
	c.Charge(int64(len(str))*caseCost, "filter capitalize")
	if str == "" {
		return s
	}
	return value.StringLike(s, PyCapitalize(str))
}

// isTitleSep is Jinja's _word_beginning_split_re class [-\s({\[<].
func isTitleSep(r rune) bool {
	switch r {
	case '-', '(', '{', '[', '<':
		return true
	}
	return pyIsSpace(r)
}

// fTitle is Jinja's do_title: split into separator runs and words; each
// piece gets its first code point uppercased and the rest lowercased. The
// result is a plain str ("".join drops the Markup subclass).
func fTitle(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "do_title")
	s := softStr(c, v).Str()
	c.Charge(int64(len(s))*caseCost, "filter title")
	var sb strutil.TextWriter
	sb.Grow(len(s))
	// pieces alternate between separator runs and words; each piece gets
	// item[0].upper() + item[1:].lower(), written in place (a string
	// made a piece for each half ran 16 ns a byte); item[1:] is a string
	// of its own, so it is the context of a sigma in it
	for i := 0; i < len(s); {
		r, w := decodeRune(s, i)
		sep := isTitleSep(r)
		j := i + w
		for j < len(s) {
			r2, w2 := decodeRune(s, j)
			if isTitleSep(r2) != sep {
				break
			}
			j += w2
		}
		upperRune(&sb, r)
		writeLower(&sb, s[i+w:j])
		i = j
	}
	return value.FromString(sb.String())
}

func fTrim(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_trim", "chars")
	s := softStr(c, v)
	c.Charge(int64(len(s.Str())), "filter trim")
	if isNoneOrMissing(a[0]) {
		return value.StringLike(s, pyStrip(c, s.Str(), nil, true, true))
	}
	if !a[0].IsString() {
		errs.Throwf(errs.Type, "strip arg must be None or str")
	}
	chars := a[0].Str()
	if s.IsSafe() {
		chars = vops.EscapeStr(a[0]) // Markup.strip escapes its argument
	}
	chargeStripChars(c, s.Str(), chars, "filter trim")
	return value.StringLike(s, pyStrip(c, s.Str(), &chars, true, true))
}

// fCenter is str.center; the padded width is charged before padding.
func fCenter(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_center", "width")
	s := softStr(c, v)
	width := argInt("center", a[0], 80)
	str := s.Str()
	n := int64(value.StrLen(c, s))
	if width <= n {
		return s
	}
	c.Charge(budget.Add(int64(len(str)), width-n), "filter center")
	marg := width - n
	left := marg/2 + (marg & width & 1)
	return padded(s, str, n, left, marg-left, " ")
}

// fReplace is Jinja's do_replace. The result size is computed from the
// occurrence count and charged before the copy; an empty pattern inserts
// between every code point.
func fReplace(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_replace", "old", "new", "count")
	if a[0].IsMissing() || a[1].IsMissing() {
		errs.Throw(errs.Type, "do_replace() missing required positional arguments: 'old' and 'new'")
	}
	if r, ok := regexArg(a[0]); ok {
		// Nunjucks's replace filter with a regular expression: String
		// .prototype.replace, the count ignored (as nunjucks ignores it)
		return value.FromString(r.jsReplace(c, "filter replace", pyStr(c, v), pyStr(c, a[1])))
	}
	count := int64(-1)
	if !isNoneOrMissing(a[2]) {
		count = argInt("replace", a[2], -1)
	}
	var s value.Value
	var old, nw string
	if !c.Autoescape() {
		s = value.FromString(pyStr(c, v))
		old, nw = pyStr(c, a[0]), pyStr(c, a[1])
	} else {
		if a[0].IsSafe() || (a[1].IsSafe() && !v.IsSafe()) {
			s = value.EscapeIn(c, v)
		} else {
			s = softStr(c, v)
		}
		if s.IsSafe() {
			old, nw = escapeArg(c, a[0]), escapeArg(c, a[1])
		} else {
			old, nw = pyStr(c, a[0]), pyStr(c, a[1])
		}
	}
	str := s.Str()
	c.Charge(int64(len(str)), "filter replace")
	// each match is a search and a copy of its own (tens of ns), on top
	// of the bytes: without it, replacing every byte of a long text costs
	// far more time than its units say; charged while they are counted
	var k, extra int64
	if old == "" {
		k = int64(strutil.RuneLen(str)) + 1
		extra = budget.Mul(k, matchUnits)
	} else {
		k = countCharged(c, str, old, matchUnits, "filter replace")
	}
	if count >= 0 && count < k {
		k = count
	}
	size := budget.Add(int64(len(str)), budget.Add(extra, budget.Mul(k, int64(len(nw)))))
	c.Charge(size, "filter replace")
	return value.StringLike(s, strutil.Replace(str, old, nw, int(k)))
}

// escapeArg is markupsafe's argument escaping for Markup methods.
func escapeArg(c value.Ctx, v value.Value) string {
	if v.IsString() {
		return vops.EscapeStr(v)
	}
	return pyStr(c, v)
}

// fTruncate is Jinja's do_truncate (leeway policy 5).
func fTruncate(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_truncate", "length", "killwords", "end", "leeway")
	length := argInt("truncate", a[0], 255)
	killwords := argBool(a[1], false)
	end := value.FromString("...")
	if !a[2].IsMissing() {
		end = a[2]
	}
	leeway := int64(5)
	if !isNoneOrMissing(a[3]) {
		leeway = argInt("truncate", a[3], 5)
	}
	if !end.IsString() {
		errs.Throwf(errs.Type, "object of type %s has no len()", errs.Quote(end.TypeName()))
	}
	endLen := int64(value.StrLen(c, end))
	if length < endLen {
		errs.Throwf(errs.Render, "expected length >= %d, got %d", endLen, length)
	}
	if leeway < 0 {
		errs.Throwf(errs.Render, "expected leeway >= 0, got %d", leeway)
	}
	if v.IsUndefined() && c.Strict() {
		vops.ThrowUndefined(v)
	}
	n, ok := value.Length(c, v)
	if !ok {
		errs.Throwf(errs.Type, "object of type %s has no len()", errs.Quote(v.TypeName()))
	}
	if int64(n) <= budget.Add(length, leeway) {
		return v
	}
	if !v.IsString() {
		errs.Throwf(errs.Type, "unsupported truncate of %s", errs.Quote(v.TypeName()))
	}
	str := v.Str()
	c.Charge(int64(len(str))+int64(len(end.Str())), "filter truncate")
	head := runePrefix(str, int(length-endLen))
	if !killwords {
		if i := strings.LastIndexByte(head, ' '); i >= 0 {
			head = head[:i]
		}
	}
	if v.IsSafe() {
		return value.Safe(head + vops.EscapeStr(end))
	}
	if end.IsSafe() {
		return value.Safe(value.EscapeHTML(head) + end.Str())
	}
	if v.RuneCount() == len(str) {
		// a code point a byte: head's are its bytes, counted with end's
		return value.StringLikeCounted(value.EmptyString, head+end.Str(), len(head)+int(endLen))
	}
	return value.FromString(head + end.Str())
}

// isWordRune is Python's \w for str patterns (alphanumeric or '_').
func isWordRune(r rune) bool { return r == '_' || pyIsAlnum(r) }

// fWordcount counts runs of \w, as len(re.findall(r"\w+", s)).
func fWordcount(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "do_wordcount")
	s := softStr(c, v).Str()
	// a character-class test a code point: 4 a byte (1 ran 4-6 ns a unit)
	c.Charge(budget.Mul(int64(len(s)), 4), "filter wordcount")
	n := int64(0)
	in := false
	for i := 0; i < len(s); {
		// ASCII from a table (a class call a byte ran 1.2-1.7 ns a unit)
		var w bool
		if b := s[i]; b < utf8.RuneSelf {
			w = asciiWord[b]
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			w = isWordRune(r)
			i += size
		}
		if w && !in {
			n++
		}
		in = w
	}
	return value.FromInt(n)
}

// asciiWord are the ASCII bytes of \w: letters, digits and '_'.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for b := range t {
		t[b] = isWordRune(rune(b))
	}
	return t
}()

func fString(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "soft_str")
	return softStr(c, v)
}

// fIndent is Jinja 3.1's do_indent. The size is bounded before joining:
// every line may gain one indentation.
func fIndent(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_indent", "width", "first", "blank")
	var ind string
	indLen := int64(4)
	switch {
	case a[0].IsMissing():
		ind = "    "
	case a[0].IsString():
		ind = a[0].Str()
		indLen = int64(len(ind))
	case a[0].Kind() == value.Int || a[0].Kind() == value.Bool:
		indLen = max(a[0].Int(), 0)
	default:
		errs.Throwf(errs.Type, "can't multiply sequence by non-int of type %s", errs.Quote(a[0].TypeName()))
	}
	first, blank := argBool(a[1], false), argBool(a[2], false)
	if v.IsUndefined() {
		vops.ThrowUndefined(v)
	}
	if !v.IsString() {
		errs.Throwf(errs.Type, "unsupported operand type(s) for +=: %s and 'str'", errs.Quote(v.TypeName()))
	}
	s := v.Str()
	c.Charge(int64(len(s)), "filter indent")
	// Afford the output before splitting (splitting a huge text allocates
	// far more than the text): every line break may start an indented
	// line; \r\n counts twice, an upper bound.
	breaks := int64(1)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e:
			breaks++
		}
	}
	breaks += int64(strings.Count(s, "\u0085") + strings.Count(s, "\u2028") + strings.Count(s, "\u2029"))
	if est := budget.Add(int64(len(s))+breaks, budget.Mul(breaks+1, indLen)); est > c.Meter().Left() {
		c.Charge(est, "filter indent (estimated output)")
	}
	// every line may gain one indentation, the first one too; a line also
	// costs the walk's per-line work, which its bytes do not cover when
	// lines are empty ('\n' * 20000000: 20 M lines for 20 M bytes)
	nl := breaks + 1
	c.Charge(budget.Add(budget.Add(int64(len(s))+nl, budget.Mul(nl+1, indLen)), budget.Mul(nl, lineUnits)), "filter indent")
	if ind == "" && indLen > 0 {
		ind = strings.Repeat(" ", int(indLen))
	}
	if a[0].IsSafe() && !v.IsSafe() {
		// a Markup width on plain text mixes str and Markup arithmetic
		c.Charge(budget.Mul(int64(len(s))+budget.Mul(nl+1, indLen), budget.EscapeFactor*budget.EscapeFactor), "filter indent")
		return indentMixed(pySplitLines(c, s+"\n", "filter indent"), a[0], first, blank)
	}
	// the lines are walked in place: no list of them is built (a []string
	// is 16 bytes a line: 30 M lines took 1.65 GB), into a buffer of the
	// size charged (growing by doubling would allocate the output twice)
	var sb strutil.TextWriter
	sb.Grow(int(int64(len(s)) + nl + (nl+1)*indLen))
	if first {
		sb.WriteString(ind)
	}
	sep := "\n" + ind // one write a line, not two
	line := func(i int, ln string) {
		switch {
		case i == 0:
		case blank || ln != "":
			sb.WriteString(sep)
		default:
			sb.WriteByte('\n')
		}
		sb.WriteString(ln)
	}
	// Jinja splits s + "\n": its lines, and one empty line more after a
	// final break, unless that break is a lone \r, which the \n joins
	// (walked in place: the concatenation copied the whole text)
	i, start, broke := 0, 0, false
	for start < len(s) {
		if s[start] == '\n' {
			// a run of empty lines, each ended by a '\n' (a '\r' before
			// a '\n' ended the line before it), written as repeats of
			// one line's bytes (a walk and two writes a line ran 3 ns a
			// unit: '\n' * 10000000, redteam/cpu/indent-blank-slow)
			k := start + 1
			for k < len(s) && s[k] == '\n' {
				k++
			}
			n := k - start
			if i == 0 {
				n-- // the first line starts the text, after no break
				i++
			}
			if blank {
				sb.WriteRepeat(sep, n)
			} else {
				sb.WriteRepeat("\n", n)
			}
			i += n
			start, broke = k, true
			continue
		}
		ln, next := pyNextLine(s, start)
		line(i, ln)
		broke = next > start+len(ln)
		start = next
		i++
	}
	if len(s) == 0 || broke && s[len(s)-1] != '\r' {
		line(i, "")
	}
	out := sb.String()
	if v.RuneCount() == len(s) && len(ind) == utf8.RuneCountInString(ind) {
		// ASCII text and indentation give ASCII lines joined by '\n'
		// (every break becomes one): the count is the length, known
		// without counting 50 MB again (v's count is O(1) when known)
		return value.StringLikeCounted(v, out, len(out))
	}
	return value.StringLike(v, out)
}

// pyConcat is Python's a + b over str and Markup: Markup on either side
// escapes the plain operand and gives Markup.
func pyConcat(a, b value.Value) value.Value {
	if a.IsSafe() || b.IsSafe() {
		return value.Safe(vops.EscapeStr(a) + vops.EscapeStr(b))
	}
	return value.FromString(a.Str() + b.Str())
}

// pyJoin is sep.join(items): Markup.join escapes plain items, str.join
// takes every item's text as is.
func pyJoin(sep value.Value, items []value.Value) value.Value {
	//scratch:ok one string header an item of a list that exists; the caller charges the joined text
	strs := make([]string, len(items))
	for i, it := range items {
		if sep.IsSafe() {
			strs[i] = vops.EscapeStr(it)
		} else {
			strs[i] = it.Str()
		}
	}
	return value.StringLike(sep, strings.Join(strs, sep.Str()))
}

// indentMixed is do_indent taken literally for plain text with a Markup
// width: the indented lines are escaped, the first line is not, and
// first=True escapes the whole result once more, as Jinja does.
func indentMixed(lines []string, ind value.Value, first, blank bool) value.Value {
	nl := value.FromString("\n")
	//scratch:ok one value a line of a text whose bytes indent charged before splitting it
	vals := vmem.Fresh(make([]value.Value, len(lines)))
	for i, ln := range lines {
		vals[i] = value.FromString(ln)
	}
	var rv value.Value
	if blank {
		rv = pyJoin(pyConcat(nl, ind), vals)
	} else {
		rv = vals[0]
		if len(vals) > 1 {
			//scratch:ok one value a line of a text whose bytes indent charged before splitting it
			parts := vmem.Fresh(make([]value.Value, len(vals)-1))
			for i, ln := range vals[1:] {
				parts[i] = ln
				if ln.Str() != "" {
					parts[i] = pyConcat(ind, ln)
				}
			}
			rv = pyConcat(rv, pyConcat(nl, pyJoin(nl, parts)))
		}
	}
	if first {
		rv = pyConcat(ind, rv)
	}
	return rv
}

// fFormat is Jinja's do_format: printf-style with positional or keyword
// arguments (not both), through the shared % implementation.
func fFormat(c value.Ctx, v value.Value, args *value.Args) value.Value {
	var pos []value.Value
	var kw []value.KV
	if args != nil {
		pos, kw = args.Pos, args.Kw
	}
	if len(pos) > 0 && len(kw) > 0 {
		errs.Throw(errs.Render, "can't handle positional and keyword arguments at the same time")
	}
	s := softStr(c, v)
	var rhs value.Value
	if len(kw) > 0 {
		d := value.NewDict(len(kw))
		for _, p := range kw {
			d.SetStr(p.Key, p.Val)
		}
		rhs = value.FromDict(d)
	} else {
		rhs = value.NewTuple(vmem.Append([]value.Value(nil), pos...))
	}
	return PercentFormat(c, s, rhs)
}
