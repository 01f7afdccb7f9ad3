package syntax

import (
	"errors"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/engine/internal/errs"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.txt")

type goldenCase struct {
	name string
	src  string
	opts diffOpts
}

// goldenCases are dumped to testdata/golden.txt (run with -update to
// rewrite it after checking the diff). TestDiffJinja also checks that
// Jinja2 agrees on whether each one parses.
var goldenCases = []goldenCase{
	{name: "text", src: "hello\n"},
	{name: "output", src: "a{{ x }}b"},
	{name: "precedence", src: "{{ a or b and not c == d + e ~ f * g ** h }}"},
	{name: "pow-left", src: "{{ 2 ** 3 ** 2 }}"},
	{name: "unary-filter", src: "{{ -x|abs }}{{ -1 ** 2 }}{{ not a is b }}"},
	{name: "compare-chain", src: "{{ 1 < x <= 3 != y in z not in w }}"},
	{name: "condexpr", src: "{{ a if b else c if d else e }}{{ a if b }}"},
	{name: "postfix", src: "{{ x.y[0].1['k'](1, *a, k=2, **kw)[1:2][::2][a:b:c][:] }}"},
	{name: "subscript-tuple", src: "{{ x[1, 2] }}{{ x[1:2, 3] }}{{ x[] }}"},
	{name: "literals", src: "{{ [1, 2.5, 'a' \"b\", true, False, none, (), (1,), {'k': [1,]}, 1_000, 0x1F, 0o17, 0b101, 1e3, 1_0.5] }}"},
	{name: "bare-tuple", src: "{{ 1, 2 }}{% set a, b = 1, 2 %}{% for (a, b), c in x %}{% endfor %}"},
	{name: "string-escapes", src: `{{ 'a\nb\t\\\'\x41\u00e9\U0001F600\101\q' }}`},
	{name: "string-backslash-nonascii", src: `{{ '\é' }}`},
	{name: "filters", src: "{{ x|f|g(1, k=2)|h.i }}"},
	{name: "tests", src: "{{ x is divisibleby 3 }}{{ x is sameas false }}{{ x is not in [1] }}{{ x is defined and y }}{{ x is f(1)|g }}{{ x is a.b }}"},
	{name: "if-elif-else", src: "{% if a %}1{% elif b %}2{% elif c %}3{% else %}4{% endif %}"},
	{name: "for-full", src: "{% for k, v in d.items() if v recursive %}{{ loop(v) }}{% else %}e{% endfor %}"},
	{name: "set-forms", src: "{% set x = 1 %}{% set ns.a = 2 %}{% set y %}b{% endset %}{% set z | upper | trim %}c{% endset %}{% set ns.b %}d{% endset %}"},
	{name: "with", src: "{% with a = 1, b = 2 %}{{ a }}{% endwith %}{% with %}{% endwith %}"},
	{name: "macro", src: "{% macro m(a, b=1, c='x') %}{{ a }}{{ caller() }}{% endmacro %}"},
	{name: "call-block", src: "{% call(x, y=2) m(1) %}{{ x }}{% endcall %}{% call m() %}{% endcall %}"},
	{name: "filter-block", src: "{% filter upper|replace('A', 'b') %}a{% endfilter %}"},
	{name: "autoescape", src: "{% autoescape true %}{{ x }}{% endautoescape %}"},
	{name: "blocks", src: "{% extends 'base' %}{% block a scoped %}x{% block b required %} {% endblock %}{% endblock a %}"},
	{name: "include-import", src: "{% include 'a' %}{% include ['a', 'b'] ignore missing without context %}{% import 'm' as m with context %}{% from 'm' import a, b as c %}{% from 'm' import d with context %}"},
	{name: "print", src: "{% print 1, 2 %}{% print %}"},
	{name: "ws-control", src: "a  {%- if 1 -%}  b  {%+ endif +%}  c {{- 1 -}} d {#- x -#} e"},
	{name: "trim-lstrip", src: "x\n  {% if 1 %}\n  y\n  {# c #}\n  {% endif %}\n", opts: diffOpts{Trim: true, Lstrip: true}},
	{name: "keep-newline", src: "a\r\nb\rc\n\n", opts: diffOpts{Keep: true}},
	{name: "crlf", src: "a\r\n{{ 'x\r\ny' }}\r\n"},
	{name: "raw", src: "{% raw %}{{ x }}{% endraw %} {%- raw -%} a {%- endraw %}"},
	{name: "line-statements", src: "# for i in x\n  {{ i }} ## c\n# endfor\n", opts: diffOpts{LSP: "#", LCP: "##"}},
	{name: "nunjitsu", src: "${{ x }} {{ y }}", opts: diffOpts{Nunjitsu: true}},
	{name: "colon", src: "{% if x: %}a{% endif %}"},
	{name: "kw-names-as-values", src: "{{ in }}{{ is }}{{ if }}", opts: diffOpts{}},
	// errors
	{name: "err-unknown-tag", src: "{% foo %}"},
	{name: "err-break", src: "{% for x in y %}{% break %}{% endfor %}"},
	{name: "err-unclosed", src: "{% if x %}{% for y in z %}"},
	{name: "err-stray-end", src: "{% endif %}"},
	{name: "err-nesting-mistake", src: "{% for x in y %}{% endif %}"},
	{name: "err-empty-output", src: "{{ }}"},
	{name: "err-unbalanced", src: "{{ (1 }}"},
	{name: "err-unexpected-char", src: "{{ 1 $ 2 }}"},
	{name: "err-default-order", src: "{% macro m(a=1, b) %}{% endmacro %}"},
	{name: "err-dup-block", src: "{% block a %}{% endblock %}{% block a %}{% endblock %}"},
	{name: "err-int-width", src: "{{ 99999999999999999999 }}"},
	{name: "err-assign-const", src: "{% set true = 1 %}"},
	{name: "err-chained-is", src: "{{ x is a is b }}"},
	{name: "err-call-args", src: "{{ f(a=1, 2) }}"},
	{name: "err-comment", src: "{# a"},
	{name: "err-string", src: "{{ 'abc }}"},
	{name: "err-escape", src: `{{ '\x4' }}`},
	{name: "err-extends-nested", src: "{% for x in y %}{% extends 'a' %}{% endfor %}"},
	{name: "err-loop-target", src: "{% for loop in y %}{% endfor %}"},
	{name: "err-caller", src: "{% macro m(caller) %}{{ caller() }}{% endmacro %}"},
	{name: "err-required", src: "{% block a required %}x{% endblock %}"},
	{name: "err-block-hyphen", src: "{% block a-b %}{% endblock %}"},
	{name: "err-call-block", src: "{% call m %}{% endcall %}"},
	{name: "err-endmacro-name", src: "{% macro m() %}{% endmacro m %}"},
	{name: "err-underscore-import", src: "{% from 'a' import _x %}"},
}

// TestGolden dumps goldenCases and compares with testdata/golden.txt.
func TestGolden(t *testing.T) {
	var b strings.Builder
	for _, g := range goldenCases {
		b.WriteString("=== " + g.name + "\n")
		tree, err := Parse(g.name, g.src, g.opts.options(), nil)
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) {
				t.Fatalf("%s: %T", g.name, err)
			}
			b.WriteString("ERROR " + err.Error() + "\n")
			continue
		}
		b.WriteString(dumpTree(tree))
	}
	got := b.String()
	const path = "testdata/golden.txt"
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("golden differs at line %d:\n got: %s\nwant: %s", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("golden differs in length")
	}
}
