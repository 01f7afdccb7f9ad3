package syntax

import (
	"math"
	"sort"
	"strings"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/value"
)

// AST conventions produced by Parse (for the evaluator):
//   - Adjacent template data (around a comment) is merged into one *Text;
//     data is already whitespace-processed and newline-normalised.
//   - {% print a, b %} gives one *Output per expression.
//   - elif is an *If alone in the Else of the previous *If.
//   - Concat (~) is a left-leaning chain of *Binary "~"; ** is
//     left-associative as in Jinja (2**3**2 == 64).
//   - `x is not t` is a *Test with Negated set (Jinja's Not(Test)).
//   - `-x|f` is Filter(Unary(-x)): unary operands take no filters, the
//     filter applies to the unary result, as in Jinja.
//   - x.0 is an *Item with an int *Const key; x[a:b] is a *Slice; x[a, b]
//     is an *Item whose key is a *TupleLit, where slices appear as *Slice
//     with a nil X (Python would index with a slice object).
//   - Empty list, dict and tuple literals have non-nil empty slices.
//   - Template.Blocks holds every block, nested ones included.

// Parse lexes and parses src, a template named name, into its AST. It
// mirrors jinja2/lexer.py and jinja2/parser.py (Jinja2 3.1.2), plus the
// compile-time checks of jinja2/compiler.py that concern grammar
// (duplicate blocks). Filter and test names and underscore rules are not
// checked here.
//
// Parsing runs under m: the source size limit, one work unit per source
// byte for lexing, budget.Elem units per AST node, the AST node limit and
// the nesting depth limit. Every error is an *errs.Error (kind Syntax or
// Budget) with its position set; Parse never panics.
func Parse(name, src string, opts Options, m *budget.Meter) (t *Template, err error) {
	if m == nil {
		m = budget.NewMeter(budget.Limits{})
	}
	if e := m.Check(budget.LimitSourceBytes, int64(len(src)), "template source"); e != nil {
		be := errs.FromBudget(e)
		be.SetPos(name, src, 0)
		return nil, be
	}
	if e := m.Charge(int64(len(src)), "lexing"); e != nil {
		be := errs.FromBudget(e)
		be.SetPos(name, src, 0)
		return nil, be
	}
	p := newParser(name, src, opts, m)
	defer func() {
		if r := recover(); r != nil {
			t = nil
			err = p.convert(r)
		}
	}()
	return p.parse(), nil
}

// parser is a recursive-descent parser over the lazy token stream. Errors
// are raised by panicking with *errs.Error or *lexError; Parse recovers.
type parser struct {
	name     string
	src      string // original source
	norm     string // normalised source (newlines, trailing newline)
	shifts   []int  // normalised offsets after which one \r was dropped
	lx       *lexer
	cur      token
	peek     token
	hasPeek  bool
	m        *budget.Meter
	maxDepth int
	depth    int
	nodes    int
	tokens   int // taken, for pollCancel
	blocks   map[string]*Block
	dupBlock *Block // first block whose name was already defined
	// deferPython is Options.DeferPythonErrors.
	deferPython bool
	// anyDupKwarg: some call gives a keyword twice (CallArgs.DupKwarg),
	// which checkDupKwargs reports once the template has parsed.
	anyDupKwarg bool
	tagStack    []string
	endStack    [][]string
}

func newParser(name, src string, opts Options, m *budget.Meter) *parser {
	depth := m.Limits.NestingDepth
	if depth > hardMaxDepth {
		depth = hardMaxDepth
	}
	p := &parser{name: name, src: src, m: m, maxDepth: int(depth), deferPython: opts.DeferPythonErrors}
	p.norm, p.shifts = normalize(src, opts.KeepTrailingNewline)
	p.lx = newLexer(p.norm, opts)
	return p
}

// normalize mirrors the start of Lexer.tokeniter: \r\n and \r become \n
// and, unless keep is set, one trailing newline is removed. shifts records
// where \r\n collapsed so offsets can be mapped back to src.
func normalize(src string, keep bool) (string, []int) {
	s := src
	var shifts []int
	if strings.IndexByte(src, '\r') >= 0 {
		var b strings.Builder
		b.Grow(len(src))
		for i := 0; i < len(src); i++ {
			c := src[i]
			if c == '\r' {
				b.WriteByte('\n')
				if i+1 < len(src) && src[i+1] == '\n' {
					shifts = append(shifts, b.Len())
					i++
				}
				continue
			}
			b.WriteByte(c)
		}
		s = b.String()
	}
	if !keep && strings.HasSuffix(s, "\n") {
		s = s[:len(s)-1]
	}
	return s, shifts
}

// orig maps a normalised offset to an offset into the original source.
func (p *parser) orig(n int) int {
	if len(p.shifts) == 0 {
		return n
	}
	return n + sort.SearchInts(p.shifts, n+1)
}

// convert turns a recovered panic value into a positioned *errs.Error.
func (p *parser) convert(r any) *errs.Error {
	switch e := r.(type) {
	case *errs.Error:
		return e
	case *lexError:
		se := errs.New(errs.Syntax, e.msg)
		se.PyError = "TemplateSyntaxError"
		p.setPos(se, e.pos)
		return se
	}
	panic(r) // a bug, not a template problem: do not hide it
}

func (p *parser) fail(pos int, msg string) {
	p.failKind(pos, msg, "TemplateSyntaxError")
}

func (p *parser) failKind(pos int, msg, py string) {
	e := errs.New(errs.Syntax, msg)
	e.PyError = py
	p.setPos(e, pos)
	panic(e)
}

