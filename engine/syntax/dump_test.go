package syntax

import (
	"sort"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/engine/value"
)

// dumpTree renders t as a compact, deterministic S-expression listing,
// one statement per line with bodies indented (the golden file's format);
// positions are omitted.
func dumpTree(t *Template) string {
	var b strings.Builder
	dumpStmts(&b, t.Body, 0)
	if len(t.Blocks) > 0 {
		names := make([]string, 0, len(t.Blocks))
		for n := range t.Blocks {
			names = append(names, n)
		}
		sort.Strings(names)
		b.WriteString("blocks: " + strings.Join(names, " ") + "\n")
	}
	return b.String()
}

func dumpStmts(b *strings.Builder, l []Stmt, ind int) {
	for _, s := range l {
		dumpStmt(b, s, ind)
	}
}

func dumpBody(b *strings.Builder, label string, l []Stmt, ind int) {
	if l == nil {
		return
	}
	b.WriteString(strings.Repeat("  ", ind) + label + ":\n")
	dumpStmts(b, l, ind+1)
}

func dumpParams(b *strings.Builder, ps []Param) {
	b.WriteByte('(')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(p.Name)
		if p.Default != nil {
			b.WriteByte('=')
			dumpExpr(b, p.Default)
		}
	}
	b.WriteByte(')')
}

func dumpStmt(b *strings.Builder, s Stmt, ind int) {
	pad := strings.Repeat("  ", ind)
	b.WriteString(pad)
	x := func(e Expr) { b.WriteByte(' '); dumpExpr(b, e) }
	switch n := s.(type) {
	case *Text:
		b.WriteString("Text " + strconv.Quote(n.Text) + "\n")
	case *Output:
		b.WriteString("Output")
		x(n.X)
		b.WriteByte('\n')
	case *If:
		b.WriteString("If")
		x(n.Cond)
		b.WriteByte('\n')
		dumpBody(b, "then", n.Body, ind+1)
		dumpBody(b, "else", n.Else, ind+1)
	case *For:
		b.WriteString("For")
		x(n.Target)
		x(n.Iter)
		if n.Filter != nil {
			b.WriteString(" if")
			x(n.Filter)
		}
		if n.Recursive {
			b.WriteString(" recursive")
		}
		b.WriteByte('\n')
		dumpBody(b, "body", n.Body, ind+1)
		dumpBody(b, "else", n.Else, ind+1)
	case *Set:
		b.WriteString("Set")
		x(n.Target)
		x(n.X)
		b.WriteByte('\n')
	case *SetBlock:
		b.WriteString("SetBlock")
		x(n.Target)
		if n.Filter != nil {
			x(n.Filter)
		}
		b.WriteByte('\n')
		dumpBody(b, "body", n.Body, ind+1)
	case *With:
		b.WriteString("With")
		for i := range n.Targets {
			x(n.Targets[i])
			b.WriteString(" =")
			x(n.Values[i])
		}
		b.WriteByte('\n')
		dumpBody(b, "body", n.Body, ind+1)
	case *Macro:
		b.WriteString("Macro " + n.Name)
		dumpParams(b, n.Params)
		b.WriteByte('\n')
		dumpBody(b, "body", n.Body, ind+1)
	case *CallBlock:
		b.WriteString("CallBlock")
		if n.Params != nil {
			dumpParams(b, n.Params)
		}
		x(n.Call)
		b.WriteByte('\n')
		dumpBody(b, "body", n.Body, ind+1)
	case *FilterBlock:
		b.WriteString("FilterBlock")
		x(n.Filter)
		b.WriteByte('\n')
		dumpBody(b, "body", n.Body, ind+1)
	case *Autoescape:
		b.WriteString("Autoescape")
		x(n.X)
		b.WriteByte('\n')
		dumpBody(b, "body", n.Body, ind+1)
	case *Block:
		b.WriteString("Block " + n.Name)
		if n.Scoped {
			b.WriteString(" scoped")
		}
		if n.Required {
			b.WriteString(" required")
		}
		b.WriteByte('\n')
		dumpBody(b, "body", n.Body, ind+1)
	case *Extends:
		b.WriteString("Extends")
		x(n.Template)
		b.WriteByte('\n')
	case *Include:
		b.WriteString("Include")
		x(n.Template)
		if n.IgnoreMissing {
			b.WriteString(" ignore-missing")
		}
		if !n.WithContext {
			b.WriteString(" without-context")
		}
		b.WriteByte('\n')
	case *Import:
		b.WriteString("Import")
		x(n.Template)
		b.WriteString(" as " + n.Target)
		if n.WithContext {
			b.WriteString(" with-context")
		}
		b.WriteByte('\n')
	case *FromImport:
		b.WriteString("FromImport")
		x(n.Template)
		for _, in := range n.Names {
			b.WriteString(" " + in.Name)
			if in.Alias != in.Name {
				b.WriteString(":" + in.Alias)
			}
		}
		if n.WithContext {
			b.WriteString(" with-context")
		}
		b.WriteByte('\n')
	default:
		b.WriteString("?\n")
	}
}

