package syntax

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/syntax/internal/unames"
)

// tokType is the type of a lexer token. The operator types mirror the
// names in jinja2/lexer.py so that error messages can describe them alike.
type tokType uint8

const (
	tEOF tokType = iota
	tData
	tVarBegin
	tVarEnd
	tBlockBegin
	tBlockEnd
	tName
	tString
	// tRegex is a Nunjucks regular-expression literal, r/pattern/flags
	// (Options.RegexLiterals): val is the flags, a slash, the pattern.
	tRegex
	tInt
	tFloat
	// operators
	tAdd
	tSub
	tDiv
	tFloorDiv
	tMul
	tMod
	tPow
	tTilde
	tLBracket
	tRBracket
	tLParen
	tRParen
	tLBrace
	tRBrace
	tEq
	tNe
	tGt
	tGtEq
	tLt
	tLtEq
	tAssign
	tDot
	tColon
	tPipe
	tComma
	tSemicolon
)

// opText is the source text of each operator token.
var opText = [...]string{
	tAdd: "+", tSub: "-", tDiv: "/", tFloorDiv: "//", tMul: "*", tMod: "%",
	tPow: "**", tTilde: "~", tLBracket: "[", tRBracket: "]", tLParen: "(",
	tRParen: ")", tLBrace: "{", tRBrace: "}", tEq: "==", tNe: "!=", tGt: ">",
	tGtEq: ">=", tLt: "<", tLtEq: "<=", tAssign: "=", tDot: ".", tColon: ":",
	tPipe: "|", tComma: ",", tSemicolon: ";",
}

// describeType mirrors jinja2.lexer._describe_token_type.
func describeType(t tokType) string {
	switch t {
	case tEOF:
		return "end of template"
	case tData:
		return "template data / text"
	case tVarBegin:
		return "begin of print statement"
	case tVarEnd:
		return "end of print statement"
	case tBlockBegin:
		return "begin of statement block"
	case tBlockEnd:
		return "end of statement block"
	case tName:
		return "name"
	case tString:
		return "string"
	case tRegex:
		return "regular expression"
	case tInt:
		return "integer"
	case tFloat:
		return "float"
	}
	if int(t) < len(opText) && opText[t] != "" {
		return opText[t]
	}
	return "token"
}

// token is one lexer token. pos is an offset into the normalised source.
type token struct {
	typ  tokType
	pos  int
	val  string  // name, decoded string, data text
	num  int64   // tInt
	fnum float64 // tFloat
}

// describe mirrors jinja2.lexer.describe_token: names describe as
// themselves.
func (t *token) describe() string {
	if t.typ == tName {
		return t.val
	}
	return describeType(t.typ)
}

// lexState is the lexer's state-stack top (Jinja never nests deeper than
// one tag state above root).
type lexState uint8

const (
	stRoot lexState = iota
	stBlock
	stVar
	stLine
)

// altKind identifies a root-level opener.
type altKind uint8

const (
	altComment altKind = iota
	altBlock
	altVar
	altLineStmt
	altLineComment
	altRaw
)

// lexError is raised (by panic) for a lexing error; the parser converts it.
type lexError struct {
	pos int
	msg string
}

// lexer is a hand-written equivalent of jinja2.lexer.Lexer.tokeniter plus
// Lexer.wrap. It produces tokens lazily, as Jinja's generator does, so that
// error precedence between lexing and parsing matches.
type lexer struct {
	src          string // normalised source
	pos          int
	d            Delimiters
	trim         bool
	lstrip       bool
	state        lexState
	balance      []byte
	lineStarting bool
	queue        [2]token
	qi, qn       int
	done         bool
	alts         []altKind // root alternatives in Jinja's match order (raw excluded)
	first        [256]bool // first bytes of the tag openers
	slowRoot     bool      // line prefixes set: every position is a candidate
	// oneFirst is set when the openers share their first byte (the
	// block start's) and no line prefix is set (the default delimiters'
	// '{'): findOpener then jumps between its occurrences with
	// IndexByte, not a test a byte
	oneFirst bool
	// regexLit lexes r/pattern/flags (Options.RegexLiterals).
	regexLit bool
}

