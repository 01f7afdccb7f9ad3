package builtins

import (
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/value"
)

// The regular-expression filters, with Ansible's names, arguments and
// results (ansible/plugins/filter/core.py: regex_search, regex_replace,
// regex_findall, regex_escape), on Go's regexp: RE2 syntax, matched in
// time linear in the input, so no pattern can backtrack for ever. They are
// off unless the environment asks for them (engine.Options.Regex): Jinja2
// has none, and a template written for one host should not find them on
// another by accident.
//
// The bounds, each charged before the work it pays for:
//   - a pattern is at most MaxRegexPattern bytes;
//   - compiling: regexParseUnits a pattern byte before parsing, then
//     regexInstUnits an instruction of the program the parsed pattern
//     compiles to (regexInsts, an upper bound read off the parse tree:
//     repeats multiply), before compiling (Go's compile costs up to about
//     6 us an instruction, for Unicode classes, and `a{1000}` repeated
//     makes two million of them from 14 KB of pattern);
//   - matching: regexStepUnits an instruction a byte of input (Go's
//     matcher simulates at most every instruction at every byte: 4-7 ns
//     measured on the catastrophic shapes), a scan at a time;
//   - each match found: regexMatchUnits, charged as it is found, then the
//     results' bytes and elements.
//
// A compiled pattern is kept in the render's memo table (Memoizer),
// never across renders.

// RegexFilters are the regular-expression filters by name, registered in
// an environment that enables them (engine.Options.Regex).
var RegexFilters = map[string]FilterFunc{}

// MaxRegexPattern is the longest pattern a template may use, in bytes.
const MaxRegexPattern = 16384

const (
	regexParseUnits = 64
	regexInstUnits  = 2048
	regexRangeUnits = 32
	regexStepUnits  = 4
	regexMatchUnits = 256
	// regexMaxMemo is how many compiled patterns one render keeps
	regexMaxMemo = 64
)

func init() {
	for _, r := range []struct {
		name string
		f    FilterFunc
	}{
		{"regex_search", fRegexSearch},
		{"regex_replace", fRegexReplace},
		{"regex_findall", fRegexFindall},
		{"regex_escape", fRegexEscape},
	} {
		name, f := r.name, r.f
		op := "filter " + name
		RegexFilters[name] = func(c value.Ctx, v value.Value, args *value.Args) value.Value {
			c.Charge(budget.Step, op)
			return f(c, v, args)
		}
	}
}

// RegexPatternArg says where each filter takes its pattern: the position
// among the filter's arguments (after the value) and the keyword, for the
// parse-time check of a literal pattern (CheckRegexPattern).
var RegexPatternArg = map[string]struct {
	Pos int
	Kw  string
}{
	"regex_search":  {0, "regex"},
	"regex_replace": {0, "pattern"},
	"regex_findall": {0, "regex"},
}

// unsupported are the constructs of Python's re (and PCRE) that RE2 does
// not have, as a pattern spells them, with their names.
var unsupported = []struct{ prefix, name string }{
	{"(?=", "a lookahead"},
	{"(?!", "a negative lookahead"},
	{"(?<=", "a lookbehind"},
	{"(?<!", "a negative lookbehind"},
	{"(?P=", "a named backreference"},
	{"(?>", "an atomic group"},
	{"(?(", "a conditional group"},
	{"(?#", "a comment group"},
}

// CheckRegexPattern reports what is wrong with a pattern before any work:
// too long, a construct RE2 does not have (named), or a syntax error. The
// parse-time check runs it on literal patterns; compiling runs it on
// every pattern.
func CheckRegexPattern(p string) error {
	if err := regexRefusal(p); err != nil {
		return err
	}
	if _, err := syntax.Parse(pyPattern(p), syntax.Perl); err != nil {
		return invalidRegex(err)
	}
	return nil
}

