package syntax

import (
	"errors"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
)

func parseKind(t *testing.T, src string, l budget.Limits) (*Template, *errs.Error) {
	t.Helper()
	tree, err := Parse("t", src, Options{}, budget.NewMeter(l))
	if err == nil {
		return tree, nil
	}
	var e *errs.Error
	if !errors.As(err, &e) {
		t.Fatalf("not *errs.Error: %T %v", err, err)
	}
	if e.Line < 1 {
		t.Fatalf("error without position: %v", e)
	}
	return nil, e
}

func TestLimits(t *testing.T) {
	n := 100000
	nest50 := strings.Repeat("{% if true %}", 50) + "{{ " + strings.Repeat("[", 50) + "1" + strings.Repeat("]", 50) + "|length }}" + strings.Repeat("{% endif %}", 50)
	cases := []struct {
		name   string
		src    string
		limits budget.Limits
		want   string // "" ok, else the limit name
	}{
		{"parens-1e5", "{{ " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + " }}", budget.Limits{}, budget.LimitNestingDepth},
		{"brackets-1e5", "{{ " + strings.Repeat("[", n) + strings.Repeat("]", n) + " }}", budget.Limits{}, budget.LimitNestingDepth},
		{"unary-1e5", "{{ " + strings.Repeat("-", n) + "1 }}", budget.Limits{}, budget.LimitNestingDepth},
		{"not-1e5", "{{ " + strings.Repeat("not ", n) + "1 }}", budget.Limits{}, budget.LimitNestingDepth},
		{"calls-1e5", "{{ " + strings.Repeat("f(", n) + strings.Repeat(")", n) + " }}", budget.Limits{}, budget.LimitNestingDepth},
		{"ifs-5000", strings.Repeat("{% if true %}", 5000), budget.Limits{}, budget.LimitNestingDepth},
		{"plus-chain-5e4", "{{ 1" + strings.Repeat(" + 1", n/2) + " }}", budget.Limits{}, budget.LimitNestingDepth},
		{"else-chain-1e4", "{{ 1" + strings.Repeat(" if 1 else 1", 10000) + " }}", budget.Limits{}, budget.LimitNestingDepth},
		{"parens-huge-limit", "{{ " + strings.Repeat("(", 3*n) + "1" + strings.Repeat(")", 3*n) + " }}", budget.Limits{NestingDepth: 1 << 40, SourceBytes: 1 << 30}, budget.LimitNestingDepth},
		{"nest-50", nest50, budget.Limits{}, ""},
		{"elif-1000", "{% if a %}" + strings.Repeat("{% elif a %}x", 1000) + "{% endif %}", budget.Limits{}, ""},
		{"filters-200", "{{ 'a'" + strings.Repeat("|upper", 200) + " }}", budget.Limits{}, ""},
		{"depth-2-binary", "{{ 1 + 2 }}", budget.Limits{NestingDepth: 2}, budget.LimitNestingDepth},
		{"depth-2-parens", "{{ (((value))) }}", budget.Limits{NestingDepth: 2}, budget.LimitNestingDepth},
		{"depth-2-ok", "{{ value }}", budget.Limits{NestingDepth: 2}, ""},
		{"nodes-2", "{{ value }}", budget.Limits{ASTNodes: 2}, budget.LimitASTNodes},
		{"nodes-3", "{{ value }}", budget.Limits{ASTNodes: 3}, ""},
		{"source", "source", budget.Limits{SourceBytes: 1}, budget.LimitSourceBytes},
		{"work-0", "too much work", budget.Limits{WorkUnits: 1}, budget.LimitWorkUnits},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tree, e := parseKind(t, c.src, c.limits)
			if c.want == "" {
				if e != nil {
					t.Fatalf("want ok, got %v", e)
				}
				return
			}
			if e == nil {
				t.Fatalf("want %s refusal, parsed (%d nodes)", c.want, tree.Nodes)
			}
			be := e.BudgetError()
			if e.Kind != errs.Budget || be == nil || be.Limit != c.want {
				t.Fatalf("want budget %s, got %v", c.want, e)
			}
		})
	}
}

// TestNodesCharged checks Template.Nodes and the work charged per node.
func TestNodesCharged(t *testing.T) {
	m := budget.NewMeter(budget.Limits{})
	src := "{{ a + 1 }}"
	tree, err := Parse("t", src, Options{}, m)
	if err != nil {
		t.Fatal(err)
	}
	// Template, Output, Binary, Name, Const
	if tree.Nodes != 5 {
		t.Fatalf("nodes %d", tree.Nodes)
	}
	if want := int64(len(src)) + 5*budget.Elem; m.Used() != want {
		t.Fatalf("used %d want %d", m.Used(), want)
	}
}

// TestPositions checks byte offsets map back to the original source
// across \r\n and that lines count \r as Jinja does.
func TestPositions(t *testing.T) {
	src := "a\r\nb\r{{ x }}\r\n{{ y"
	tree, err := Parse("t", src+" }}", Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := tree.Body[1].(*Output)
	if got := src[out.Pos():][:2]; got != "{{" {
		t.Fatalf("output pos %d -> %q", out.Pos(), got)
	}
	y := tree.Body[3].(*Output).X
	if src[y.Pos()] != 'y' {
		t.Fatalf("name pos %d", y.Pos())
	}
	bad := src + " $ }}"
	_, err = Parse("t", bad, Options{}, nil)
	e := err.(*errs.Error)
	if e.Line != 4 || bad[e.Offset] != '$' {
		t.Fatalf("error at %d:%d offset %d", e.Line, e.Col, e.Offset)
	}
}

var benchSrc = strings.Repeat(`<li>{% for item in items if item.ok %}{{ loop.index }}: {{ item.name|title ~ ' (' ~ item['id'] ~ ')' }}{% else %}none{% endfor %}</li>
{% if a and not b or c in [1, 2, 3] %}{{ x if y else z }}{% endif %}{# comment #}
`, 200)

func BenchmarkParse(b *testing.B) {
	b.SetBytes(int64(len(benchSrc)))
	for i := 0; i < b.N; i++ {
		if _, err := Parse("b", benchSrc, Options{}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLex(b *testing.B) {
	b.SetBytes(int64(len(benchSrc)))
	for i := 0; i < b.N; i++ {
		if _, err := lexAll(benchSrc, Options{}); err != nil {
			b.Fatal(err.msg)
		}
	}
}

// The parser polls its meter's Cancelled every thousand tokens as well as
// every thousand nodes: a source that is mostly comments between merged
// text makes tokens and almost no nodes, and a cancelled parse must not
// run to its end (redteam/cpu/parser-comment-text-merge: a megabyte of
// "yyyy{##}" returned 11 ms past a 5 ms deadline when only nodes polled).
func TestParsePollsCancelPerToken(t *testing.T) {
	src := strings.Repeat("yyyy{##}", 100000)
	m := budget.NewMeter(budget.Limits{})
	polls := 0
	stop := errors.New("cancelled by the host")
	m.Cancelled = func() error {
		if polls++; polls > 3 {
			return stop
		}
		return nil
	}
	_, err := Parse("t", src, Options{}, m)
	if err == nil || !errors.Is(err, stop) {
		t.Fatalf("parse of %d comments with a cancelling host: %v (%d polls)", 100000, err, polls)
	}
	if polls != 4 {
		t.Fatalf("the parse polled %d times before it stopped, want 4", polls)
	}
}