// resolveDelims fills empty tag delimiters with Jinja's defaults.
func resolveDelims(d Delimiters) Delimiters {
	def := DefaultDelimiters
	if d.BlockStart == "" {
		d.BlockStart = def.BlockStart
	}
	if d.BlockEnd == "" {
		d.BlockEnd = def.BlockEnd
	}
	if d.VariableStart == "" {
		d.VariableStart = def.VariableStart
	}
	if d.VariableEnd == "" {
		d.VariableEnd = def.VariableEnd
	}
	if d.CommentStart == "" {
		d.CommentStart = def.CommentStart
	}
	if d.CommentEnd == "" {
		d.CommentEnd = def.CommentEnd
	}
	return d
}

func newLexer(src string, opts Options) *lexer {
	d := resolveDelims(opts.Delimiters)
	lx := &lexer{src: src, d: d, trim: opts.TrimBlocks, lstrip: opts.LstripBlocks, lineStarting: true, regexLit: opts.RegexLiterals}
	// Jinja's compile_rules sorts the openers by (length, token name)
	// descending; the order decides which opener wins at one position.
	type rule struct {
		n    int
		name string
		k    altKind
	}
	rules := []rule{
		{len(d.CommentStart), "comment_begin", altComment},
		{len(d.BlockStart), "block_begin", altBlock},
		{len(d.VariableStart), "variable_begin", altVar},
	}
	if d.LineStatementPrefix != "" {
		rules = append(rules, rule{len(d.LineStatementPrefix), "linestatement_begin", altLineStmt})
		lx.slowRoot = true
	}
	if d.LineCommentPrefix != "" {
		rules = append(rules, rule{len(d.LineCommentPrefix), "linecomment_begin", altLineComment})
		lx.slowRoot = true
	}
	sort.SliceStable(rules, func(i, j int) bool {
		if rules[i].n != rules[j].n {
			return rules[i].n > rules[j].n
		}
		return rules[i].name > rules[j].name
	})
	for _, r := range rules {
		lx.alts = append(lx.alts, r.k)
	}
	lx.first[d.BlockStart[0]] = true
	lx.first[d.VariableStart[0]] = true
	lx.first[d.CommentStart[0]] = true
	b := d.BlockStart[0]
	lx.oneFirst = !lx.slowRoot && d.VariableStart[0] == b && d.CommentStart[0] == b
	return lx
}

func (lx *lexer) fail(pos int, msg string) {
	panic(&lexError{pos: pos, msg: msg})
}

func (lx *lexer) push(t token) {
	lx.queue[lx.qn] = t
	lx.qn++
}

// next returns the next token; after the end it keeps returning EOF.
func (lx *lexer) next() token {
	for lx.qi == lx.qn {
		lx.qi, lx.qn = 0, 0
		if lx.done {
			return token{typ: tEOF, pos: len(lx.src)}
		}
		lx.step()
	}
	t := lx.queue[lx.qi]
	lx.qi++
	return t
}

// step runs the lexer until it queued at least one token or finished.
func (lx *lexer) step() {
	if lx.state == stRoot {
		lx.lexRoot()
		return
	}
	lx.lexTag()
}

// isPySpace reports whether r is whitespace for Python's str.isspace and
// the \s class of the re module (which includes the separators 0x1c-0x1f).
func isPySpace(r rune) bool {
	if r < utf8.RuneSelf {
		switch r {
		case ' ', '\t', '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x1f:
			return true
		}
		return false
	}
	return unicode.IsSpace(r)
}

// skipSpace returns the offset after the whitespace run starting at i.
func skipSpace(s string, i int) int {
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if !isPySpace(rune(c)) {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isPySpace(r) {
			return i
		}
		i += n
	}
	return i
}

