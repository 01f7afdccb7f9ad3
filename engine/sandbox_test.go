package engine

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/budget"
)

// sandboxCase is one attack or look-alike: the template, its data, and the
// outcome the policy requires ("" for success with want output).
type sandboxCase struct {
	name string
	tpl  string
	data map[string]any
	kind ErrorKind // 0: must succeed
	want string
}

func runSandboxCases(t *testing.T, opts Options, cases []sandboxCase) {
	t.Helper()
	env, err := NewEnvironment(opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := env.RenderString(c.name, c.tpl, c.data, RenderOptions{})
			if c.kind == 0 {
				if err != nil || res.Output != c.want {
					t.Fatalf("want %q, got %q %v", c.want, res.Output, err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || e.Kind != c.kind {
				t.Fatalf("want %s error, got %q %v", c.kind, res.Output, err)
			}
			if res.Output != "" {
				t.Fatalf("refusal returned output %q", res.Output)
			}
			// fail-stop leaves the environment clean
			if r, err := env.RenderString("clean", "{{ 1 + 1 }}", nil, RenderOptions{}); err != nil || r.Output != "2" {
				t.Fatalf("next render not clean: %q %v", r.Output, err)
			}
		})
	}
}

// TestUnderscoreRule holds P1-P4: underscore attribute names are refused
// on every lookup path, before the lookup; a plain dict's own keys stay
// readable by bracket; local names stay allowed.
func TestUnderscoreRule(t *testing.T) {
	d := map[string]any{"_id": 5, "d": map[string]any{"_k": 1, "k": 2}, "l": []any{1}, "s": "str"}
	runSandboxCases(t, Options{}, []sandboxCase{
		{"dot-on-dict-holding-key", "{{ _id }}{{ d._k }}", d, KindSecurity, ""},
		{"dot-on-string", "{{ s.__class__ }}", d, KindSecurity, ""},
		{"dot-on-undefined-receiver", "{{ nope.__class__ }}", d, KindSecurity, ""},
		{"attr-filter-literal", "{{ s|attr('__class__') }}", d, KindSecurity, ""},
		{"attr-filter-runtime-name", "{{ s|attr('_' ~ '_class__') }}", d, KindSecurity, ""},
		{"bracket-on-string", "{{ s['__class__'] }}", d, KindSecurity, ""},
		{"bracket-on-list", "{{ l['__len__'] }}", d, KindSecurity, ""},
		{"bracket-on-loop", "{% for x in l %}{{ loop['_after'] }}{% endfor %}", d, KindSecurity, ""},
		{"bracket-dict-missing-key", "{{ d['_missing'] }}", d, KindSecurity, ""},
		{"bracket-dict-held-key", "{{ d['_k'] }}", d, 0, "1"},
		{"bracket-dict-literal-held-key", "{{ {'_a': 3}['_a'] }}", d, 0, "3"},
		{"map-attribute-path", "{{ [d]|map(attribute='_k')|list }}", d, KindSecurity, ""},
		{"sort-attribute-segment", "{{ [d]|sort(attribute='k._x')|list }}", d, KindSecurity, ""},
		{"groupby-attribute", "{{ [d]|groupby('_k') }}", d, KindSecurity, ""},
		{"selectattr", "{{ [d]|selectattr('_k')|list }}", d, KindSecurity, ""},
		{"sum-attribute-runtime", "{% set a = '_k' %}{{ [d]|sum(attribute=a) }}", d, KindSecurity, ""},
		{"format-field-attr", "{{ '{0.__class__}'.format(s) }}", d, KindSecurity, ""},
		{"format-field-item-missing", "{{ '{0[_x]}'.format(d) }}", d, KindSecurity, ""},
		{"format-field-item-held", "{{ '{0[_k]}'.format(d) }}", d, 0, "1"},
		{"namespace-set", "{% set ns = namespace() %}{% set ns._x = 1 %}", d, KindSecurity, ""},
		{"literal-refused-in-dead-branch", "{% if false %}{{ s.__class__ }}{% endif %}ok", d, KindSecurity, ""},
		// an operand Jinja2 folds away is never compiled, but the rule
		// holds in code that never runs
		{"literal-refused-in-folded-operand", "{{ 1 or s.__class__ }}{{ ('a'|upper) or s.__class__|nofilter }}", d, KindSecurity, ""},
		{"local-names-allowed", "{% for _ in l %}{% set __x = 2 %}{{ __x }}{% endfor %}{{ dict(__class__=1) }}", d, 0, "2{'__class__': 1}"},
		{"string-containing-underscores-is-data", "{{ '__class__' }}{% for k in d %}{{ k }}{% endfor %}", d, 0, "__class___kk"},
	})
}

// TestPlainValueMethods holds P5: an audited method surface; mutating
// methods that exist on the type are security errors; unknown names are
// undefined.
func TestPlainValueMethods(t *testing.T) {
	d := map[string]any{"l": []any{3, 1}, "d": map[string]any{"a": 1}}
	runSandboxCases(t, Options{}, []sandboxCase{
		{"allowed", "{{ 'a,b'.split(',') }}{{ d.items()|list }}{{ l.count(3) }}", d, 0, "['a', 'b'][('a', 1)]1"},
		{"list-append", "{{ l.append(1) }}", d, KindSecurity, ""},
		{"list-sort-read", "{% set f = l.sort %}", d, KindSecurity, ""},
		{"dict-update", "{{ d.update({'b': 2}) }}", d, KindSecurity, ""},
		{"dict-pop", "{{ d.pop('a') }}", d, KindSecurity, ""},
		{"str-encode", "{{ 'x'.encode() }}", d, KindSecurity, ""},
		{"int-to-bytes", "{{ (1).to_bytes(2, 'big') }}", d, KindSecurity, ""},
		{"js-name-undefined", "[{{ l.constructor }}]", d, 0, "[]"},
		{"go-name-undefined", "[{{ d.MethodByName }}]", d, 0, "[]"},
		{"call-undefined", "{{ l.toString() }}", d, KindUndefined, ""},
		{"dict-key-fallback", "{{ d.a }}", d, 0, "1"},
	})
}

// TestCapabilities holds P10 and the filter rule: namespace() holds data
// only, and filters never call a callable handed to them.
func TestCapabilities(t *testing.T) {
	runSandboxCases(t, Options{}, []sandboxCase{
		{"namespace-macro-ctor", "{% macro m() %}{% endmacro %}{{ namespace(f=m) }}", nil, KindSecurity, ""},
		{"namespace-method-set", "{% set ns = namespace() %}{% set ns.f = 'x'.upper %}", nil, KindSecurity, ""},
		{"namespace-nested-callable", "{% macro m() %}{% endmacro %}{% set ns = namespace() %}{% set ns.f = [m] %}", nil, KindSecurity, ""},
		{"namespace-data", "{% set ns = namespace(a=1) %}{% set ns.b = [2] %}{{ ns.a }}{{ ns.b }}", nil, 0, "1[2]"},
		{"map-by-name-only", "{{ ['a']|map('upper')|list }}", nil, 0, "['A']"},
	})
}

// TestLoader holds P9: untrusted templates have no loader; a trusted set
// may be given, and its templates spend from the includer's budget.
func TestLoader(t *testing.T) {
	runSandboxCases(t, Options{}, []sandboxCase{
		{"include", "{% include 'x' %}", nil, KindRender, ""},
		{"import", "{% import 'x' as m %}", nil, KindRender, ""},
		{"extends", "{% extends 'x' %}", nil, KindRender, ""},
		{"from", "{% from 'x' import y %}", nil, KindRender, ""},
		{"ignore-missing", "a{% include 'x' ignore missing %}b", nil, 0, "ab"},
	})
	env, _ := NewEnvironment(Options{Templates: map[string]string{"child": strings.Repeat("x", 1000)}})
	small := RenderOptions{Limits: budget.Limits{WorkUnits: 100000}}
	_, err := env.RenderString("t", "{% for i in range(1000) %}{% include 'child' %}{% endfor %}", nil, small)
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindBudget {
		t.Fatalf("included templates must spend the includer's budget: %v", err)
	}
}

// TestAmplifiersRefusedBeforeAllocating holds the estimate rule: every
// operation whose result can outgrow its inputs is refused before it
// allocates. The heap may not grow by anything near the refused size.
func TestAmplifiersRefusedBeforeAllocating(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	for _, tpl := range []string{
		"{{ 'x' * 1000000000 }}",
		"{{ [1] * 1000000000 }}",
		"{{ 'x'.center(1000000000) }}",
		"{{ 'x'|center(1000000000) }}",
		"{{ 'ab'.replace('', 'x' * 10000) * 1000 }}",
		"{{ '%1000000000d' % 1 }}",
		"{{ '{:>1000000000}'.format(1) }}",
		"{{ 'x'.zfill(1000000000) }}",
		"{{ 'a\tb'.expandtabs(1000000000) }}",
		"{{ 'x'|indent(1000000000) }}",
		"{{ lipsum(100000, max=100000) }}",
		"{{ range(10)|batch(1000000000, 'x')|list }}",
		"{{ (['x' * 10000] * 10000)|join }}",
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := env.RenderString("amp", tpl, nil, RenderOptions{})
		runtime.ReadMemStats(&after)
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindBudget {
			t.Errorf("%s: want budget error, got %v", tpl, err)
			continue
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 2*uint64(budget.DefaultWorkUnits) {
			t.Errorf("%s: allocated %d bytes before refusing", tpl, grew)
		}
	}
}

// TestIntegerWidth holds P6: results wider than 64 bits are budget errors,
// never wrapped values; literals wider than 64 bits are syntax errors.
func TestIntegerWidth(t *testing.T) {
	runSandboxCases(t, Options{}, []sandboxCase{
		{"mul", "{{ 9223372036854775807 * 2 }}", nil, KindBudget, ""},
		{"add", "{{ 9223372036854775807 + 1 }}", nil, KindBudget, ""},
		{"pow", "{{ 2 ** 64 }}", nil, KindBudget, ""},
		{"neg-min", "{{ -(-9223372036854775807 - 1) }}", nil, KindBudget, ""},
		{"floordiv-min", "{{ (-9223372036854775807 - 1) // -1 }}", nil, KindBudget, ""},
		{"sum", "{{ [9223372036854775807, 1]|sum }}", nil, KindBudget, ""},
		{"abs", "{{ (-9223372036854775807 - 1)|abs }}", nil, KindBudget, ""},
		{"literal", "{{ 99999999999999999999 }}", nil, KindSyntax, ""},
		{"edge-ok", "{{ 9223372036854775806 + 1 }}", nil, 0, "9223372036854775807"},
		{"floor-semantics", "{{ -7 // 2 }} {{ -7 % 3 }}", nil, 0, "-4 2"},
		{"range-too-long", "{{ range(100001)|list|length }}", nil, KindRender, ""},
		{"div-zero", "{{ 1 // 0 }}", nil, KindRender, ""},
	})
}

// TestRecursionIsBudget holds the depth rule: deep recursion of macros,
// recursive loops, blocks and nested expressions is a budget error, never
// a Go stack overflow; depth 100 macro recursion works.
func TestRecursionIsBudget(t *testing.T) {
	runSandboxCases(t, Options{}, []sandboxCase{
		{"macro", "{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", nil, KindBudget, ""},
		{"mutual", "{% macro a() %}{{ b() }}{% endmacro %}{% macro b() %}{{ a() }}{% endmacro %}{{ a() }}", nil, KindBudget, ""},
		{"recursive-loop", "{% for x in [1] recursive %}{{ loop([1]) }}{% endfor %}", nil, KindBudget, ""},
		{"block-self", "{% block b %}{{ self.b() }}{% endblock %}", nil, KindBudget, ""},
		{"parens", "{{ " + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + " }}", nil, KindBudget, ""},
		{"depth-100-ok", "{% macro f(n) %}{% if n %}{{ f(n - 1) }}{% else %}done{% endif %}{% endmacro %}{{ f(100) }}", nil, 0, "done"},
		{"nesting-50-ok", strings.Repeat("{% if true %}", 50) + "x" + strings.Repeat("{% endif %}", 50), nil, 0, "x"},
	})
}

// TestBudgetSpendsBounded holds the meter rule: a render never spends
// past its budget, and the same render spends the same units.
func TestBudgetSpendsBounded(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	for _, units := range []int64{1000, 50000, 1000000} {
		ro := RenderOptions{Limits: budget.Limits{WorkUnits: units}}
		tpl := "{% for i in range(1000) %}{{ i ~ 'abc' * i }}{% endfor %}"
		r1, err1 := env.RenderString("t", tpl, nil, ro)
		r2, err2 := env.RenderString("t", tpl, nil, ro)
		if r1.Units > units || (err1 == nil) != (err2 == nil) || r1 != r2 {
			t.Fatalf("budget %d: %+v %v / %+v %v", units, r1.Units, err1, r2.Units, err2)
		}
	}
}

// BenchmarkFullBudget measures a render that spends the whole default
// budget on the cheapest steps (empty loop iterations) before it is
// refused: the worst case for wall time per unit.
func BenchmarkFullBudget(b *testing.B) {
	env, _ := NewEnvironment(Options{})
	tpl, err := env.Parse("t", "{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_, err := tpl.Render(nil)
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindBudget {
			b.Fatalf("want budget error, got %v", err)
		}
	}
}

// TestNamedLimits: each named limit refuses with the budget kind, and the
// error names the limit, the phase and the configured and observed values.
func TestNamedLimits(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	cases := []struct {
		limit string
		phase budget.Phase
		l     budget.Limits
		tpl   string
	}{
		{budget.LimitSourceBytes, budget.PhaseParse, budget.Limits{SourceBytes: 10}, "{{ 'a long template' }}"},
		{budget.LimitASTNodes, budget.PhaseParse, budget.Limits{ASTNodes: 5}, "{{ [1, 2, 3, 4, 5, 6, 7] }}"},
		{budget.LimitNestingDepth, budget.PhaseParse, budget.Limits{NestingDepth: 3}, "{{ ((((1)))) }}"},
		{budget.LimitOutputBytes, budget.PhaseRender, budget.Limits{OutputBytes: 4}, "{{ 'abcdef' }}"},
		{budget.LimitScratchBytes, budget.PhaseRender, budget.Limits{ScratchBytes: 3}, "{{ 'abcdef'|upper }}"},
		// the arguments' size, constants sized once at parse time (value.Args.Sized)
		{budget.LimitScratchBytes, budget.PhaseRender, budget.Limits{ScratchBytes: 10}, "{{ 'a'|replace('bbbbbb', 'cccccc') }}"},
		{budget.LimitScratchBytes, budget.PhaseRender, budget.Limits{ScratchBytes: 20}, "{{ 'a'|join(['bbbbbb', 'cccccc']) }}"},
		{budget.LimitCapabilityCalls, budget.PhaseRender, budget.Limits{CapabilityCalls: 2}, "{{ 'a'|upper|lower|upper }}"},
		{budget.LimitWorkUnits, budget.PhaseRender, budget.Limits{WorkUnits: 5000}, "{% for i in range(100) %}{% endfor %}"},
	}
	for _, c := range cases {
		t.Run(c.limit, func(t *testing.T) {
			res, err := env.RenderString("t", c.tpl, nil, RenderOptions{Limits: c.l})
			var e *Error
			if !errors.As(err, &e) || e.Kind != KindBudget || res.Output != "" {
				t.Fatalf("want budget error, got %q %v", res.Output, err)
			}
			be := e.BudgetError()
			if be == nil || be.Limit != c.limit || be.Phase != c.phase || be.Configured <= 0 {
				t.Fatalf("error does not name limit/phase/configured: %#v", be)
			}
			if c.limit != budget.LimitWorkUnits && be.Observed <= be.Configured {
				t.Fatalf("observed %d not past configured %d", be.Observed, be.Configured)
			}
		})
	}
}

// TestSecurityMessageNamesTarget: a security error names the refused
// attribute and the type it was reached on, and no more.
func TestSecurityMessageNamesTarget(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	_, err := env.RenderString("t", "{{ x.append(1) }}", map[string]any{"x": []any{"SECRET"}}, RenderOptions{})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindSecurity {
		t.Fatalf("want security error, got %v", err)
	}
	if !strings.Contains(e.Message, "append") || !strings.Contains(e.Message, "list") || strings.Contains(e.Message, "SECRET") {
		t.Fatalf("message: %q", e.Message)
	}
}

// TestRegistriesFixedAtBuild: filters, tests and globals are copied when
// the environment is built; changing the caller's maps later has no effect.
func TestRegistriesFixedAtBuild(t *testing.T) {
	filters := map[string]Filter{}
	globals := map[string]any{"g": 1}
	env, err := NewEnvironment(Options{Filters: filters, Globals: globals})
	if err != nil {
		t.Fatal(err)
	}
	filters["evil"] = filters["upper"]
	globals["g"] = 2
	globals["h"] = 3
	if _, err := env.RenderString("t", "{{ 'a'|evil }}", nil, RenderOptions{}); err == nil {
		t.Fatal("a filter added after the build is reachable")
	}
	r, err := env.RenderString("t", "{{ g }}[{{ h }}]", nil, RenderOptions{})
	if err != nil || r.Output != "1[]" {
		t.Fatalf("globals changed after the build: %q %v", r.Output, err)
	}
}

// TestCopyInCeilings: containers and graphs past 100,000 entries are
// refused at the boundary, naming the path.
func TestCopyInCeilings(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	big := make([]any, 100001)
	// the names read, in a branch never taken: a render copies in the
	// names its template reads (TestUnreadNamesAreNotCopied)
	_, err := env.RenderString("t", "{{ 1 }}{% if false %}{{ x }}{% endif %}", map[string]any{"x": map[string]any{"y": big}}, RenderOptions{})
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Message, "x.y") {
		t.Fatalf("want an error naming x.y, got %v", err)
	}
	graph := make([]any, 400)
	for i := range graph {
		graph[i] = make([]any, 300)
	}
	if _, err := env.RenderString("t", "{{ 1 }}{% if false %}{{ g }}{% endif %}", map[string]any{"g": graph}, RenderOptions{}); err == nil {
		t.Fatal("a 120,000-entry graph crossed the boundary")
	}
}

// TestZeroCostLoopsBounded: work that spends nothing per round must not
// loop per round (repeating an empty sequence 2^63 times is instant).
func TestZeroCostLoopsBounded(t *testing.T) {
	small := Options{Limits: budget.Limits{WorkUnits: 20000}}
	runSandboxCases(t, small, []sandboxCase{
		{"empty-list-repeat", "{{ ([] * 9223372036854775807)|length }}", nil, 0, "0"},
		{"empty-tuple-repeat", "{{ (() * 9223372036854775807)|length }}", nil, 0, "0"},
		{"empty-string-repeat", "[{{ '' * 9223372036854775807 }}]", nil, 0, "[]"},
		{"repeat-empty-items", "{{ ([[]] * 100000)|length }}", nil, KindBudget, ""},
	})
}

// TestNamespaceCycles: a namespace holding itself prints like Python's
// recursive repr and costs its data when printed or converted, never a
// stack overflow (fuzz seed b6354ebe8e5bb7b9).
func TestNamespaceCycles(t *testing.T) {
	big := strings.Repeat("x", 100000)
	runSandboxCases(t, Options{Limits: budget.Limits{WorkUnits: 5000000}}, []sandboxCase{
		{"self-repr", "{% set ns = namespace() %}{% set ns.me = ns %}{{ ns }}", nil, 0, "<Namespace {'me': <Namespace {...}>}>"},
		{"stringify-charged", "{% set ns = namespace(b=big) %}{% for i in range(1000) %}{% set s = ns ~ '' %}{% endfor %}", map[string]any{"big": big}, KindBudget, ""},
		{"string-filter-charged", "{% set ns = namespace(b=big) %}{% for i in range(1000) %}{% set s = ns|string %}{% endfor %}", map[string]any{"big": big}, KindBudget, ""},
	})
}

// TestDeepNestingBuiltAtRuntime: a list nested 100,000 deep through a
// namespace costs linear work: the data check of each round is charged,
// and a container once checked is not walked again, so the render fits a
// budget linear in the rounds (the walk per round would need ~10^10 units);
// every walker over the nest ends. Printing or converting it to a string,
// deeper than the nesting limit, is a budget error (P11) on every path
// (redteam/deep/print-90k-nested-list printed 300 levels, then "...").
func TestDeepNestingBuiltAtRuntime(t *testing.T) {
	env, _ := NewEnvironment(Options{Limits: budget.Limits{WorkUnits: 400_000_000}})
	build := "{% set ns = namespace(l=[]) %}{% for i in range(100000) %}{% set ns.l = [ns.l] %}{% endfor %}"
	r, err := env.RenderString("t", build+"{{ ns.l|length }}{{ ns.l == ns.l }}{{ ns.l in [ns.l] }}", nil, RenderOptions{})
	if err != nil || r.Output != "1TrueTrue" {
		t.Fatalf("got %q %v", r.Output, err)
	}
	for _, print := range []string{"{{ ns.l }}", "{{ ns.l|string }}", "{{ ns.l ~ '' }}", "{{ '%s' % [ns.l] }}", "{{ '%r' % [ns.l] }}",
		"{{ '{}'.format(ns.l) }}", "{{ '{!r}'.format(ns.l) }}", "{{ [ns.l]|join }}", "{{ ns }}", "{{ ns.l|e }}", "{{ ns.l|forceescape }}",
		"{{ ns.l is lower }}", "{% autoescape true %}{{ ns.l }}{% endautoescape %}"} {
		_, err := env.RenderString("t", build+print, nil, RenderOptions{})
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindBudget || e.BudgetError() == nil || e.BudgetError().Limit != budget.LimitNestingDepth {
			t.Errorf("%s: want a nesting_depth budget error, got %v", print, err)
		}
	}
	// within the nesting limit, printing works; a render with a higher
	// limit prints deeper
	deep := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	r, err = env.RenderString("t", "{{ "+deep+" }}{{ "+deep+"|string|length }}", nil, RenderOptions{})
	if err != nil || r.Output != deep+"200" {
		t.Fatalf("100-deep literal: %q %v", r.Output, err)
	}
	wide, _ := NewEnvironment(Options{Limits: budget.Limits{NestingDepth: 1000}})
	r, err = wide.RenderString("t", "{% set ns = namespace(l=[]) %}{% for i in range(500) %}{% set ns.l = [ns.l] %}{% endfor %}{{ ns.l }}", nil, RenderOptions{})
	if err != nil || r.Output != strings.Repeat("[", 501)+strings.Repeat("]", 501) {
		t.Fatalf("501 deep under a limit of 1000: %.20q %v", r.Output, err)
	}
}