// setPos positions e at the normalised offset pos.
func (p *parser) setPos(e *errs.Error, pos int) {
	if pos > len(p.norm) {
		pos = len(p.norm)
	}
	if pos < 0 {
		pos = 0
	}
	p.setPosOrig(e, p.orig(pos))
}

// setPosOrig positions e at the byte offset off of the original source.
// Lines are counted as Jinja counts them: \r\n, \r and \n each end a line.
func (p *parser) setPosOrig(e *errs.Error, off int) {
	e.Name = p.name
	e.Offset = off
	line, col := 1, 1
	for i, r := range p.src {
		if i >= off {
			break
		}
		switch {
		case r == '\n' && i > 0 && p.src[i-1] == '\r':
		case r == '\n' || r == '\r':
			line++
			col = 1
		default:
			col++
		}
	}
	e.Line, e.Col = line, col
}

func (p *parser) budgetFail(err error, pos int) {
	e := errs.FromBudget(err)
	p.setPos(e, pos)
	panic(e)
}

// node accounts for one new AST node at normalised offset pos and returns
// its Base (with the original offset).
func (p *parser) node(pos int) Base {
	p.nodes++
	if int64(p.nodes) > p.m.Limits.ASTNodes {
		if err := p.m.Check(budget.LimitASTNodes, int64(p.nodes), "parse"); err != nil {
			p.budgetFail(err, pos)
		}
	}
	if err := p.m.Charge(budget.Elem, "parse"); err != nil {
		p.budgetFail(err, pos)
	}
	if p.nodes&pollNodes == 0 {
		p.pollCancel(pos)
	}
	return Base{P: p.orig(pos)}
}

// pollCancel ends the parse, with the caller's refusal as it made it
// (the engine's is a render error wrapping ErrCanceled), when the host
// has cancelled the work.
func (p *parser) pollCancel(pos int) {
	if p.m.Cancelled == nil {
		return
	}
	if err := p.m.Cancelled(); err != nil {
		e, ok := err.(*errs.Error)
		if !ok {
			e = errs.Wrap(errs.Render, err)
		}
		p.setPosOrig(e, pos)
		panic(e)
	}
}

// pollNodes+1 is how many nodes (and tokens) the parser takes between two polls of
// the meter's Cancelled: about 0.1 ms of parsing.
const pollNodes = 1<<10 - 1

// enter increases the nesting depth; every recursive descent goes through
// it so that no input can exhaust the Go stack.
func (p *parser) enter() {
	p.depth++
	if p.depth > p.maxDepth {
		p.budgetFail(p.depthError(p.depth), p.cur.pos)
	}
}

// hardMaxDepth bounds parser recursion whatever the configured limit, so
// that a huge nesting_depth setting cannot let input exhaust the Go stack.
const hardMaxDepth = 10000

// depthError is the nesting limit refusal at depth d.
func (p *parser) depthError(d int) error {
	if err := p.m.Check(budget.LimitNestingDepth, int64(d), "nesting"); err != nil {
		return err
	}
	// Only reached above hardMaxDepth with a larger configured limit.
	return &budget.Error{Limit: budget.LimitNestingDepth, Phase: p.m.Phase, Op: "nesting",
		Configured: hardMaxDepth, Observed: int64(d)}
}

func (p *parser) leave() { p.depth-- }

// ---- token stream (jinja2.lexer.TokenStream) ----

func (p *parser) advance() token {
	t := p.cur
	// Tokens that make no node (comments between merged text, a long
	// run of them) poll as nodes do: parsing 130,000 comments in a
	// megabyte made 16 ms of tokens and almost no nodes, and a cancelled
	// render waited for all of it (redteam/cpu/parser-comment-text-merge).
	if p.tokens++; p.tokens&pollNodes == 0 {
		p.pollCancel(t.pos)
	}
	if p.hasPeek {
		p.cur = p.peek
		p.hasPeek = false
	} else if t.typ != tEOF {
		p.cur = p.lx.next()
	}
	if p.cur.typ == tEOF && t.typ != tEOF {
		// Jinja's eof token carries the line of the last real token.
		p.cur.pos = t.pos
	}
	return t
}

func (p *parser) look() token {
	if !p.hasPeek {
		if p.cur.typ == tEOF {
			return p.cur
		}
		p.peek = p.lx.next()
		p.hasPeek = true
	}
	return p.peek
}

func (p *parser) isName(v string) bool { return p.cur.typ == tName && p.cur.val == v }

func (p *parser) skipIf(t tokType) bool {
	if p.cur.typ == t {
		p.advance()
		return true
	}
	return false
}

func (p *parser) skipName(v string) bool {
	if p.isName(v) {
		p.advance()
		return true
	}
	return false
}

// expect mirrors TokenStream.expect and its messages.
func (p *parser) expect(t tokType) token {
	if p.cur.typ != t {
		p.expectFail(describeType(t))
	}
	return p.advance()
}

func (p *parser) expectName(v string) token {
	if !p.isName(v) {
		p.expectFail(v)
	}
	return p.advance()
}

func (p *parser) expectFail(want string) {
	if p.cur.typ == tEOF {
		p.fail(p.cur.pos, "unexpected end of template, expected "+pyRepr(want)+".")
	}
	p.fail(p.cur.pos, "expected token "+pyRepr(want)+", got "+pyRepr(p.cur.describe()))
}

// ---- templates and statements ----

