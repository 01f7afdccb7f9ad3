package builtins

import (
	"strings"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/value"
)

// Nunjucks regular-expression literals, r/pattern/flags, which the
// nunjitsu delimiter mode lexes (syntax.Options.RegexLiterals), as the
// Nunjitsu document describes them: inert by default (a literal renders
// as /pattern/flags, compares by identity and can be stored), and with
// execution enabled (engine.Options.Regex) a pattern for the replace
// filter, str.replace and str.split, and a test method, with
// JavaScript's semantics for each: replace replaces the first match, or
// every match with the g flag, and expands $$, $&, $`, $', $n, $nn and
// $<name>; split includes the captured groups; test with g keeps
// lastIndex between calls. The flags are Nunjucks's lexer's: g, i, m
// and y; y (sticky) is refused. Matching runs on Go's RE2 (linear time):
// the pattern is translated where JavaScript spells the same thing
// differently (\uXXXX, [^], the dot that stops at line terminators) and
// refused, naming the construct, where RE2 has no equivalent
// (lookaround, backreferences); compiling and matching are charged as
// the regex filters' are (regex.go).

// RegexLiteral is the value of r/pattern/flags.
type RegexLiteral struct {
	Source, Flags string
	// exec: the environment enables regex execution (Options.Regex).
	exec bool
	// lastIndex is JavaScript's, in bytes: where a global test starts.
	lastIndex int
}

// NewRegexLiteral is the value of a literal evaluated in a render (a new
// object at every evaluation, as a JavaScript literal is).
func NewRegexLiteral(source, flags string, exec bool) value.Value {
	return value.FromObject(&RegexLiteral{Source: source, Flags: flags, exec: exec})
}

// TypeName implements value.ObjectImpl.
func (r *RegexLiteral) TypeName() string { return "RegExp" }

// TemplateString is how a literal prints: /pattern/flags.
func (r *RegexLiteral) TemplateString() string { return "/" + r.Source + "/" + r.Flags }

// Attr implements value.ObjectImpl: source, flags, global and test.
func (r *RegexLiteral) Attr(c value.Ctx, name string) (value.Value, bool) {
	switch name {
	case "source":
		return value.FromString(r.Source), true
	case "flags":
		return value.FromString(r.Flags), true
	case "global":
		return value.FromBool(strings.Contains(r.Flags, "g")), true
	case "test":
		return value.FromCallable(regexTest{r}), true
	}
	return value.Value{}, false
}

// regexTest is a literal's bound test method.
type regexTest struct{ r *RegexLiteral }

func (t regexTest) CallName() string { return "RegExp.test" }

func (t regexTest) Call(c value.Ctx, args *value.Args) value.Value {
	a := posArgs("test", args, 1, 1)
	c.Charge(budget.Step, "RegExp.test")
	s := regexText(c, a[0])
	r := t.r
	re := r.compile(c)
	global := strings.Contains(r.Flags, "g")
	start := 0
	if global {
		if r.lastIndex > len(s) {
			r.lastIndex = 0
			return value.False
		}
		start = r.lastIndex
	}
	re.chargeScan(c, s[start:])
	loc := re.re.FindStringIndex(s[start:])
	if loc == nil {
		if global {
			r.lastIndex = 0
		}
		return value.False
	}
	c.Charge(regexMatchUnits, "matching a regular expression")
	if global {
		r.lastIndex = start + loc[1]
	}
	return value.True
}

// CheckRegexLiteral checks a literal's flags and pattern for RE2 before
// any render (the check pass, with execution enabled).
func CheckRegexLiteral(source, flags string) error {
	if strings.Contains(flags, "y") {
		return errs.New(errs.Syntax, "regular expression /"+clipRegex(source)+"/"+flags+": the sticky flag y is not supported")
	}
	if len(source) > MaxRegexPattern {
		return regexRefusal(source)
	}
	return CheckRegexPattern(jsPattern(source))
}

