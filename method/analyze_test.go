package method

import (
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/engine/syntax"
	"github.com/jinjabox/jinjabox/engine/value"
)

// Hand-built trees keep these tests independent of the parser.
func nm(n string) *syntax.Name { return &syntax.Name{Name: n} }

func out(x syntax.Expr) *syntax.Output { return &syntax.Output{X: x} }

func names(l []NameAt) string {
	var s []string
	for _, n := range l {
		s = append(s, n.Name)
	}
	return strings.Join(s, ",")
}

func TestAnalyzeTemplate(t *testing.T) {
	opt := map[string]bool{"o": true}
	tests := []struct {
		name                        string
		body                        []syntax.Stmt
		vars, unguarded, private, f string
	}{
		{"bare output unguarded", []syntax.Stmt{out(nm("o"))}, "o", "o", "", ""},
		{"if guards body", []syntax.Stmt{&syntax.If{Cond: nm("o"), Body: []syntax.Stmt{out(&syntax.Attr{X: nm("o"), Name: "text"})}}}, "o", "", "", ""},
		{"else not guarded", []syntax.Stmt{&syntax.If{Cond: nm("o"), Else: []syntax.Stmt{out(nm("o"))}}}, "o", "o", "", ""},
		{"is defined and", []syntax.Stmt{&syntax.If{Cond: &syntax.Binary{Op: "and", L: &syntax.Test{X: nm("o"), Name: "defined"}, R: &syntax.Attr{X: nm("o"), Name: "x"}}, Body: []syntax.Stmt{out(nm("o"))}}}, "o", "", "", ""},
		{"or does not guard", []syntax.Stmt{&syntax.If{Cond: &syntax.Binary{Op: "or", L: nm("o"), R: nm("a")}, Body: []syntax.Stmt{out(nm("o"))}}}, "o,a", "o", "", ""},
		{"inline if", []syntax.Stmt{out(&syntax.CondExpr{Cond: nm("o"), Then: nm("o"), Else: &syntax.Const{Value: value.FromString("x")}})}, "o", "", "", ""},
		{"inline else unguarded", []syntax.Stmt{out(&syntax.CondExpr{Cond: nm("a"), Then: nm("b"), Else: nm("o")})}, "a,b,o", "o", "", ""},
		{"for target shadows", []syntax.Stmt{&syntax.For{Target: nm("x"), Iter: nm("l"), Body: []syntax.Stmt{out(nm("x")), out(&syntax.Attr{X: nm("loop"), Name: "index"})}}, out(nm("x"))}, "l,x", "", "", ""},
		{"set shadows later", []syntax.Stmt{&syntax.Set{Target: nm("y"), X: nm("a")}, out(nm("y"))}, "a", "", "", ""},
		{"globals are not inputs", []syntax.Stmt{out(&syntax.Call{Fn: nm("range"), CallArgs: syntax.CallArgs{Args: []syntax.Expr{nm("n")}}})}, "n", "", "", ""},
		{"private attr and filters", []syntax.Stmt{out(&syntax.Filter{X: &syntax.Attr{X: nm("a"), Name: "_x"}, Name: "attr", CallArgs: syntax.CallArgs{Args: []syntax.Expr{&syntax.Const{Value: value.FromString("__y")}}}})}, "a", "", "_x,__y", "attr"},
		{"surface metadata allowed", []syntax.Stmt{out(&syntax.Filter{X: &syntax.Attr{X: nm("a"), Name: "_stuff_name"}, Name: "tag"})}, "a", "", "", "tag"},
		{"macro params bound", []syntax.Stmt{&syntax.Macro{Name: "m", Params: []syntax.Param{{Name: "p"}}, Body: []syntax.Stmt{out(nm("p")), out(nm("g"))}}, out(&syntax.Call{Fn: nm("m")})}, "g", "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			info := analyzeTemplate(&syntax.Template{Body: tc.body}, opt)
			if got := names(info.Vars); got != tc.vars {
				t.Errorf("vars %q, want %q", got, tc.vars)
			}
			if got := names(info.Unguarded); got != tc.unguarded {
				t.Errorf("unguarded %q, want %q", got, tc.unguarded)
			}
			if got := names(info.Private); got != tc.private {
				t.Errorf("private %q, want %q", got, tc.private)
			}
			if got := names(info.Filters); got != tc.f {
				t.Errorf("filters %q, want %q", got, tc.f)
			}
		})
	}
}