func (p *parser) parse() *Template {
	p.cur = p.lx.next()
	t := &Template{Name: p.name, Source: p.src}
	p.node(0)
	t.Body = p.subparse(nil)
	if p.blocks != nil {
		t.Blocks = p.blocks
	} else {
		t.Blocks = map[string]*Block{}
	}
	if p.dupBlock != nil {
		// jinja2.compiler raises this while compiling (TemplateAssertionError),
		// after the whole template parsed.
		e := newAssertion("block " + pyRepr(p.dupBlock.Name) + " defined twice")
		p.setPosOrig(e, p.dupBlock.P)
		panic(e)
	}
	p.checkTreeDepth(t.Body)
	p.checkCompile(t.Body)
	if p.anyDupKwarg {
		if p.deferPython {
			t.PythonErr = p.deferredDupKwargs(t.Body)
		} else {
			p.checkDupKwargs(t.Body)
		}
	}
	t.Nodes = p.nodes
	return t
}

func (p *parser) curIsAny(names []string) bool {
	if p.cur.typ != tName {
		return false
	}
	for _, n := range names {
		if p.cur.val == n {
			return true
		}
	}
	return false
}

// subparse mirrors Parser.subparse: template data, print tags and
// statements until one of endTokens (tag names) follows a block start.
func (p *parser) subparse(endTokens []string) []Stmt {
	var body []Stmt
	if endTokens != nil {
		p.endStack = append(p.endStack, endTokens)
		defer func() { p.endStack = p.endStack[:len(p.endStack)-1] }()
	}
	// Adjacent data (around comments) is one text node. The pieces of a
	// run are joined once when it ends: appending each piece to the node
	// would copy the run so far every time (quadratic in 'y{##}' * n).
	var run []string
	var runNode *Text
	flush := func() {
		if runNode != nil && len(run) > 1 {
			runNode.Text = strings.Join(run, "")
		}
		run, runNode = run[:0], nil
	}
	defer flush()
	for {
		if p.cur.typ != tData {
			flush()
		}
		switch p.cur.typ {
		case tData:
			t := p.advance()
			if runNode != nil && p.orig(t.pos) > runNode.P {
				run = append(run, t.val)
				continue
			}
			flush()
			runNode = &Text{Base: p.node(t.pos), Text: t.val}
			run = append(run, t.val)
			body = append(grown(body), runNode)
		case tVarBegin:
			t := p.advance()
			b := p.node(t.pos)
			x := p.parseTuple(false, true, nil, false)
			p.expect(tVarEnd)
			body = append(grown(body), &Output{Base: b, X: x})
		case tBlockBegin:
			p.advance()
			if endTokens != nil && p.curIsAny(endTokens) {
				return body
			}
			body = p.parseStatement(body)
			p.expect(tBlockEnd)
		case tEOF:
			return body
		default:
			p.fail(p.cur.pos, "internal parsing error")
		}
	}
}

var statementKeywords = map[string]bool{
	"for": true, "if": true, "block": true, "extends": true, "print": true,
	"macro": true, "include": true, "from": true, "import": true, "set": true,
	"with": true, "autoescape": true, "call": true, "filter": true,
}

// parseStatement parses one tag and appends its statement(s) to body.
func (p *parser) parseStatement(body []Stmt) []Stmt {
	tok := p.cur
	if tok.typ != tName {
		p.fail(tok.pos, "tag name expected")
	}
	if !statementKeywords[tok.val] {
		p.failUnknownTag(tok.val, tok.pos)
	}
	p.tagStack = append(p.tagStack, tok.val)
	defer func() { p.tagStack = p.tagStack[:len(p.tagStack)-1] }()
	switch tok.val {
	case "for":
		return append(body, p.parseFor())
	case "if":
		return append(body, p.parseIf())
	case "block":
		return append(body, p.parseBlock())
	case "extends":
		t := p.advance()
		b := p.node(t.pos)
		return append(body, &Extends{Base: b, Template: p.parseExpression(true)})
	case "print":
		p.advance()
		n := 0
		for p.cur.typ != tBlockEnd {
			if n > 0 {
				p.expect(tComma)
			}
			b := p.node(p.cur.pos)
			body = append(grown(body), &Output{Base: b, X: p.parseExpression(true)})
			n++
		}
		return body
	case "macro":
		return append(body, p.parseMacro())
	case "include":
		return append(body, p.parseInclude())
	case "from":
		return append(body, p.parseFrom())
	case "import":
		return append(body, p.parseImport())
	case "set":
		return append(body, p.parseSet())
	case "with":
		return append(body, p.parseWith())
	case "autoescape":
		t := p.advance()
		b := p.node(t.pos)
		x := p.parseExpression(true)
		return append(body, &Autoescape{Base: b, X: x, Body: p.parseStatements([]string{"endautoescape"}, true)})
	case "call":
		return append(body, p.parseCallBlock())
	default: // "filter"
		t := p.advance()
		b := p.node(t.pos)
		f := p.parseFilter(nil, true).(*Filter)
		return append(body, &FilterBlock{Base: b, Filter: f, Body: p.parseStatements([]string{"endfilter"}, true)})
	}
}

// parseStatements mirrors Parser.parse_statements.
func (p *parser) parseStatements(endTokens []string, dropNeedle bool) []Stmt {
	p.skipIf(tColon)
	p.expect(tBlockEnd)
	p.enter()
	body := p.subparse(endTokens)
	p.leave()
	if p.cur.typ == tEOF {
		p.failEOF(endTokens, p.cur.pos)
	}
	if dropNeedle {
		p.advance()
	}
	return body
}

// failUnknownTag and failEOF mirror Parser._fail_ut_eof.
func (p *parser) failUnknownTag(name string, pos int) {
	p.failUTEOF(name, true, p.endStack, pos)
}

func (p *parser) failEOF(endTokens []string, pos int) {
	stack := append(append([][]string(nil), p.endStack...), endTokens)
	p.failUTEOF("", false, stack, pos)
}

