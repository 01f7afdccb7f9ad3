// Package syntax owns the Jinja2 grammar: tokens, the lexer, the parser and
// the AST. Positions are byte offsets into the source; line and column are
// computed only when an error is built. Parsing runs under the render meter
// (source size, AST nodes, nesting depth).
package syntax

import (
	"sync/atomic"

	"github.com/jinjabox/jinjabox/engine/value"
)

// Node is any AST node.
type Node interface {
	// Pos is the byte offset of the node in the source.
	Pos() int
}

// Base carries the position of a node.
type Base struct{ P int }

// Pos returns the byte offset.
func (b Base) Pos() int { return b.P }

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// Stmt is a statement (template-level) node.
type Stmt interface {
	Node
	stmtNode()
}

// Template is a parsed template.
type Template struct {
	Name   string
	Source string
	Body   []Stmt
	// Blocks are the top-level and nested {% block %} definitions by name.
	Blocks map[string]*Block
	// Nodes is the number of AST nodes (for limits and cost estimates).
	Nodes int
	// PythonErr is the error Python's compiler raises on the generated
	// code, left here when Options.DeferPythonErrors is set.
	PythonErr error
}

// ---- statements ----

// Text is literal template data (already whitespace-processed).
type Text struct {
	Base
	Text string
}

// Output is {{ X }}.
type Output struct {
	Base
	X Expr
	// Const is set by the engine's static pass, no part of the tree's
	// meaning: X is constant as a whole, which Jinja2's compiler
	// evaluates at compile time through the sandbox's getattr and
	// getitem (CodeGenerator._output_child_to_const), at render time
	// only where that fails; set only when X holds a slice, the one
	// construct that evaluates otherwise there.
	Const bool
}

// If is {% if %}; elif chains are nested Ifs in Else.
type If struct {
	Base
	Cond Expr
	Body []Stmt
	Else []Stmt
	// Elif marks an If written as an elif, alone in the Else of the one
	// before: Jinja2's scoping analysis treats an elif branch unlike an
	// if nested in an else (engine/frames.go).
	Elif bool
}

// For is {% for Target in Iter [if Filter] [recursive] %}.
type For struct {
	Base
	Target    Expr // *Name or *TupleLit of *Name
	Iter      Expr
	Filter    Expr // nil when absent
	Body      []Stmt
	Else      []Stmt
	Recursive bool
}

// Set is {% set Target = X %}. Target is *Name, *TupleLit of *Name, or
// *NSRef (namespace attribute assignment).
type Set struct {
	Base
	Target Expr
	X      Expr
}

// SetBlock is {% set Target [| filters] %}Body{% endset %}. Filter, when
// not nil, is a *Filter chain whose innermost X is nil (the body text).
type SetBlock struct {
	Base
	Target Expr
	Filter *Filter
	Body   []Stmt
}

// With is {% with a = 1, b = 2 %}Body{% endwith %}.
type With struct {
	Base
	Targets []Expr // *Name or *TupleLit
	Values  []Expr
	Body    []Stmt
}

// Param is a macro or call-block parameter.
type Param struct {
	Name    string
	Default Expr // nil when required
}

// Macro is {% macro Name(Params) %}Body{% endmacro %}.
type Macro struct {
	Base
	Name   string
	Params []Param
	Body   []Stmt
}

// CallBlock is {% call(Params) Call %}Body{% endcall %}.
type CallBlock struct {
	Base
	Call   *Call
	Params []Param
	Body   []Stmt
}

// FilterBlock is {% filter f(args)|g %}Body{% endfilter %}; Filter's
// innermost X is nil (the body text).
type FilterBlock struct {
	Base
	Filter *Filter
	Body   []Stmt
}

// Autoescape is {% autoescape X %}Body{% endautoescape %}.
type Autoescape struct {
	Base
	X    Expr
	Body []Stmt
}

// Block is {% block Name [scoped] [required] %}Body{% endblock %}.
type Block struct {
	Base
	Name     string
	Body     []Stmt
	Scoped   bool
	Required bool
}

// Extends is {% extends Template %}.
type Extends struct {
	Base
	Template Expr
}