// allSpace reports whether s is non-empty and all whitespace (Python's
// whitespace_re.fullmatch).
func allSpace(s string) bool {
	return s != "" && skipSpace(s, 0) == len(s)
}

// sign reads an optional whitespace-control sign at i.
func sign(s string, i int) (byte, int) {
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		return s[i], i + 1
	}
	return 0, i
}

// matchRaw matches `{%(-|+|)\s*raw\s*(?:-%}\s*|%})` at i.
func (lx *lexer) matchRaw(i int) (sg byte, end int, ok bool) {
	s := lx.src
	if !strings.HasPrefix(s[i:], lx.d.BlockStart) {
		return 0, 0, false
	}
	sg, j := sign(s, i+len(lx.d.BlockStart))
	j = skipSpace(s, j)
	if !strings.HasPrefix(s[j:], "raw") {
		return 0, 0, false
	}
	j = skipSpace(s, j+3)
	if j < len(s) && s[j] == '-' && strings.HasPrefix(s[j+1:], lx.d.BlockEnd) {
		return sg, skipSpace(s, j+1+len(lx.d.BlockEnd)), true
	}
	if strings.HasPrefix(s[j:], lx.d.BlockEnd) {
		return sg, j + len(lx.d.BlockEnd), true
	}
	return 0, 0, false
}

// matchAlt matches one opener at q; end is after the opener and its sign.
func (lx *lexer) matchAlt(k altKind, q int) (sg byte, end int, ok bool) {
	s := lx.src
	var p string
	switch k {
	case altComment:
		p = lx.d.CommentStart
	case altBlock:
		p = lx.d.BlockStart
	case altVar:
		p = lx.d.VariableStart
	case altLineStmt:
		// ^[ \t\v]*prefix (multiline ^: start or after \n)
		if q > 0 && s[q-1] != '\n' {
			return 0, 0, false
		}
		for q < len(s) && (s[q] == ' ' || s[q] == '\t' || s[q] == '\v') {
			q++
		}
		p = lx.d.LineStatementPrefix
	case altLineComment:
		// (?:^|(?<=\S))[^\S\r\n]*prefix
		if q > 0 && s[q-1] != '\n' {
			r, _ := utf8.DecodeLastRuneInString(s[:q])
			if isPySpace(r) {
				return 0, 0, false
			}
		}
		for q < len(s) {
			r, n := utf8.DecodeRuneInString(s[q:])
			if r == '\r' || r == '\n' || !isPySpace(r) {
				break
			}
			q += n
		}
		p = lx.d.LineCommentPrefix
	}
	if !strings.HasPrefix(s[q:], p) {
		return 0, 0, false
	}
	sg, end = sign(s, q+len(p))
	return sg, end, true
}

// findOpener finds the earliest opener at or after p, like the lazy
// `(.*?)(?:raw|openers...)` root rule.
func (lx *lexer) findOpener(p int) (q int, k altKind, sg byte, end int) {
	s := lx.src
	if lx.oneFirst {
		// the text between tags is most of a long template: memchr
		// speed through it, the same positions tried in the same order
		for q = p; q < len(s); q++ {
			i := strings.IndexByte(s[q:], lx.d.BlockStart[0])
			if i < 0 {
				break
			}
			q += i
			if k, sg, end, ok := lx.openerAt(q); ok {
				return q, k, sg, end
			}
		}
		return -1, 0, 0, 0
	}
	for q = p; q < len(s); q++ {
		c := s[q]
		if !lx.first[c] {
			if !lx.slowRoot || c&0xC0 == 0x80 {
				continue
			}
		}
		if k, sg, end, ok := lx.openerAt(q); ok {
			return q, k, sg, end
		}
	}
	return -1, 0, 0, 0
}