func (p *parser) failUTEOF(name string, hasName bool, stack [][]string, pos int) {
	expected := map[string]bool{}
	for _, ts := range stack {
		for _, t := range ts {
			expected[t] = true
		}
	}
	var looking string
	if len(stack) > 0 {
		top := stack[len(stack)-1]
		q := make([]string, len(top))
		for i, t := range top {
			q[i] = pyRepr(t)
		}
		looking = strings.Join(q, " or ")
	}
	var msg []string
	if !hasName {
		msg = append(msg, "Unexpected end of template.")
	} else {
		msg = append(msg, "Encountered unknown tag "+pyRepr(name)+".")
	}
	if looking != "" {
		if hasName && expected[name] {
			msg = append(msg, "You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for "+looking+".")
		} else {
			msg = append(msg, "Jinja was looking for the following tags: "+looking+".")
		}
	}
	if len(p.tagStack) > 0 {
		msg = append(msg, "The innermost block that needs to be closed is "+pyRepr(p.tagStack[len(p.tagStack)-1])+".")
	}
	p.fail(pos, strings.Join(msg, " "))
}

func (p *parser) parseFor() Stmt {
	t := p.expectName("for")
	n := &For{Base: p.node(t.pos)}
	n.Target = p.parseAssignTarget(true, false, []string{"in"}, false)
	p.expectName("in")
	n.Iter = p.parseTuple(false, false, []string{"recursive"}, false)
	if p.skipName("if") {
		n.Filter = p.parseExpression(true)
	}
	n.Recursive = p.skipName("recursive")
	n.Body = p.parseStatements([]string{"endfor", "else"}, false)
	if p.advance().val != "endfor" {
		n.Else = p.parseStatements([]string{"endfor"}, true)
	}
	return n
}

func (p *parser) parseIf() Stmt {
	t := p.expectName("if")
	result := &If{Base: p.node(t.pos)}
	n := result
	for {
		n.Cond = p.parseTuple(false, false, nil, false)
		n.Body = p.parseStatements([]string{"elif", "else", "endif"}, false)
		tok := p.advance()
		if tok.typ == tName && tok.val == "elif" {
			// elif is an If nested alone in the Else of the previous one.
			next := &If{Base: p.node(p.cur.pos), Elif: true}
			n.Else = []Stmt{next}
			n = next
			continue
		}
		if tok.typ == tName && tok.val == "else" {
			n.Else = p.parseStatements([]string{"endif"}, true)
		}
		break
	}
	return result
}

func (p *parser) parseWith() Stmt {
	t := p.advance()
	n := &With{Base: p.node(t.pos)}
	for p.cur.typ != tBlockEnd {
		if len(n.Targets) > 0 {
			p.expect(tComma)
		}
		n.Targets = append(n.Targets, p.parseAssignTarget(true, false, nil, false))
		p.expect(tAssign)
		n.Values = append(grown(n.Values), p.parseExpression(true))
	}
	n.Body = p.parseStatements([]string{"endwith"}, true)
	return n
}

func (p *parser) parseBlock() Stmt {
	t := p.advance()
	n := &Block{Base: p.node(t.pos)}
	n.Name = p.expect(tName).val
	n.Scoped = p.skipName("scoped")
	n.Required = p.skipName("required")
	if p.cur.typ == tSub {
		p.fail(p.cur.pos, "Block names in Jinja have to be valid Python identifiers and may not contain hyphens, use an underscore instead.")
	}
	n.Body = p.parseStatements([]string{"endblock"}, true)
	if n.Required {
		for _, s := range n.Body {
			tx, ok := s.(*Text)
			if !ok || strings.TrimFunc(tx.Text, isPySpace) != "" {
				p.fail(p.cur.pos, "Required blocks can only contain comments or whitespace")
			}
		}
	}
	p.skipName(n.Name)
	if p.blocks == nil {
		p.blocks = map[string]*Block{}
	}
	if _, dup := p.blocks[n.Name]; dup {
		if p.dupBlock == nil {
			p.dupBlock = n
		}
	} else {
		p.blocks[n.Name] = n
	}
	return n
}

// parseImportContext mirrors Parser.parse_import_context.
func (p *parser) parseImportContext(def bool) bool {
	if (p.isName("with") || p.isName("without")) && p.look().typ == tName && p.look().val == "context" {
		with := p.advance().val == "with"
		p.advance()
		return with
	}
	return def
}

func (p *parser) parseInclude() Stmt {
	t := p.advance()
	n := &Include{Base: p.node(t.pos)}
	n.Template = p.parseExpression(true)
	if p.isName("ignore") && p.look().typ == tName && p.look().val == "missing" {
		n.IgnoreMissing = true
		p.advance()
		p.advance()
	}
	n.WithContext = p.parseImportContext(true)
	return n
}

func (p *parser) parseImport() Stmt {
	t := p.advance()
	n := &Import{Base: p.node(t.pos)}
	n.Template = p.parseExpression(true)
	p.expectName("as")
	_, n.Target = p.targetName()
	n.WithContext = p.parseImportContext(false)
	return n
}

func (p *parser) parseFrom() Stmt {
	t := p.advance()
	n := &FromImport{Base: p.node(t.pos)}
	n.Template = p.parseExpression(true)
	p.expectName("import")
	// Jinja tests the token value only here, whatever its type.
	parseContext := func() bool {
		if (p.cur.val == "with" || p.cur.val == "without") && p.look().typ == tName && p.look().val == "context" {
			n.WithContext = p.advance().val == "with"
			p.advance()
			return true
		}
		return false
	}
	for {
		if len(n.Names) > 0 {
			p.expect(tComma)
		}
		if p.cur.typ != tName {
			p.expect(tName)
		}
		if parseContext() {
			break
		}
		target := p.parseNameTarget()
		if strings.HasPrefix(target.Name, "_") {
			p.failKind(p.cur.pos, "names starting with an underline can not be imported", "TemplateAssertionError")
		}
		in := ImportName{Name: target.Name, Alias: target.Name}
		if p.skipName("as") {
			_, in.Alias = p.targetName()
		}
		n.Names = append(n.Names, in)
		if parseContext() || p.cur.typ != tComma {
			break
		}
	}
	return n
}