func clipRegex(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// compile is the literal's RE2 program, refused when execution is off.
func (r *RegexLiteral) compile(c value.Ctx) *compiledRegex {
	if !r.exec {
		errs.Throw(errs.Render, "regular expression /"+clipRegex(r.Source)+"/"+r.Flags+
			": regular-expression execution is off (an environment enables it with Options.Regex, the CLI with --regex)")
	}
	if err := CheckRegexLiteral(r.Source, r.Flags); err != nil {
		errs.Raise(err)
	}
	flags := ""
	if strings.Contains(r.Flags, "i") {
		flags += "i"
	}
	if strings.Contains(r.Flags, "m") {
		flags += "m"
	}
	return compileFlagged(c, "js", r.Source, jsPattern(r.Source), flags)
}

// jsPattern is the RE2 spelling of a JavaScript pattern: \uXXXX as
// \x{XXXX}, [^] (any character) as [\s\S], and the dot outside a class as
// the class it is in JavaScript, any character but a line terminator.
func jsPattern(p string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		ch := p[i]
		switch {
		case ch == '\\' && i+1 < len(p):
			if p[i+1] == 'u' && i+6 <= len(p) && isHex4(p[i+2:i+6]) {
				b.WriteString(`\x{` + p[i+2:i+6] + `}`)
				i += 5
				continue
			}
			b.WriteString(p[i : i+2])
			i++
		case !inClass && ch == '[' && strings.HasPrefix(p[i:], "[^]"):
			b.WriteString(`[\s\S]`)
			i += 2
		case !inClass && ch == '[' && strings.HasPrefix(p[i:], "[]"):
			// a ] first in a class is literal in RE2, and closes an
			// empty class in JavaScript: [] matches nothing
			b.WriteString(`[^\x00-\x{10FFFF}]`)
			i++
		case !inClass && ch == '[':
			inClass = true
			b.WriteByte(ch)
			if strings.HasPrefix(p[i+1:], "^") {
				b.WriteByte('^')
				i++
			}
		case inClass && ch == ']':
			inClass = false
			b.WriteByte(ch)
		case !inClass && ch == '.':
			b.WriteString(`[^\n\r\x{2028}\x{2029}]`)
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

func isHex4(s string) bool {
	if len(s) != 4 {
		return false
	}
	for i := 0; i < 4; i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// regexArg is the literal v holds, if it holds one.
func regexArg(v value.Value) (*RegexLiteral, bool) {
	if v.Kind() != value.Object {
		return nil, false
	}
	r, ok := v.Ref().(*RegexLiteral)
	return r, ok
}

// jsReplace is String.prototype.replace(regex, replacement): the first
// match, or every one with the g flag, replaced by the expanded
// replacement; each expansion is charged before it is written.
func (r *RegexLiteral) jsReplace(c value.Ctx, op, s, repl string) string {
	re := r.compile(c)
	limit := 1
	if strings.Contains(r.Flags, "g") {
		limit = 0
		r.lastIndex = 0
	}
	re.chargeScan(c, s)
	c.Charge(int64(len(s)), op)
	names := re.re.SubexpNames()
	var b strings.Builder
	last := 0
	re.eachMatch(c, s, limit, func(loc []int) {
		b.WriteString(s[last:loc[0]])
		exp := expandJS(repl, s, loc, names)
		c.Charge(int64(len(exp)), op)
		b.WriteString(exp)
		last = loc[1]
	})
	b.WriteString(s[last:])
	return b.String()
}

// expandJS is GetSubstitution: the replacement with its $ patterns
// expanded for the match at loc.
func expandJS(repl, s string, loc []int, names []string) string {
	if !strings.Contains(repl, "$") {
		return repl
	}
	m := len(loc)/2 - 1 // captures
	group := func(g int) string {
		if loc[2*g] < 0 {
			return ""
		}
		return s[loc[2*g]:loc[2*g+1]]
	}
	hasNames := false
	for _, n := range names {
		if n != "" {
			hasNames = true
		}
	}
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		ch := repl[i]
		if ch != '$' || i+1 >= len(repl) {
			b.WriteByte(ch)
			continue
		}
		nx := repl[i+1]
		switch {
		case nx == '$':
			b.WriteByte('$')
			i++
		case nx == '&':
			b.WriteString(s[loc[0]:loc[1]])
			i++
		case nx == '`':
			b.WriteString(s[:loc[0]])
			i++
		case nx == '\'':
			b.WriteString(s[loc[1]:])
			i++
		case '0' <= nx && nx <= '9':
			d1 := int(nx - '0')
			if i+2 < len(repl) && '0' <= repl[i+2] && repl[i+2] <= '9' {
				if d2 := d1*10 + int(repl[i+2]-'0'); d2 >= 1 && d2 <= m {
					b.WriteString(group(d2))
					i += 2
					continue
				}
			}
			if d1 >= 1 && d1 <= m {
				b.WriteString(group(d1))
				i++
				continue
			}
			b.WriteByte('$')
		case nx == '<' && hasNames:
			end := strings.IndexByte(repl[i+2:], '>')
			if end < 0 {
				b.WriteByte('$')
				continue
			}
			name := repl[i+2 : i+2+end]
			for g, n := range names {
				if n == name && g > 0 {
					b.WriteString(group(g))
				}
			}
			i += 2 + end
		default:
			b.WriteByte('$')
		}
	}
	return b.String()
}

// jsSplit is String.prototype.split(regex, limit): the pieces between
// the matches, each match's captured groups after the piece before it
// (a group that did not take part is undefined), at most limit items
// (limit < 0: no limit).
func (r *RegexLiteral) jsSplit(c value.Ctx, recv value.Value, limit int64) value.Value {
	s := recv.Str()
	if limit == 0 {
		return value.NewList(nil)
	}
	re := r.compile(c)
	re.chargeScan(c, s)
	if s == "" {
		if re.re.MatchString("") {
			return value.NewList(nil)
		}
		return value.NewList([]value.Value{value.StringLike(recv, "")})
	}
	var out []value.Value
	push := func(v value.Value) bool {
		c.Charge(budget.Elem, "str.split")
		out = append(out, v)
		return limit > 0 && int64(len(out)) >= limit
	}
	p, done := 0, false
	re.eachMatch(c, s, 0, func(loc []int) {
		if done || loc[0] >= len(s) || loc[1] == p {
			return
		}
		c.Charge(int64(loc[0]-p), "str.split")
		if push(value.StringLike(recv, s[p:loc[0]])) {
			done = true
			return
		}
		for g := 1; g < len(loc)/2; g++ {
			v := value.Undef("")
			if loc[2*g] >= 0 {
				v = value.StringLike(recv, s[loc[2*g]:loc[2*g+1]])
			}
			if push(v) {
				done = true
				return
			}
		}
		p = loc[1]
	})
	if !done {
		c.Charge(int64(len(s)-p), "str.split")
		push(value.StringLike(recv, s[p:]))
	}
	return value.NewList(out)
}

// limitArg is split's JavaScript limit: missing or undefined, none.
func limitArg(v value.Value) int64 {
	if v.IsMissing() || v.IsUndefined() || v.IsNone() {
		return -1
	}
	n := intArg(v)
	if n < 0 {
		return -1
	}
	return n
}