// openerAt matches an opener at q: raw first, then the alternatives in
// Jinja's order.
func (lx *lexer) openerAt(q int) (k altKind, sg byte, end int, ok bool) {
	if lx.src[q] == lx.d.BlockStart[0] {
		if sg, end, ok := lx.matchRaw(q); ok {
			return altRaw, sg, end, true
		}
	}
	for _, a := range lx.alts {
		if sg, end, ok := lx.matchAlt(a, q); ok {
			return a, sg, end, true
		}
	}
	return 0, 0, 0, false
}

// stripText applies the OptionalLStrip rule of Jinja's lexer to the text
// before an opener: '-' strips all trailing whitespace, lstrip_blocks strips
// the indentation of a block/comment tag that starts a line.
func (lx *lexer) stripText(text string, sg byte, isVar bool) string {
	if sg == '-' {
		return strings.TrimRightFunc(text, isPySpace)
	}
	if sg != '+' && lx.lstrip && !isVar {
		lpos := strings.LastIndexByte(text, '\n') + 1
		if (lpos > 0 || lx.lineStarting) && allSpace(text[lpos:]) {
			return text[:lpos]
		}
	}
	return text
}

func (lx *lexer) setLineStarting(end int) {
	lx.lineStarting = end > 0 && lx.src[end-1] == '\n'
}

func (lx *lexer) lexRoot() {
	s := lx.src
	p := lx.pos
	if p >= len(s) {
		lx.done = true
		return
	}
	q, k, sg, end := lx.findOpener(p)
	if q < 0 {
		lx.push(token{typ: tData, pos: p, val: s[p:]})
		lx.pos = len(s)
		lx.setLineStarting(len(s))
		return
	}
	text := lx.stripText(s[p:q], sg, k == altVar)
	if text != "" {
		lx.push(token{typ: tData, pos: p, val: text})
	}
	lx.pos = end
	lx.setLineStarting(end)
	switch k {
	case altRaw:
		lx.lexRaw()
	case altComment:
		lx.lexComment()
	case altBlock:
		lx.state = stBlock
		lx.push(token{typ: tBlockBegin, pos: q})
	case altVar:
		lx.state = stVar
		lx.push(token{typ: tVarBegin, pos: q})
	case altLineStmt:
		lx.state = stLine
		lx.push(token{typ: tBlockBegin, pos: q})
	case altLineComment:
		// (.*?)()(?=\n|$): the newline stays data.
		if i := strings.IndexByte(s[end:], '\n'); i >= 0 {
			lx.pos = end + i
		} else {
			lx.pos = len(s)
		}
		lx.setLineStarting(lx.pos)
	}
}

// matchTagEnd matches the block end rule `\+%}|\-%}\s*|%}\n?` (the
// newline only with trim_blocks) at i for the given end delimiter.
func (lx *lexer) matchTagEnd(i int, end string, trimmable bool) (int, bool) {
	s := lx.src
	if i < len(s) && (s[i] == '+' || s[i] == '-') && strings.HasPrefix(s[i+1:], end) {
		if s[i] == '+' {
			return i + 1 + len(end), true
		}
		return skipSpace(s, i+1+len(end)), true
	}
	if strings.HasPrefix(s[i:], end) {
		j := i + len(end)
		if trimmable && lx.trim && j < len(s) && s[j] == '\n' {
			j++
		}
		return j, true
	}
	return 0, false
}

// lexComment skips a comment body and its end marker.
func (lx *lexer) lexComment() {
	s := lx.src
	p := lx.pos
	ce := lx.d.CommentEnd
	k := strings.Index(s[p:], ce)
	if k < 0 {
		if p < len(s) {
			lx.fail(p, "Missing end of comment tag")
		}
		lx.done = true
		return
	}
	k += p
	r := k
	if k-1 >= p && (s[k-1] == '-' || s[k-1] == '+') {
		r = k - 1
	}
	end, _ := lx.matchTagEnd(r, ce, true)
	lx.pos = end
	lx.setLineStarting(end)
}