// Include is {% include Template [ignore missing] [with|without context] %}.
type Include struct {
	Base
	Template      Expr
	IgnoreMissing bool
	WithContext   bool // default true
}

// Import is {% import Template as Target [with context] %}.
type Import struct {
	Base
	Template    Expr
	Target      string
	WithContext bool // default false
}

// ImportName is one name of a from-import.
type ImportName struct {
	Name  string
	Alias string // equals Name when no alias
}

// FromImport is {% from Template import a, b as c [with context] %}.
type FromImport struct {
	Base
	Template    Expr
	Names       []ImportName
	WithContext bool
}

// ---- expressions ----

// Const is a literal: string, int, float, bool, None.
type Const struct {
	Base
	Value value.Value
}

// RegexLit is a Nunjucks regular-expression literal, r/Pattern/Flags
// (Options.RegexLiterals).
type RegexLit struct {
	Base
	Pattern, Flags string
}

// Name is a variable reference (also a binding target).
type Name struct {
	Base
	Name string
	// Slot is Attr.Slot for the render's top-level data: the index Name
	// was last found at there, a guess checked before it is trusted.
	Slot atomic.Int32
}

// NSRef is a namespace attribute assignment target: {% set NS.Attr = ... %}.
type NSRef struct {
	Base
	NS   string
	Attr string
}

// Attr is X.Name.
type Attr struct {
	Base
	X    Expr
	Name string
	// DictKey is set by the engine's static pass, no part of the tree's
	// meaning: Name is not private and names no dict method, so on a
	// dict it reads the key alone (the name rule and the method lookup
	// answered once, at parse).
	DictKey bool
	// Slot is the evaluator's inline cache, no part of the tree's
	// meaning: the index Name was last found at in a dict (the rows of a
	// table put a name at one index), a guess the lookup checks before
	// it trusts it (value.DictData.GetStrAt). Atomic: a parsed template
	// is rendered from any number of goroutines.
	Slot atomic.Int32
}

// Item is X[Key].
type Item struct {
	Base
	X   Expr
	Key Expr
}

// Slice is X[Start:Stop:Step]; absent parts are nil.
type Slice struct {
	Base
	X                 Expr
	Start, Stop, Step Expr
}

// Kwarg is a keyword argument.
type Kwarg struct {
	Name string
	X    Expr
}

// CallArgs are the arguments of a call, filter or test.
type CallArgs struct {
	Args      []Expr
	Kwargs    []Kwarg
	DynArgs   Expr // *args, nil when absent
	DynKwargs Expr // **kwargs, nil when absent
	// DupKwarg is the first keyword given twice ("" when none). The
	// parser refuses it (Python's compiler does, for the code Jinja2
	// generates) except in a filter or test of constants, which Jinja2
	// folds at compile time with the keywords in a dict: the last value
	// of a keyword wins there, and the evaluator passes it so.
	DupKwarg string
	// Fixed holds the arguments, built once at parse time, when every one
	// is a constant (nil otherwise): a render passes it as it is instead
	// of building the same arguments on every call. It is shared by every
	// render of the template, so nothing may modify it.
	Fixed *value.Args
	// Keys indexes the keyword names when the call passes more than a
	// few, each once, and no ** (value.Args.Keys), else nil.
	Keys *value.KwKeys
}

// Call is Fn(args).
type Call struct {
	Base
	Fn Expr
	CallArgs
}

// Filter is X|Name(args). X is nil inside filter blocks and set blocks.
type Filter struct {
	Base
	X    Expr
	Name string
	CallArgs
	// Impl is the filter Name bound by the engine's static pass (its
	// environment's, fixed at its creation), no part of the tree's
	// meaning: nil when the environment has none (a filter in an
	// untaken branch, an error if it runs).
	Impl any
}

// Test is X is [not] Name(args).
type Test struct {
	Base
	X       Expr
	Name    string
	Negated bool
	CallArgs
	// Impl is Filter.Impl for the test Name.
	Impl any
}

// Unary is an operator with one operand: "not", "-", "+".
type Unary struct {
	Base
	Op string
	X  Expr
}