// parseSignature mirrors Parser.parse_signature.
func (p *parser) parseSignature() []Param {
	params := []Param{}
	hasDefault := false
	p.expect(tLParen)
	for p.cur.typ != tRParen {
		if len(params) > 0 {
			p.expect(tComma)
		}
		_, name := p.targetName()
		prm := Param{Name: name}
		if p.skipIf(tAssign) {
			prm.Default = p.parseExpression(true)
			hasDefault = true
		} else if hasDefault {
			p.fail(p.cur.pos, "non-default argument follows default argument")
		}
		params = append(grown(params), prm)
	}
	p.expect(tRParen)
	return params
}

func (p *parser) parseMacro() Stmt {
	t := p.advance()
	n := &Macro{Base: p.node(t.pos)}
	_, n.Name = p.targetName()
	n.Params = p.parseSignature()
	n.Body = p.parseStatements([]string{"endmacro"}, true)
	return n
}

func (p *parser) parseCallBlock() Stmt {
	t := p.advance()
	n := &CallBlock{Base: p.node(t.pos)}
	if p.cur.typ == tLParen {
		n.Params = p.parseSignature()
	}
	x := p.parseExpression(true)
	c, ok := x.(*Call)
	if !ok {
		p.fail(t.pos, "expected call")
	}
	n.Call = c
	n.Body = p.parseStatements([]string{"endcall"}, true)
	return n
}

func (p *parser) parseSet() Stmt {
	t := p.advance()
	b := p.node(t.pos)
	target := p.parseAssignTarget(true, false, nil, true)
	if p.skipIf(tAssign) {
		return &Set{Base: b, Target: target, X: p.parseTuple(false, true, nil, false)}
	}
	n := &SetBlock{Base: b, Target: target}
	if f := p.parseFilter(nil, false); f != nil {
		n.Filter = f.(*Filter)
	}
	n.Body = p.parseStatements([]string{"endset"}, true)
	return n
}

// parseNameTarget is parse_assign_target(name_only=True).
func (p *parser) parseNameTarget() *Name {
	b, name := p.targetName()
	return &Name{Base: b, Name: name}
}

// targetName reads a name that is assigned, counted as a node and
// checked, and returns the node's base and the name: a caller that keeps
// the name alone (a parameter, a macro's name, an import's names) makes
// no node to drop (50,000 parameters made 50,000).
func (p *parser) targetName() (Base, string) {
	t := p.expect(tName)
	b := p.node(t.pos)
	if !assignableName(t.val) {
		p.fail(t.pos, "can't assign to 'name'")
	}
	return b, t.val
}

// assignableName reports whether a name can be assigned: a constant's
// name cannot.
func assignableName(name string) bool {
	switch name {
	case "true", "false", "none", "True", "False", "None":
		return false
	}
	return true
}

// parseAssignTarget mirrors Parser.parse_assign_target (not name_only).
func (p *parser) parseAssignTarget(withTuple bool, _ bool, extraEnd []string, withNamespace bool) Expr {
	var target Expr
	start := p.cur.pos
	if withNamespace && p.look().typ == tDot {
		t := p.expect(tName)
		p.advance()
		attr := p.expect(tName)
		target = &NSRef{Base: p.node(t.pos), NS: t.val, Attr: attr.val}
	} else if withTuple {
		target = p.parseTuple(true, true, extraEnd, false)
	} else {
		target = p.parsePrimary()
	}
	if !canAssign(target) {
		p.fail(start, "can't assign to "+pyRepr(jinjaNodeName(target)))
	}
	return target
}

// canAssign mirrors Node.can_assign for the store context.
func canAssign(x Expr) bool {
	switch n := x.(type) {
	case *Name:
		return assignableName(n.Name)
	case *NSRef:
		return true
	case *TupleLit:
		for _, it := range n.Items {
			if !canAssign(it) {
				return false
			}
		}
		return true
	}
	return false
}

// jinjaNodeName is the lower-cased jinja2.nodes class name for messages.
func jinjaNodeName(x Expr) string {
	switch n := x.(type) {
	case *Const:
		return "const"
	case *Name:
		return "name"
	case *Attr:
		return "getattr"
	case *Item:
		return "getitem"
	case *Slice:
		return "getitem"
	case *Call:
		return "call"
	case *Filter:
		return "filter"
	case *Test:
		if n.Negated {
			return "not"
		}
		return "test"
	case *Unary:
		switch n.Op {
		case "not":
			return "not"
		case "-":
			return "neg"
		}
		return "pos"
	case *Binary:
		return map[string]string{"+": "add", "-": "sub", "*": "mul", "/": "div", "//": "floordiv",
			"%": "mod", "**": "pow", "~": "concat", "and": "and", "or": "or"}[n.Op]
	case *Compare:
		return "compare"
	case *CondExpr:
		return "condexpr"
	case *ListLit:
		return "list"
	case *TupleLit:
		return "tuple"
	case *DictLit:
		return "dict"
	}
	return "node"
}

// ---- expressions ----

// parseExpression mirrors Parser.parse_expression; it is the recursion
// point of every nested expression, so it counts nesting depth.
func (p *parser) parseExpression(withCondexpr bool) Expr {
	p.enter()
	defer p.leave()
	if withCondexpr {
		return p.parseCondexpr()
	}
	return p.parseOr()
}