// matchEndraw matches `{%(-|+|)\s*endraw\s*(?:\+%}|\-%}\s*|%}\n?)` at i.
func (lx *lexer) matchEndraw(i int) (sg byte, end int, ok bool) {
	s := lx.src
	sg, j := sign(s, i+len(lx.d.BlockStart))
	j = skipSpace(s, j)
	if !strings.HasPrefix(s[j:], "endraw") {
		return 0, 0, false
	}
	j = skipSpace(s, j+6)
	end, ok = lx.matchTagEnd(j, lx.d.BlockEnd, true)
	return sg, end, ok
}

// lexRaw reads the body of {% raw %} up to its {% endraw %}.
func (lx *lexer) lexRaw() {
	s := lx.src
	p := lx.pos
	for from := p; ; {
		k := strings.Index(s[from:], lx.d.BlockStart)
		if k < 0 {
			break
		}
		k += from
		if sg, end, ok := lx.matchEndraw(k); ok {
			text := lx.stripText(s[p:k], sg, false)
			if text != "" {
				lx.push(token{typ: tData, pos: p, val: text})
			}
			lx.pos = end
			lx.setLineStarting(end)
			return
		}
		from = k + 1
	}
	if p < len(s) {
		lx.fail(p, "Missing end of raw directive")
	}
	lx.done = true
}

// lexTag produces the next token inside {% %}, {{ }} or a line statement.
func (lx *lexer) lexTag() {
	s := lx.src
	for {
		i := lx.pos
		if len(lx.balance) == 0 {
			switch lx.state {
			case stBlock:
				if end, ok := lx.matchTagEnd(i, lx.d.BlockEnd, true); ok {
					lx.endTag(tBlockEnd, i, end)
					return
				}
			case stVar:
				if end, ok := lx.matchTagEnd(i, lx.d.VariableEnd, false); ok && (s[i] != '+') {
					lx.endTag(tVarEnd, i, end)
					return
				}
			case stLine:
				// \s*(\n|$): through the last newline of the whitespace
				// run, or to the end of the source.
				j := skipSpace(s, i)
				if j == len(s) {
					lx.endTag(tBlockEnd, i, j)
					return
				}
				if nl := strings.LastIndexByte(s[i:j], '\n'); nl >= 0 {
					lx.endTag(tBlockEnd, i, i+nl+1)
					return
				}
			}
		}
		if i >= len(s) {
			lx.done = true
			return
		}
		// whitespace
		if j := skipSpace(s, i); j > i {
			lx.pos = j
			lx.setLineStarting(j)
			continue
		}
		lx.lexOperand(i)
		return
	}
}

