package engine

import (
	"errors"
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

func TestFacts(t *testing.T) {
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
		{"surface metadata allowed", []syntax.Stmt{out(&syntax.Filter{X: &syntax.Attr{X: nm("a"), Name: "_surface_tag"}, Name: "tag"})}, "a", "", "", "tag"},
		{"macro params bound", []syntax.Stmt{&syntax.Macro{Name: "m", Params: []syntax.Param{{Name: "p"}}, Body: []syntax.Stmt{out(nm("p")), out(nm("g"))}}, out(&syntax.Call{Fn: nm("m")})}, "g", "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env, err := NewEnvironment(Options{})
			if err != nil {
				t.Fatal(err)
			}
			info := env.facts(&syntax.Template{Body: tc.body}, opt)
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

// Check gives the facts and the static pass's refusal of one parse: an
// unknown filter is both a fact and an error.
func TestCheck(t *testing.T) {
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := env.Check("t", "{{ a|nope }}{% if o %}{{ o }}{% endif %}{{ o }}", map[string]bool{"o": true})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindSyntax || names(f.Filters) != "nope" || names(f.Vars) != "a,o" || names(f.Unguarded) != "o" {
		t.Fatalf("facts %+v, err %v", f, err)
	}
	if f, err := env.Check("t", "{% if %}", nil); err == nil || f != nil {
		t.Fatalf("a syntax error: %+v %v", f, err)
	}
	if _, err := env.Parse("t", "{{ x.y }}{{ x._z }}"); err == nil {
		t.Fatalf("parsed a literal private name")
	}
	tpl, err := env.Parse("t", "{% for i in l %}{{ i }}{% endfor %}")
	if err != nil {
		t.Fatal(err)
	}
	if got := names(tpl.Facts(nil).Vars); got != "l" {
		t.Errorf("vars %q", got)
	}
}