func (p *parser) parseCondexpr() Expr {
	pos := p.cur.pos
	x := p.parseOr()
	for p.skipName("if") {
		cond := p.parseOr()
		var els Expr
		if p.skipName("else") {
			p.enter()
			els = p.parseCondexpr()
			p.leave()
		}
		x = &CondExpr{Base: p.node(pos), Cond: cond, Then: x, Else: els}
		pos = p.cur.pos
	}
	return x
}

func (p *parser) parseOr() Expr {
	pos := p.cur.pos
	x := p.parseAnd()
	for p.isName("or") {
		p.advance()
		r := p.parseAnd()
		x = &Binary{Base: p.node(pos), Op: "or", L: x, R: r}
		pos = p.cur.pos
	}
	return x
}

func (p *parser) parseAnd() Expr {
	pos := p.cur.pos
	x := p.parseNot()
	for p.isName("and") {
		p.advance()
		r := p.parseNot()
		x = &Binary{Base: p.node(pos), Op: "and", L: x, R: r}
		pos = p.cur.pos
	}
	return x
}

func (p *parser) parseNot() Expr {
	if p.isName("not") {
		t := p.advance()
		p.enter()
		x := p.parseNot()
		p.leave()
		return &Unary{Base: p.node(t.pos), Op: "not", X: x}
	}
	return p.parseCompare()
}

var cmpOps = map[tokType]string{tEq: "==", tNe: "!=", tLt: "<", tLtEq: "<=", tGt: ">", tGtEq: ">="}

func (p *parser) parseCompare() Expr {
	pos := p.cur.pos
	x := p.parseMath1()
	var ops []CmpOp
	for {
		opPos := p.cur.pos
		if op, ok := cmpOps[p.cur.typ]; ok {
			p.advance()
			ops = append(ops, CmpOp{Op: op, X: p.parseMath1(), P: p.orig(opPos)})
		} else if p.skipName("in") {
			ops = append(ops, CmpOp{Op: "in", X: p.parseMath1(), P: p.orig(opPos)})
		} else if p.isName("not") && p.look().typ == tName && p.look().val == "in" {
			p.advance()
			p.advance()
			ops = append(ops, CmpOp{Op: "notin", X: p.parseMath1(), P: p.orig(opPos)})
		} else {
			break
		}
		p.node(opPos) // the operand, as jinja2.nodes.Operand
	}
	if ops == nil {
		return x
	}
	return &Compare{Base: p.node(pos), First: x, Ops: ops}
}

func (p *parser) parseMath1() Expr {
	pos := p.cur.pos
	x := p.parseConcat()
	for p.cur.typ == tAdd || p.cur.typ == tSub {
		op := opText[p.advance().typ]
		r := p.parseConcat()
		x = &Binary{Base: p.node(pos), Op: op, L: x, R: r}
		pos = p.cur.pos
	}
	return x
}

// parseConcat builds a left-leaning chain of "~" (Jinja's n-ary Concat).
func (p *parser) parseConcat() Expr {
	pos := p.cur.pos
	x := p.parseMath2()
	for p.cur.typ == tTilde {
		p.advance()
		r := p.parseMath2()
		x = &Binary{Base: p.node(pos), Op: "~", L: x, R: r}
	}
	return x
}

func (p *parser) parseMath2() Expr {
	pos := p.cur.pos
	x := p.parsePow()
	for p.cur.typ == tMul || p.cur.typ == tDiv || p.cur.typ == tFloorDiv || p.cur.typ == tMod {
		op := opText[p.advance().typ]
		r := p.parsePow()
		x = &Binary{Base: p.node(pos), Op: op, L: x, R: r}
		pos = p.cur.pos
	}
	return x
}

// parsePow is left-associative, as in Jinja (2**3**2 is 64).
func (p *parser) parsePow() Expr {
	pos := p.cur.pos
	x := p.parseUnary(true)
	for p.cur.typ == tPow {
		p.advance()
		r := p.parseUnary(true)
		x = &Binary{Base: p.node(pos), Op: "**", L: x, R: r}
		pos = p.cur.pos
	}
	return x
}

func (p *parser) parseUnary(withFilter bool) Expr {
	var x Expr
	switch p.cur.typ {
	case tSub, tAdd:
		t := p.advance()
		p.enter()
		operand := p.parseUnary(false)
		p.leave()
		x = &Unary{Base: p.node(t.pos), Op: opText[t.typ], X: operand}
	default:
		x = p.parsePrimary()
	}
	x = p.parsePostfix(x)
	if withFilter {
		x = p.parseFilterExpr(x)
	}
	return x
}

func (p *parser) parsePrimary() Expr {
	t := p.cur
	switch t.typ {
	case tName:
		p.advance()
		switch t.val {
		case "true", "True":
			return &Const{Base: p.node(t.pos), Value: value.True}
		case "false", "False":
			return &Const{Base: p.node(t.pos), Value: value.False}
		case "none", "None":
			return &Const{Base: p.node(t.pos), Value: value.NoneValue}
		}
		return &Name{Base: p.node(t.pos), Name: t.val}
	case tRegex:
		p.advance()
		flags, pattern, _ := strings.Cut(t.val, "/")
		return &RegexLit{Base: p.node(t.pos), Pattern: pattern, Flags: flags}
	case tString:
		p.advance()
		s := t.val
		if p.cur.typ == tString {
			var b strings.Builder
			b.WriteString(s)
			for p.cur.typ == tString {
				b.WriteString(p.advance().val)
			}
			s = b.String()
		}
		return &Const{Base: p.node(t.pos), Value: value.FromString(s)}
	case tInt:
		p.advance()
		return &Const{Base: p.node(t.pos), Value: value.FromInt(t.num)}
	case tFloat:
		p.advance()
		return &Const{Base: p.node(t.pos), Value: value.FromFloat(t.fnum)}
	case tLParen:
		p.advance()
		x := p.parseTuple(false, true, nil, true)
		p.expect(tRParen)
		return x
	case tLBracket:
		return p.parseList()
	case tLBrace:
		return p.parseDict()
	}
	p.fail(t.pos, "unexpected "+pyRepr(t.describe()))
	return nil
}