func (lx *lexer) endTag(t tokType, i, end int) {
	lx.push(token{typ: t, pos: i})
	lx.pos = end
	lx.state = stRoot
	lx.setLineStarting(end)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digitRun matches `(\d+_)*\d+` at i; it returns -1 when there is none.
func digitRun(s string, i int, ok func(byte) bool) int {
	if i >= len(s) || !ok(s[i]) {
		return -1
	}
	for {
		for i < len(s) && ok(s[i]) {
			i++
		}
		if i+1 < len(s) && s[i] == '_' && ok(s[i+1]) {
			i++
			continue
		}
		return i
	}
}

// matchFloat mirrors float_re at i.
func matchFloat(s string, i int) int {
	if i > 0 && s[i-1] == '.' {
		return -1
	}
	j := digitRun(s, i, isDigit)
	if j < 0 {
		return -1
	}
	// (\.(\d+_)*\d+)?e[+\-]?(\d+_)*\d+
	k := j
	if k < len(s) && s[k] == '.' {
		if f := digitRun(s, k+1, isDigit); f >= 0 {
			k = f
		}
	}
	if e := matchExp(s, k); e >= 0 {
		return e
	}
	if k != j {
		if e := matchExp(s, j); e >= 0 { // regex backtracking: no fraction
			return e
		}
		return k // \.(\d+_)*\d+
	}
	return -1
}

func matchExp(s string, i int) int {
	if i >= len(s) || (s[i] != 'e' && s[i] != 'E') {
		return -1
	}
	i++
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	return digitRun(s, i, isDigit)
}

// matchInt mirrors integer_re at i; base is the literal's base.
func matchInt(s string, i int) (end, base int) {
	if i >= len(s) || !isDigit(s[i]) {
		return -1, 0
	}
	if s[i] == '0' && i+1 < len(s) {
		var ok func(byte) bool
		switch s[i+1] {
		case 'b', 'B':
			ok, base = func(c byte) bool { return c == '0' || c == '1' }, 2
		case 'o', 'O':
			ok, base = func(c byte) bool { return c >= '0' && c <= '7' }, 8
		case 'x', 'X':
			ok, base = func(c byte) bool {
				return isDigit(c) || (c|0x20) >= 'a' && (c|0x20) <= 'f'
			}, 16
		}
		if ok != nil {
			// (_?[digits])+
			j := i + 2
			for {
				if j < len(s) && ok(s[j]) {
					j++
				} else if j+1 < len(s) && s[j] == '_' && ok(s[j+1]) {
					j += 2
				} else {
					break
				}
			}
			if j > i+2 {
				return j, base
			}
		}
	}
	if s[i] == '0' {
		// 0(_?0)*
		j := i + 1
		for {
			if j < len(s) && s[j] == '0' {
				j++
			} else if j+1 < len(s) && s[j] == '_' && s[j+1] == '0' {
				j += 2
			} else {
				return j, 10
			}
		}
	}
	j := i + 1
	for {
		if j < len(s) && isDigit(s[j]) {
			j++
		} else if j+1 < len(s) && s[j] == '_' && isDigit(s[j+1]) {
			j += 2
		} else {
			return j, 10
		}
	}
}

// isNameRune approximates the characters of Jinja's name_re (\w plus the
// combining marks of jinja2/_identifier.py).
func isNameRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || isDigit(byte(r)) || (r|0x20) >= 'a' && (r|0x20) <= 'z'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc) || r == 0xB7 || r == 0x387 || r == 0x2E31
}

// isIdentifier approximates Python's str.isidentifier (XID_Start followed
// by XID_Continue).
func isIdentifier(s string) bool {
	for i, r := range s {
		if r < utf8.RuneSelf {
			if r == '_' || (r|0x20) >= 'a' && (r|0x20) <= 'z' || i > 0 && isDigit(byte(r)) {
				continue
			}
			return false
		}
		if unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r) {
			continue
		}
		if i > 0 && (unicode.In(r, unicode.Nd, unicode.Mn, unicode.Mc, unicode.Pc) || unicode.Is(unicode.Other_ID_Continue, r)) {
			continue
		}
		return false
	}
	return s != ""
}

// matchString mirrors string_re at i: a quoted string with backslash
// escapes (any character, newlines included, may follow a backslash).
func matchString(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case q:
			return j + 1
		case '\\':
			j++
			if j < len(s) && s[j] >= utf8.RuneSelf {
				_, n := utf8.DecodeRuneInString(s[j:])
				j += n - 1
			}
		}
	}
	return -1
}