func dumpConst(b *strings.Builder, v value.Value) {
	switch v.Kind() {
	case value.String:
		b.WriteString(strconv.Quote(v.Str()))
	case value.Int:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case value.Float:
		s := strconv.FormatFloat(v.Float(), 'g', -1, 64)
		if !strings.ContainsAny(s, ".eIN") {
			s += ".0"
		}
		b.WriteString(s)
	case value.Bool:
		if v.Bool() {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case value.None:
		b.WriteString("None")
	default:
		b.WriteString("?")
	}
}

func dumpArgs(b *strings.Builder, a *CallArgs) {
	for _, x := range a.Args {
		b.WriteByte(' ')
		dumpExpr(b, x)
	}
	for _, k := range a.Kwargs {
		b.WriteString(" " + k.Name + "=")
		dumpExpr(b, k.X)
	}
	if a.DynArgs != nil {
		b.WriteString(" *")
		dumpExpr(b, a.DynArgs)
	}
	if a.DynKwargs != nil {
		b.WriteString(" **")
		dumpExpr(b, a.DynKwargs)
	}
}

func dumpList(b *strings.Builder, open, close string, l []Expr) {
	b.WriteString(open)
	for i, x := range l {
		if i > 0 {
			b.WriteByte(' ')
		}
		dumpExpr(b, x)
	}
	b.WriteString(close)
}

func dumpExpr(b *strings.Builder, e Expr) {
	if e == nil {
		b.WriteString("_")
		return
	}
	switch n := e.(type) {
	case *Const:
		dumpConst(b, n.Value)
	case *Name:
		b.WriteString(n.Name)
	case *NSRef:
		b.WriteString("(nsref " + n.NS + " " + n.Attr + ")")
	case *Attr:
		b.WriteString("(. ")
		dumpExpr(b, n.X)
		b.WriteString(" " + n.Name + ")")
	case *Item:
		b.WriteString("([] ")
		dumpExpr(b, n.X)
		b.WriteByte(' ')
		dumpExpr(b, n.Key)
		b.WriteByte(')')
	case *Slice:
		b.WriteString("(slice ")
		dumpExpr(b, n.X)
		for _, p := range []Expr{n.Start, n.Stop, n.Step} {
			b.WriteByte(' ')
			dumpExpr(b, p)
		}
		b.WriteByte(')')
	case *Call:
		b.WriteString("(call ")
		dumpExpr(b, n.Fn)
		dumpArgs(b, &n.CallArgs)
		b.WriteByte(')')
	case *Filter:
		b.WriteString("(| " + n.Name + " ")
		dumpExpr(b, n.X)
		dumpArgs(b, &n.CallArgs)
		b.WriteByte(')')
	case *Test:
		if n.Negated {
			b.WriteString("(is-not " + n.Name + " ")
		} else {
			b.WriteString("(is " + n.Name + " ")
		}
		dumpExpr(b, n.X)
		dumpArgs(b, &n.CallArgs)
		b.WriteByte(')')
	case *Unary:
		b.WriteString("(" + n.Op + " ")
		dumpExpr(b, n.X)
		b.WriteByte(')')
	case *Binary:
		b.WriteString("(" + n.Op + " ")
		dumpExpr(b, n.L)
		b.WriteByte(' ')
		dumpExpr(b, n.R)
		b.WriteByte(')')
	case *Compare:
		b.WriteString("(cmp ")
		dumpExpr(b, n.First)
		for _, o := range n.Ops {
			b.WriteString(" " + o.Op + " ")
			dumpExpr(b, o.X)
		}
		b.WriteByte(')')
	case *CondExpr:
		b.WriteString("(if ")
		dumpExpr(b, n.Cond)
		b.WriteByte(' ')
		dumpExpr(b, n.Then)
		b.WriteByte(' ')
		dumpExpr(b, n.Else)
		b.WriteByte(')')
	case *ListLit:
		dumpList(b, "[", "]", n.Items)
	case *TupleLit:
		if len(n.Items) == 0 {
			b.WriteString("(tuple)")
		} else {
			dumpList(b, "(tuple ", ")", n.Items)
		}
	case *DictLit:
		b.WriteByte('{')
		for i := range n.Keys {
			if i > 0 {
				b.WriteByte(' ')
			}
			dumpExpr(b, n.Keys[i])
			b.WriteByte(':')
			dumpExpr(b, n.Values[i])
		}
		b.WriteByte('}')
	default:
		b.WriteString("?")
	}
}