// parseTuple mirrors Parser.parse_tuple. simplified parses primaries only
// (assignment targets).
func (p *parser) parseTuple(simplified, withCondexpr bool, extraEnd []string, explicitParens bool) Expr {
	pos := p.cur.pos
	var items []Expr
	isTuple := false
	for {
		if len(items) > 0 {
			p.expect(tComma)
		}
		if p.isTupleEnd(extraEnd) {
			break
		}
		var x Expr
		if simplified {
			x = p.parsePrimary()
		} else {
			x = p.parseExpression(withCondexpr)
		}
		items = append(grown(items), x)
		if p.cur.typ != tComma {
			break
		}
		isTuple = true
	}
	if !isTuple {
		if len(items) > 0 {
			return items[0]
		}
		if !explicitParens {
			p.fail(p.cur.pos, "Expected an expression, got "+pyRepr(p.cur.describe()))
		}
	}
	if items == nil {
		items = []Expr{}
	}
	return &TupleLit{Base: p.node(pos), Items: items}
}

func (p *parser) isTupleEnd(extra []string) bool {
	switch p.cur.typ {
	case tVarEnd, tBlockEnd, tRParen:
		return true
	}
	return extra != nil && p.curIsAny(extra)
}

func (p *parser) parseList() Expr {
	t := p.expect(tLBracket)
	n := &ListLit{Base: p.node(t.pos), Items: []Expr{}}
	for p.cur.typ != tRBracket {
		if len(n.Items) > 0 {
			p.expect(tComma)
		}
		if p.cur.typ == tRBracket {
			break
		}
		n.Items = append(grown(n.Items), p.parseExpression(true))
	}
	p.expect(tRBracket)
	return n
}

func (p *parser) parseDict() Expr {
	t := p.expect(tLBrace)
	n := &DictLit{Base: p.node(t.pos), Keys: []Expr{}, Values: []Expr{}}
	for p.cur.typ != tRBrace {
		if len(n.Keys) > 0 {
			p.expect(tComma)
		}
		if p.cur.typ == tRBrace {
			break
		}
		k := p.parseExpression(true)
		p.expect(tColon)
		v := p.parseExpression(true)
		n.Keys = append(grown(n.Keys), k)
		n.Values = append(grown(n.Values), v)
	}
	p.expect(tRBrace)
	return n
}

func (p *parser) parsePostfix(x Expr) Expr {
	for {
		switch p.cur.typ {
		case tDot, tLBracket:
			x = p.parseSubscript(x)
		case tLParen:
			x = p.parseCall(x)
		default:
			return x
		}
	}
}

func (p *parser) parseFilterExpr(x Expr) Expr {
	for {
		switch {
		case p.cur.typ == tPipe:
			x = p.parseFilter(x, false)
		case p.isName("is"):
			x = p.parseTest(x)
		case p.cur.typ == tLParen:
			x = p.parseCall(x)
		default:
			return x
		}
	}
}

// parseSubscript mirrors Parser.parse_subscript: x.name is Attr, x.0 is an
// Item with an int key, x[a] is Item, x[a:b:c] is Slice, and x[a, b] is an
// Item whose key is a tuple (slices inside such a tuple have a nil X).
func (p *parser) parseSubscript(x Expr) Expr {
	t := p.advance()
	if t.typ == tDot {
		at := p.advance()
		switch at.typ {
		case tName:
			return &Attr{Base: p.node(t.pos), X: x, Name: at.val}
		case tInt:
			k := &Const{Base: p.node(at.pos), Value: value.FromInt(at.num)}
			return &Item{Base: p.node(t.pos), X: x, Key: k}
		}
		p.fail(at.pos, "expected name or number")
	}
	// lbracket
	var args []Expr
	for p.cur.typ != tRBracket {
		if len(args) > 0 {
			p.expect(tComma)
		}
		args = append(args, p.parseSubscribed())
	}
	p.expect(tRBracket)
	if len(args) == 1 {
		if s, ok := args[0].(*Slice); ok {
			s.X = x
			s.P = p.orig(t.pos)
			return s
		}
		return &Item{Base: p.node(t.pos), X: x, Key: args[0]}
	}
	if args == nil {
		args = []Expr{}
	}
	key := &TupleLit{Base: p.node(t.pos), Items: args}
	return &Item{Base: p.node(t.pos), X: x, Key: key}
}

// parseSubscribed mirrors Parser.parse_subscribed: an expression or a
// slice (returned as *Slice with a nil X).
func (p *parser) parseSubscribed() Expr {
	pos := p.cur.pos
	var start Expr
	if p.cur.typ == tColon {
		p.advance()
	} else {
		p.enter()
		defer p.leave()
		x := p.parseExpression(true)
		if p.cur.typ != tColon {
			return x
		}
		p.advance()
		start = x
	}
	s := &Slice{Base: p.node(pos), Start: start}
	if p.cur.typ != tColon && p.cur.typ != tRBracket && p.cur.typ != tComma {
		s.Stop = p.parseExpression(true)
	}
	if p.cur.typ == tColon {
		p.advance()
		if p.cur.typ != tRBracket && p.cur.typ != tComma {
			s.Step = p.parseExpression(true)
		}
	}
	return s
}