// lexOperand lexes float, integer, name, string or operator at i.
func (lx *lexer) lexOperand(i int) {
	s := lx.src
	c := s[i]
	if isDigit(c) {
		if j := matchFloat(s, i); j >= 0 {
			f, ok := strutil.ParseFloat(strings.ReplaceAll(s[i:j], "_", ""))
			if !ok {
				lx.fail(i, "invalid float literal")
			}
			lx.push(token{typ: tFloat, pos: i, fnum: f})
			lx.pos = j
			return
		}
		j, base := matchInt(s, i)
		lit := strings.ReplaceAll(s[i:j], "_", "")
		if base != 10 {
			lit = lit[2:]
		}
		n, err := strconv.ParseUint(lit, base, 64)
		if err != nil || n > 1<<63-1 {
			lx.fail(i, "integer literal "+clip(s[i:j])+" is wider than 64 bits")
		}
		lx.push(token{typ: tInt, pos: i, num: int64(n)})
		lx.pos = j
		return
	}
	if lx.regexLit && c == 'r' && i+1 < len(s) && s[i+1] == '/' {
		lx.regexLiteral(i)
		return
	}
	// name
	j := i
	for j < len(s) {
		r, n := rune(s[j]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[j:])
		}
		if !isNameRune(r) {
			break
		}
		j += n
	}
	if j > i {
		name := s[i:j]
		if !isIdentifier(name) {
			lx.fail(i, "Invalid character in identifier")
		}
		lx.push(token{typ: tName, pos: i, val: name})
		lx.pos = j
		return
	}
	if c == '\'' || c == '"' {
		if j := matchString(s, i); j >= 0 {
			v, msg := unescape(s[i+1 : j-1])
			if msg != "" {
				lx.fail(i, msg)
			}
			lx.push(token{typ: tString, pos: i, val: v})
			lx.pos = j
			return
		}
	}
	t := operatorAt(s, i)
	if t == 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		lx.fail(i, "unexpected char "+pyRepr(string(r))+" at "+strconv.Itoa(utf8.RuneCountInString(s[:i])))
	}
	switch t {
	case tLBrace:
		lx.balance = append(lx.balance, '}')
	case tLParen:
		lx.balance = append(lx.balance, ')')
	case tLBracket:
		lx.balance = append(lx.balance, ']')
	case tRBrace, tRParen, tRBracket:
		ch := opText[t]
		if len(lx.balance) == 0 {
			lx.fail(i, "unexpected '"+ch+"'")
		}
		want := lx.balance[len(lx.balance)-1]
		lx.balance = lx.balance[:len(lx.balance)-1]
		if want != ch[0] {
			lx.fail(i, "unexpected '"+ch+"', expected '"+string(want)+"'")
		}
	}
	lx.push(token{typ: t, pos: i})
	lx.pos = i + len(opText[t])
}

// clip shortens s for a message.
func clip(s string) string {
	if len(s) > 30 {
		return s[:30] + "..."
	}
	return s
}

// operatorAt returns the operator token at i (longest first), or 0.
func operatorAt(s string, i int) tokType {
	c := s[i]
	var n byte
	if i+1 < len(s) {
		n = s[i+1]
	}
	switch c {
	case '+':
		return tAdd
	case '-':
		return tSub
	case '/':
		if n == '/' {
			return tFloorDiv
		}
		return tDiv
	case '*':
		if n == '*' {
			return tPow
		}
		return tMul
	case '%':
		return tMod
	case '~':
		return tTilde
	case '[':
		return tLBracket
	case ']':
		return tRBracket
	case '(':
		return tLParen
	case ')':
		return tRParen
	case '{':
		return tLBrace
	case '}':
		return tRBrace
	case '=':
		if n == '=' {
			return tEq
		}
		return tAssign
	case '!':
		if n == '=' {
			return tNe
		}
	case '>':
		if n == '=' {
			return tGtEq
		}
		return tGt
	case '<':
		if n == '=' {
			return tLtEq
		}
		return tLt
	case '.':
		return tDot
	case ':':
		return tColon
	case '|':
		return tPipe
	case ',':
		return tComma
	case ';':
		return tSemicolon
	}
	return 0
}