// Binary is an arithmetic or logical operator: + - * / // % ** ~ and or.
type Binary struct {
	Base
	Op   string
	L, R Expr
}

// CmpOp is one link of a comparison chain: Op is one of
// "==" "!=" "<" "<=" ">" ">=" "in" "notin".
type CmpOp struct {
	Op string
	X  Expr
	P  int // position of the operator
}

// Compare is a (possibly chained) comparison.
type Compare struct {
	Base
	First Expr
	Ops   []CmpOp
}

// CondExpr is Then if Cond else Else; Else is nil when absent.
type CondExpr struct {
	Base
	Cond, Then, Else Expr
}

// ListLit is [a, b].
type ListLit struct {
	Base
	Items []Expr
}

// TupleLit is (a, b) or a bare a, b.
type TupleLit struct {
	Base
	Items []Expr
}

// DictLit is {k: v}.
type DictLit struct {
	Base
	Keys, Values []Expr
}

func (*Text) stmtNode()        {}
func (*Output) stmtNode()      {}
func (*If) stmtNode()          {}
func (*For) stmtNode()         {}
func (*Set) stmtNode()         {}
func (*SetBlock) stmtNode()    {}
func (*With) stmtNode()        {}
func (*Macro) stmtNode()       {}
func (*CallBlock) stmtNode()   {}
func (*FilterBlock) stmtNode() {}
func (*Autoescape) stmtNode()  {}
func (*Block) stmtNode()       {}
func (*Extends) stmtNode()     {}
func (*Include) stmtNode()     {}
func (*Import) stmtNode()      {}
func (*FromImport) stmtNode()  {}

// Fold marks a constant expression holding a slice, inserted by the
// engine's static pass, no part of the source: Jinja2's optimizer
// evaluates such an expression at compile time, through the sandbox's
// getitem (a slice's TypeError is an undefined value there), and keeps
// the result where it has a safe repr; where not, the expression runs at
// render time, its own constant parts folded in turn.
type Fold struct {
	Base
	X Expr
}

func (*Fold) exprNode()     {}
func (*Const) exprNode()    {}
func (*RegexLit) exprNode() {}
func (*Name) exprNode()     {}
func (*NSRef) exprNode()    {}
func (*Attr) exprNode()     {}
func (*Item) exprNode()     {}
func (*Slice) exprNode()    {}
func (*Call) exprNode()     {}
func (*Filter) exprNode()   {}
func (*Test) exprNode()     {}
func (*Unary) exprNode()    {}
func (*Binary) exprNode()   {}
func (*Compare) exprNode()  {}
func (*CondExpr) exprNode() {}
func (*ListLit) exprNode()  {}
func (*TupleLit) exprNode() {}
func (*DictLit) exprNode()  {}

// Delimiters are the configurable tag markers.
type Delimiters struct {
	BlockStart, BlockEnd       string // {% %}
	VariableStart, VariableEnd string // {{ }}
	CommentStart, CommentEnd   string // {# #}
	// LineStatementPrefix and LineCommentPrefix enable line statements
	// ("# for x in y") and line comments ("## note") when not empty.
	LineStatementPrefix string
	LineCommentPrefix   string
}

// DefaultDelimiters are Jinja2's.
var DefaultDelimiters = Delimiters{"{%", "%}", "{{", "}}", "{#", "#}", "", ""}

// NunjitsuDelimiters use ${{ }} for variables, as Nunjitsu does.
var NunjitsuDelimiters = Delimiters{"{%", "%}", "${{", "}}", "{#", "#}", "", ""}

// Options control lexing.
type Options struct {
	Delimiters          Delimiters // zero value means DefaultDelimiters
	TrimBlocks          bool
	LstripBlocks        bool
	KeepTrailingNewline bool
	// RegexLiterals lexes Nunjucks's r/pattern/flags literals (the
	// nunjitsu delimiter mode): a RegexLit expression.
	RegexLiterals bool
	// DeferPythonErrors leaves the errors Python's compiler raises on
	// the code Jinja2 generates (a keyword given twice) in
	// Template.PythonErr instead of failing the parse: Jinja2 raises them
	// after its own compile-time checks, which the caller then runs first.
	DeferPythonErrors bool
}