// regexRefusal is what refuses p before it is parsed: its length, or a
// construct RE2 lacks.
func regexRefusal(p string) error {
	if len(p) > MaxRegexPattern {
		return errs.New(errs.Render, "regular expression of "+budget.Commas(int64(len(p)))+" bytes is longer than the "+budget.Commas(MaxRegexPattern)+" allowed")
	}
	if why := unsupportedConstruct(p); why != "" {
		return errs.New(errs.Render, "regular expression uses "+why+", which jinjabox's regular expressions (RE2 syntax, linear time) do not support")
	}
	return nil
}

// invalidRegex is the render error of a pattern Go's parser refused.
func invalidRegex(err error) error {
	return errs.New(errs.Render, "invalid regular expression: "+strings.TrimPrefix(err.Error(), "error parsing regexp: "))
}

// unsupportedConstruct names the first construct of p that RE2 lacks
// (outside character classes and escapes), or "".
func unsupportedConstruct(p string) string {
	inClass := false
	for i := 0; i < len(p); i++ {
		ch := p[i]
		switch {
		case ch == '\\' && i+1 < len(p):
			if !inClass && p[i+1] >= '1' && p[i+1] <= '9' {
				return "a backreference " + strconv.Quote(p[i:i+2])
			}
			i++
		case inClass:
			if ch == ']' {
				inClass = false
			}
		case ch == '[':
			inClass = true
			// a ] first in the class (or after ^) is a literal
			if i+1 < len(p) && p[i+1] == '^' {
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' {
				i++
			}
		case ch == '(':
			for _, u := range unsupported {
				if strings.HasPrefix(p[i:], u.prefix) {
					return u.name + " " + strconv.Quote(u.prefix)
				}
			}
		case (ch == '+' || ch == '*' || ch == '?' || ch == '}') && i+1 < len(p) && p[i+1] == '+':
			return "a possessive quantifier " + strconv.Quote(p[i:i+2])
		}
	}
	return ""
}