// unescape decodes a string literal body the way Jinja does:
// value.encode("ascii", "backslashreplace").decode("unicode-escape").
// A backslash before a non-ASCII character therefore escapes the first
// character of that character's \x/\u/\U replacement. It returns a
// non-empty message on a malformed escape.
func unescape(s string) (string, string) {
	if strings.IndexByte(s, '\\') < 0 {
		return s, ""
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			j := i + 1
			for j < len(s) && s[j] != '\\' {
				j++
			}
			b.WriteString(s[i:j])
			i = j
			continue
		}
		i++
		if i >= len(s) {
			return "", "\\ at end of string"
		}
		c = s[i]
		if c >= utf8.RuneSelf {
			// backslashreplace form without its backslash, kept literally
			r, n := utf8.DecodeRuneInString(s[i:])
			b.WriteByte('\\')
			switch {
			case r < 0x100:
				b.WriteString("x" + hex(uint32(r), 2))
			case r < 0x10000:
				b.WriteString("u" + hex(uint32(r), 4))
			default:
				b.WriteString("U" + hex(uint32(r), 8))
			}
			// ("\\" decodes to one backslash; "xe9" stays literal text)
			i += n
			continue
		}
		i++
		switch c {
		case '\n':
		case '\\':
			b.WriteByte('\\')
		case '\'':
			b.WriteByte('\'')
		case '"':
			b.WriteByte('"')
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'f':
			b.WriteByte(12)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte(11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := rune(c - '0')
			for k := 0; k < 2 && i < len(s) && s[i] >= '0' && s[i] <= '7'; k++ {
				v = v*8 + rune(s[i]-'0')
				i++
			}
			b.WriteRune(v)
		case 'x', 'u', 'U':
			n := 2
			msg := "truncated \\xXX escape"
			if c == 'u' {
				n, msg = 4, "truncated \\uXXXX escape"
			} else if c == 'U' {
				n, msg = 8, "truncated \\UXXXXXXXX escape"
			}
			if i+n > len(s) {
				return "", msg
			}
			v, err := strconv.ParseUint(s[i:i+n], 16, 32)
			if err != nil || strings.ContainsAny(s[i:i+n], "+-_") {
				return "", msg
			}
			if v > unicode.MaxRune {
				return "", "illegal Unicode character"
			}
			b.WriteRune(rune(v)) // surrogates become U+FFFD
			i += n
		case 'N':
			// \N{NAME}: Python's unicode-escape codec takes NAME up to the
			// first '}' and looks it up (package unames). The scan for '}'
			// is linear and happens at most once per literal that fails
			// (either failure ends the decoding), and a name that resolves
			// is consumed, so decoding stays linear in the literal; Lookup
			// itself is bounded by unames.MaxLen and does not allocate.
			const malformed = "malformed \\N character escape"
			if i >= len(s) || s[i] != '{' {
				return "", malformed
			}
			end := strings.IndexByte(s[i+1:], '}')
			if end <= 0 {
				return "", malformed
			}
			r, ok := unames.Lookup(s[i+1 : i+1+end])
			if !ok {
				return "", "unknown Unicode character name"
			}
			b.WriteRune(r)
			i += end + 2
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}

func hex(v uint32, n int) string {
	const digits = "0123456789abcdef"
	buf := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		buf[i] = digits[v&15]
		v >>= 4
	}
	return string(buf)
}

// pyRepr quotes s like Python's repr of a str (single quotes unless s
// holds a single quote and no double quote).
func pyRepr(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString("\\n")
		case r == '\r':
			b.WriteString("\\r")
		case r == '\t':
			b.WriteString("\\t")
		case r < 0x20 || r == 0x7f:
			b.WriteString("\\x" + hex(uint32(r), 2))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// regexLiteral lexes r/pattern/flags at i as Nunjucks's lexer does
// (lexer.js): the pattern runs to the first slash not preceded by a
// backslash, then the flags are the letters among g, i, m and y that
// follow. A pattern with no closing slash is refused.
func (lx *lexer) regexLiteral(i int) {
	s := lx.src
	j := i + 2
	for ; j < len(s); j++ {
		if s[j] == '/' && s[j-1] != '\\' {
			break
		}
	}
	if j >= len(s) {
		lx.fail(i, "unterminated regular expression literal")
	}
	body := s[i+2 : j]
	k := j + 1
	for k < len(s) && strings.IndexByte("gimy", s[k]) >= 0 {
		k++
	}
	lx.push(token{typ: tRegex, pos: i, val: s[j+1:k] + "/" + body})
	lx.pos = k
}