// parseCallArgs mirrors Parser.parse_call_args.
func (p *parser) parseCallArgs() CallArgs {
	t := p.expect(tLParen)
	var a CallArgs
	ensure := func(ok bool) {
		if !ok {
			p.fail(t.pos, "invalid syntax for function call expression")
		}
	}
	requireComma := false
	var seen map[string]bool // keyword names, for dupKwarg
	for p.cur.typ != tRParen {
		if requireComma {
			p.expect(tComma)
			if p.cur.typ == tRParen {
				break
			}
		}
		switch {
		case p.cur.typ == tMul:
			ensure(a.DynArgs == nil && a.DynKwargs == nil)
			p.advance()
			a.DynArgs = p.parseExpression(true)
		case p.cur.typ == tPow:
			ensure(a.DynKwargs == nil)
			p.advance()
			a.DynKwargs = p.parseExpression(true)
		case p.cur.typ == tName && p.look().typ == tAssign:
			ensure(a.DynKwargs == nil)
			key := p.advance().val
			p.advance()
			if seen == nil {
				seen = map[string]bool{}
			}
			if seen[key] && a.DupKwarg == "" {
				a.DupKwarg, p.anyDupKwarg = key, true
			}
			seen[key] = true
			a.Kwargs = append(grown(a.Kwargs), Kwarg{Name: key, X: p.parseExpression(true)})
		default:
			ensure(a.DynArgs == nil && a.DynKwargs == nil && a.Kwargs == nil)
			a.Args = append(grown(a.Args), p.parseExpression(true))
		}
		requireComma = true
	}
	p.expect(tRParen)
	a.Keys = kwKeys(&a)
	a.Fixed = fixedArgs(&a)
	return a
}

// fixedArgs builds a call's arguments when all are constants, each slice
// made at its exact length, so an append by a caller copies instead of
// writing into the shared array.
func fixedArgs(a *CallArgs) *value.Args {
	if a.DynArgs != nil || a.DynKwargs != nil || a.DupKwarg != "" {
		return nil
	}
	out := &value.Args{}
	if len(a.Args) > 0 {
		out.Pos = make([]value.Value, 0, len(a.Args))
	}
	if len(a.Kwargs) > 0 {
		out.Kw = make([]value.KV, 0, len(a.Kwargs))
	}
	for _, x := range a.Args {
		c, ok := x.(*Const)
		if !ok {
			return nil
		}
		out.Pos = append(out.Pos, c.Value)
	}
	for _, kw := range a.Kwargs {
		c, ok := kw.X.(*Const)
		if !ok {
			return nil
		}
		out.Kw = append(out.Kw, value.KV{Key: kw.Name, Val: c.Value})
	}
	out.Sized = 1 + value.ArgsSize(out, math.MaxInt64) // a call's scratch check reads it
	out.Keys = a.Keys
	return out
}

// kwKeys indexes a call's keyword names once, for the dicts made of its
// keywords (value.Args.Keys): only when the call passes them alone, each
// once (nil otherwise, and for a few).
func kwKeys(a *CallArgs) *value.KwKeys {
	if a.DynKwargs != nil || a.DupKwarg != "" || len(a.Kwargs) <= vmem.SmallDict {
		return nil
	}
	names := make([]string, len(a.Kwargs))
	for i, kw := range a.Kwargs {
		names[i] = kw.Name
	}
	return value.NewKwKeys(names)
}

func (p *parser) parseCall(x Expr) Expr {
	pos := p.cur.pos
	p.enter()
	a := p.parseCallArgs()
	p.leave()
	return &Call{Base: p.node(pos), Fn: x, CallArgs: a}
}

// parseFilter mirrors Parser.parse_filter; with x nil it builds the chain
// of a filter block or set block. It returns nil when there is no filter.
func (p *parser) parseFilter(x Expr, startInline bool) Expr {
	for p.cur.typ == tPipe || startInline {
		if !startInline {
			p.advance()
		}
		t := p.expect(tName)
		name := t.val
		for p.cur.typ == tDot {
			p.advance()
			name += "." + p.expect(tName).val
		}
		f := &Filter{Base: p.node(t.pos), X: x, Name: name}
		if p.cur.typ == tLParen {
			p.enter()
			f.CallArgs = p.parseCallArgs()
			p.leave()
		}
		x = f
		startInline = false
	}
	return x
}

// parseTest mirrors Parser.parse_test, including the single bare argument
// (`x is divisibleby 3`).
func (p *parser) parseTest(x Expr) Expr {
	t := p.advance()
	negated := p.skipName("not")
	name := p.expect(tName).val
	for p.cur.typ == tDot {
		p.advance()
		name += "." + p.expect(tName).val
	}
	n := &Test{Base: p.node(t.pos), X: x, Name: name, Negated: negated}
	switch p.cur.typ {
	case tLParen:
		p.enter()
		n.CallArgs = p.parseCallArgs()
		p.leave()
	case tName, tString, tInt, tFloat, tLBracket, tLBrace:
		if p.isName("else") || p.isName("or") || p.isName("and") {
			break
		}
		if p.isName("is") {
			p.fail(p.cur.pos, "You cannot chain multiple tests with is")
		}
		p.enter()
		arg := p.parsePostfix(p.parsePrimary())
		p.leave()
		n.Args = []Expr{arg}
	}
	return n
}

// grown returns s with room for one more item, the list of a node being
// parsed: append's own growth while it doubles (short lists, the common
// case, keep its small capacities), vmem.Grown's doubling past that, where
// append grows by a quarter and a list of 50,000 parameters or keywords
// allocated five times its size.
func grown[T any](s []T) []T {
	if cap(s) < 256 {
		return s
	}
	return vmem.Grown(s)
}