// pyPattern rewrites what Python's re spells differently from RE2 and
// means the same: \Z (the very end) is RE2's \z.
func pyPattern(p string) string {
	if !strings.Contains(p, `\Z`) {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			if p[i+1] == 'Z' {
				b.WriteString(`\z`)
			} else {
				b.WriteString(p[i : i+2])
			}
			i++
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// regexInsts is an upper bound on the instructions the parsed pattern
// compiles to (what Go's compiler emits for each node, repeats expanded)
// and the character-class ranges they hold: the matcher's work a byte is
// at most the instructions, the compiler's is both (a Unicode class such
// as \pL is hundreds of ranges, copied and folded: about 40 ns a range).
func regexInsts(re *syntax.Regexp) (insts, ranges int64) {
	var sub int64
	for _, s := range re.Sub {
		i, r := regexInsts(s)
		sub, ranges = budget.Add(sub, i), budget.Add(ranges, r)
	}
	switch re.Op {
	case syntax.OpLiteral:
		return int64(max(len(re.Rune), 1)), 0
	case syntax.OpCharClass:
		return 1, int64(len(re.Rune) / 2)
	case syntax.OpConcat:
		return max(sub, 1), ranges
	case syntax.OpAlternate:
		return budget.Add(sub, int64(len(re.Sub))), ranges
	case syntax.OpCapture:
		return budget.Add(sub, 2), ranges
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		return budget.Add(sub, 1), ranges
	case syntax.OpRepeat:
		// x{n}: n copies; x{n,m}: m copies and an alternative each
		// optional one; x{n,}: n copies and a loop
		copies, extra := int64(max(re.Min, 1)), int64(1)
		if re.Max > re.Min {
			copies, extra = int64(re.Max), int64(re.Max-re.Min)
		}
		return budget.Add(budget.Mul(sub, copies), extra), budget.Mul(ranges, copies)
	}
	return 1, 0
}

// compiledRegex is a compiled pattern and the instructions it was charged
// as.
type compiledRegex struct {
	re    *regexp.Regexp
	insts int64
}

// regexCompile compiles pattern with Python's ignorecase and multiline
// flags, charged before it parses and before it compiles, or takes it
// from the render's memo table.
func regexCompile(c value.Ctx, fn string, pattern value.Value, ignorecase, multiline bool) *compiledRegex {
	if !pattern.IsString() {
		if pattern.IsUndefined() {
			vops.ThrowUndefined(pattern)
		}
		errs.Throwf(errs.Type, "%s() pattern must be a string, not %s", fn, errs.Quote(pattern.TypeName()))
	}
	p := pattern.Str()
	flags := ""
	if ignorecase {
		flags += "i"
	}
	if multiline {
		flags += "m"
	}
	return compileFlagged(c, "regex", p, pyPattern(p), flags)
}

// compileFlagged compiles src, the RE2 spelling of pattern p, under the
// RE2 flags (i, m, s), charged before it parses and before it compiles,
// or takes it from the render's memo table under the dialect's key.
func compileFlagged(c value.Ctx, dialect, p, src, flags string) *compiledRegex {
	key := dialect + "\x00" + flags + "\x00" + p
	var memo map[string]any
	if m, ok := c.(Memoizer); ok {
		memo = m.Memo()
		if r, ok := memo[key].(*compiledRegex); ok {
			return r
		}
	}
	if len(p) <= MaxRegexPattern {
		// an over-long pattern is refused for its length, not its price
		c.Charge(budget.Mul(int64(len(p)), regexParseUnits), "compiling a regular expression")
	}
	if err := regexRefusal(p); err != nil {
		errs.Raise(err)
	}
	if flags != "" {
		src = "(?" + flags + ")" + src
	}
	tree, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		errs.Raise(invalidRegex(err))
	}
	insts, ranges := regexInsts(tree)
	insts = budget.Add(insts, 2) // the match and fail instructions
	c.Charge(budget.Add(budget.Mul(insts, regexInstUnits), budget.Mul(ranges, regexRangeUnits)), "compiling a regular expression")
	re, err := regexp.Compile(src)
	if err != nil {
		errs.Raise(invalidRegex(err))
	}
	r := &compiledRegex{re: re, insts: insts}
	if memo != nil && len(memo) < regexMaxMemo {
		memo[key] = r
	}
	return r
}

// chargeScan charges one scan of s by r: every instruction at every byte.
func (r *compiledRegex) chargeScan(c value.Ctx, s string) {
	c.Charge(budget.Mul(r.insts, budget.Mul(int64(len(s))+1, regexStepUnits)), "matching a regular expression")
	strutil.Poll(c)
}

// eachMatch calls f with the submatch indices of each successive match of
// r in s, as Go's All functions find them (an empty match next to the one
// before is skipped), charging regexMatchUnits a match as it is found and
// polling the render's cancellation a chunk of matches at a time. The
// scans are charged by the caller (chargeScan).
func (r *compiledRegex) eachMatch(c value.Ctx, s string, limit int, f func(loc []int)) {
	n := 0
	// ReplaceAllStringFunc walks the matches with Go's semantics and calls
	// back at each, so a charge can refuse the next match before it is
	// looked for; the positions come from a second, bounded scan below.
	r.re.ReplaceAllStringFunc(s, func(m string) string {
		if limit > 0 && n >= limit {
			return m
		}
		n++
		c.Charge(regexMatchUnits, "matching a regular expression")
		if n%matchChunk == 0 {
			strutil.Poll(c)
		}
		return m
	})
	if n == 0 {
		return
	}
	// the matches are paid for: their indices (2 ints a group a match)
	ncap := 2 * (r.re.NumSubexp() + 1)
	c.Charge(budget.Mul(int64(n), int64(ncap)*8), "matching a regular expression")
	r.chargeScan(c, s)
	for _, loc := range r.re.FindAllStringSubmatchIndex(s, n) {
		f(loc)
	}
}

// regexText is Ansible's to_text(value, nonstring='simplerepr'): a string
// as it is, anything else its str().
func regexText(c value.Ctx, v value.Value) string {
	if v.IsString() {
		return v.Str()
	}
	return pyStr(c, v)
}

// reGroup is the text of group g of the match at loc, or ok false when the
// group did not take part.
func reGroup(s string, loc []int, g int) (string, bool) {
	if loc[2*g] < 0 {
		return "", false
	}
	return s[loc[2*g]:loc[2*g+1]], true
}

// chargeResult charges a result of n bytes in k pieces.
func chargeResult(c value.Ctx, n, k int64) {
	c.Charge(budget.Add(n, budget.Mul(k, budget.Elem)), "building the matches")
}

// regex_search(value, regex, *groups, ignorecase=False, multiline=False):
// the first match, or with \N / \g<name> arguments the list of those
// groups; none when nothing matches.
func fRegexSearch(c value.Ctx, v value.Value, args *value.Args) value.Value {
	var pattern value.Value
	var groups []value.Value
	ignorecase, multiline, have := false, false, false
	if args != nil {
		if len(args.Pos) > 0 {
			pattern, groups, have = args.Pos[0], args.Pos[1:], true
		}
		for _, kw := range args.Kw {
			switch kw.Key {
			case "regex":
				if len(args.Pos) > 0 {
					errs.Throw(errs.Type, "regex_search() got multiple values for argument 'regex'")
				}
				pattern, have = kw.Val, true
			case "ignorecase":
				ignorecase = kw.Val.Truth()
			case "multiline":
				multiline = kw.Val.Truth()
			}
		}
	}
	if !have {
		errs.Throw(errs.Type, "regex_search() missing 1 required positional argument: 'regex'")
	}
	s := regexText(c, v)
	r := regexCompile(c, "regex_search", pattern, ignorecase, multiline)
	//scratch:ok one entry a group argument of the call, a call that exists
	refs := make([]any, 0, len(groups))
	for _, g := range groups {
		//scratch:ok one entry a group argument of the call, a call that exists
		refs = append(vmem.Grown(refs), groupRef(r, g))
	}
	r.chargeScan(c, s)
	loc := r.re.FindStringSubmatchIndex(s)
	if loc == nil {
		return value.NoneValue
	}
	if len(refs) == 0 {
		m, _ := reGroup(s, loc, 0)
		chargeResult(c, int64(len(m)), 1)
		return value.FromString(m)
	}
	out := vmem.Fresh(make([]value.Value, len(refs)))
	for i, ref := range refs {
		idx := 0
		switch x := ref.(type) {
		case int:
			idx = x
		case string:
			idx = r.re.SubexpIndex(x)
		}
		if m, ok := reGroup(s, loc, idx); ok {
			chargeResult(c, int64(len(m)), 1)
			out[i] = value.FromString(m)
		} else {
			out[i] = value.NoneValue
		}
	}
	return value.NewList(out)
}

// groupRef reads a regex_search group argument: \N or \g<name> (or
// \g<N>), as Ansible does; the group must exist (Python: "no such group").
func groupRef(r *compiledRegex, g value.Value) any {
	if !g.IsString() {
		errs.Throw(errs.Type, "regex_search() group arguments must be strings like '\\\\1' or '\\\\g<name>'")
	}
	a := g.Str()
	var idx int
	switch {
	case strings.HasPrefix(a, `\g<`) && strings.Contains(a, ">"):
		name := a[3:strings.IndexByte(a, '>')]
		if n, err := strconv.Atoi(name); err == nil {
			idx = n
		} else {
			if i := r.re.SubexpIndex(name); i < 0 {
				errs.Throw(errs.Render, "no such group: "+errs.Quote(name))
			}
			return name
		}
	case strings.HasPrefix(a, `\`):
		d := a[1:]
		end := 0
		for end < len(d) && d[end] >= '0' && d[end] <= '9' {
			end++
		}
		n, err := strconv.Atoi(d[:end])
		if err != nil {
			errs.Throw(errs.Render, "regex_search() unknown argument "+errs.Quote(a))
		}
		idx = n
	default:
		errs.Throw(errs.Render, "regex_search() unknown argument "+errs.Quote(a))
	}
	if idx < 0 || idx > r.re.NumSubexp() {
		errs.Throw(errs.Render, "no such group: "+strconv.Itoa(idx))
	}
	return idx
}

// regex_findall(value, regex, multiline=False, ignorecase=False): every
// match; with one group that group's text, with more a list of their
// texts a match (Python's tuples), an unmatched group empty.
func fRegexFindall(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "regex_findall", "regex", "multiline", "ignorecase")
	if a[0].IsMissing() {
		errs.Throw(errs.Type, "regex_findall() missing 1 required positional argument: 'regex'")
	}
	s := regexText(c, v)
	r := regexCompile(c, "regex_findall", a[0], !a[2].IsMissing() && a[2].Truth(), !a[1].IsMissing() && a[1].Truth())
	r.chargeScan(c, s)
	ng := r.re.NumSubexp()
	var out []value.Value
	r.eachMatch(c, s, 0, func(loc []int) {
		switch ng {
		case 0, 1:
			m, _ := reGroup(s, loc, ng)
			chargeResult(c, int64(len(m)), 1)
			out = append(out, value.FromString(m))
		default:
			t := vmem.Fresh(make([]value.Value, ng))
			for g := 1; g <= ng; g++ {
				m, _ := reGroup(s, loc, g)
				chargeResult(c, int64(len(m)), 1)
				t[g-1] = value.FromString(m)
			}
			out = append(out, value.NewTuple(t))
		}
	})
	if out == nil {
		out = []value.Value{}
	}
	return value.NewList(out)
}

// regex_replace(value=”, pattern=”, replacement=”, ignorecase=False,
// multiline=False, count=0, mandatory_count=0): Python's re.subn with its
// replacement template (\1, \g<1>, \g<name>, \n and the other escapes).
func fRegexReplace(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "regex_replace", "pattern", "replacement", "ignorecase", "multiline", "count", "mandatory_count")
	mandatory := a[5]
	pattern := a[0]
	if pattern.IsMissing() {
		pattern = value.FromString("")
	}
	repl := ""
	if !a[1].IsMissing() {
		repl = regexText(c, a[1])
	}
	count := 0
	if !a[4].IsMissing() {
		if !isInt(a[4]) {
			errs.Throw(errs.Type, "regex_replace() count must be an integer")
		}
		count = int(max(a[4].Int(), 0))
	}
	s := ""
	if !v.IsMissing() {
		s = regexText(c, v)
	}
	r := regexCompile(c, "regex_replace", pattern, !a[2].IsMissing() && a[2].Truth(), !a[3].IsMissing() && a[3].Truth())
	tpl := parseReplacement(r, repl)
	r.chargeScan(c, s)
	// the output's size, then the output
	var locs [][]int
	r.eachMatch(c, s, count, func(loc []int) { locs = append(locs, loc) })
	if isInt(mandatory) && mandatory.Int() != 0 && mandatory.Int() != int64(len(locs)) {
		errs.Throwf(errs.Render, "%s should match %d times, but matches %d times", errs.Quote(pattern.Str()), mandatory.Int(), len(locs))
	}
	size, last := int64(0), 0
	for _, loc := range locs {
		size = budget.Add(size, int64(loc[0]-last))
		for _, p := range tpl {
			if p.group < 0 {
				size = budget.Add(size, int64(len(p.lit)))
			} else if m, ok := reGroup(s, loc, p.group); ok {
				size = budget.Add(size, int64(len(m)))
			}
		}
		last = loc[1]
	}
	size = budget.Add(size, int64(len(s)-last))
	chargeResult(c, size, 1)
	var b strings.Builder
	b.Grow(int(size))
	last = 0
	for _, loc := range locs {
		b.WriteString(s[last:loc[0]])
		for _, p := range tpl {
			if p.group < 0 {
				b.WriteString(p.lit)
			} else if m, ok := reGroup(s, loc, p.group); ok {
				b.WriteString(m)
			}
		}
		last = loc[1]
	}
	b.WriteString(s[last:])
	return value.FromString(b.String())
}

// replPart is a piece of a replacement template: a literal or a group.
type replPart struct {
	lit   string
	group int // -1: lit
}

// parseReplacement reads a Python replacement template
// (re._parser.parse_template): \g<name>, \g<N>, \N (one or two digits),
// the escapes \a \b \f \n \r \t \v \\, an unknown escape of an ASCII
// letter an error, any other escape kept with its backslash.
func parseReplacement(r *compiledRegex, t string) []replPart {
	var parts []replPart
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, replPart{lit: lit.String(), group: -1})
			lit.Reset()
		}
	}
	ref := func(n int) {
		if n > r.re.NumSubexp() {
			errs.Throw(errs.Render, "invalid group reference "+strconv.Itoa(n))
		}
		flush()
		parts = append(parts, replPart{group: n})
	}
	for i := 0; i < len(t); i++ {
		if t[i] != '\\' {
			lit.WriteByte(t[i])
			continue
		}
		if i+1 >= len(t) {
			errs.Throw(errs.Render, "bad escape (end of pattern)")
		}
		ch := t[i+1]
		switch {
		case ch == 'g':
			end := strings.IndexByte(t[i:], '>')
			if i+2 >= len(t) || t[i+2] != '<' || end < 0 {
				errs.Throw(errs.Render, "missing group name in replacement")
			}
			name := t[i+3 : i+end]
			if n, err := strconv.Atoi(name); err == nil && n >= 0 {
				ref(n)
			} else {
				idx := r.re.SubexpIndex(name)
				if idx < 0 {
					errs.Throw(errs.Render, "unknown group name "+errs.Quote(name))
				}
				ref(idx)
			}
			i += end
		case ch >= '1' && ch <= '9':
			n := int(ch - '0')
			if i+2 < len(t) && t[i+2] >= '0' && t[i+2] <= '9' {
				n = n*10 + int(t[i+2]-'0')
				i++
			}
			ref(n)
			i++
		case ch == '0':
			errs.Throw(errs.Render, "octal escapes are not supported in a replacement")
		default:
			esc := map[byte]byte{'a': 7, 'b': 8, 'f': 12, 'n': 10, 'r': 13, 't': 9, 'v': 11, '\\': '\\'}
			if e, ok := esc[ch]; ok {
				lit.WriteByte(e)
			} else if ch < utf8.RuneSelf && (ch|0x20 >= 'a' && ch|0x20 <= 'z') {
				errs.Throw(errs.Render, "bad escape "+errs.Quote(t[i:i+2])+" in replacement")
			} else {
				lit.WriteByte('\\')
				lit.WriteByte(ch)
			}
			i++
		}
	}
	flush()
	return parts
}

// regex_escape(string, re_type='python'): Python's re.escape, or the
// POSIX basic escape.
func fRegexEscape(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "regex_escape", "re_type")
	typ := "python"
	if !a[0].IsMissing() {
		typ = regexText(c, a[0])
	}
	s := regexText(c, v)
	var special string
	switch typ {
	case "python":
		special = "()[]{}?*+-|^$\\.&~# \t\n\r\v\f"
	case "posix_basic":
		special = "].[^$*\\"
	case "posix_extended":
		errs.Throw(errs.Render, "Regex type (posix_extended) not yet implemented")
	default:
		errs.Throw(errs.Render, "Invalid regex type ("+typ+")")
	}
	c.Charge(budget.Mul(int64(len(s)), 2), "filter regex_escape")
	var b strings.Builder
	b.Grow(len(s) * 2)
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(special, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return value.FromString(b.String())
}

func isInt(v value.Value) bool { return v.Kind() == value.Int }

// Memoizer is a value.Ctx with a memo table that lives for one render: a
// builtin keeps there what it may reuse later in the same render (a
// compiled regular expression). The table starts empty with every render,
// so nothing one render computed reaches another. What a builtin stores
// it charged for when it made it; what the table holds is a function of
// the render's own steps, so the units a render spends stay deterministic.
type Memoizer interface {
	Memo() map[string]any
}
