package engine

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/budget"
)

// deepStack is the goroutine stack ceiling the deepest renders run under
// in TestDeepestRenderFitsSmallStack's subprocess: a 64th of Go's 1 GB
// default. A render whose recursion were not bounded by steps (a filter
// chain times macro recursion, as red team round 3 found) overflows it
// with a fatal error that no recover catches, and the subprocess dies.
const deepStack = 16 << 20

// deepTemplates are the deepest shapes the limits let a template take, at
// the default limits: each recursion the evaluator has (macro frames,
// callers, recursive loops, filter and test chains, operators, literals,
// statements), alone and multiplied by macro recursion.
func deepTemplates() map[string]string {
	chain := func(link string, n int) string { return strings.Repeat(link, n) }
	nest := func(open, close string, n int) string {
		return strings.Repeat(open, n) + "1" + strings.Repeat(close, n)
	}
	longest := 4*int(budget.DefaultNestingDepth) - 8 // the longest filter chain that parses
	return map[string]string{
		"macro-recursion":       "{% macro m(n) %}{{ m(n-1) }}{% endmacro %}{{ m(1000000) }}",
		"macro-x-filter-chain":  "{% macro m(n) %}{{ (m(n-1) if n else 1)" + chain("|e", longest-16) + " }}{% endmacro %}{{ m(1000000) }}",
		"macro-x-not-chain":     "{% macro m(n) %}{{ " + chain("not ", 150) + "m(n-1) }}{% endmacro %}{{ m(1000000) }}",
		"macro-x-nested-lists":  "{% macro m(n) %}{{ " + nest("[", "]", 150) + " if n else m(n-1) }}{{ m(n-1) }}{% endmacro %}{{ m(1000000) }}",
		"macro-x-parens-plus":   "{% macro m(n) %}{{ m(n-1) ~ " + nest("(1+", ")", 150) + " }}{% endmacro %}{{ m(1000000) }}",
		"macro-x-statements":    "{% macro m(n) %}" + strings.Repeat("{% if true %}", 150) + "{{ m(n-1) }}" + strings.Repeat("{% endif %}", 150) + "{% endmacro %}{{ m(1000000) }}",
		"caller-recursion":      "{% macro w(n) %}{{ caller(n) }}{% endmacro %}{% macro m(n) %}{% call(k) w(n) %}{{ m(k-1) }}{% endcall %}{% endmacro %}{{ m(1000000) }}",
		"recursive-loop":        "{% macro m(n) %}{% for x in [n] recursive %}{{ loop([x]) }}{% endfor %}{% endmacro %}{{ m(1) }}",
		"filter-chain-longest":  "{% for i in range(2) %}{{ 1" + chain("|e", longest-16) + " }}{{ loop.cycle(1, 2) }}{% endfor %}{{ 1 is number }}",
		"macro-as-filter-arg":   "{% macro m(n) %}{{ 'a'|replace('a', m(n-1)" + chain("|e", 100) + ") }}{% endmacro %}{{ m(1000000) }}",
		"map-into-macro-chains": "{% macro m(n) %}{{ [n]|map('string')|join" + chain("|e", 300) + " }}{{ m(n-1) }}{% endmacro %}{{ m(1000000) }}",
	}
}

// TestDeepestRenderFitsSmallStack proves the render's recursion bound
// (enter, recursionSteps) holds the Go stack: the deepest templates the
// limits allow run in a subprocess under debug.SetMaxStack(deepStack),
// and each must end in a budget error (nesting_depth), never a crash.
// The subprocess also runs them at the highest nesting_depth a caller can
// configure (maxRecursionSteps), under Go's own 1 GB stack.
func TestDeepestRenderFitsSmallStack(t *testing.T) {
	if os.Getenv("JINJABOX_DEEP_CHILD") == "1" {
		deepChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDeepestRenderFitsSmallStack$", "-test.v")
	cmd.Env = append(os.Environ(), "JINJABOX_DEEP_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the deepest renders crashed or failed the subprocess (%v):\n%s", err, lastLines(string(out), 40))
	}
	for name := range deepTemplates() {
		want := "deep " + name + ": budget"
		if name == "filter-chain-longest" {
			want = "deep " + name + ": renders"
		}
		if !strings.Contains(string(out), want) {
			t.Errorf("%s: no budget refusal reported by the subprocess:\n%s", name, lastLines(string(out), 40))
		}
	}
	t.Log(lastLines(string(out), 30))
}

func deepChild(t *testing.T) {
	stack := deepStack
	if s := os.Getenv("JINJABOX_DEEP_STACK"); s != "" {
		// to measure the stack a step takes: the smallest that passes
		fmt.Sscan(s, &stack)
	}
	debug.SetMaxStack(stack)
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range deepTemplates() {
		res, err := env.RenderString(name, src, nil, RenderOptions{})
		if name == "filter-chain-longest" {
			// the longest chain that parses renders, as Jinja2's 200-link
			// chain does (hostile nesting/ok-filter-chain-200)
			if err != nil || res.Output != "1112True" {
				t.Errorf("deep %s: want 1112True, got %q, %v", name, res.Output, err)
				continue
			}
			fmt.Printf("deep %s: renders\n", name)
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindBudget || !strings.Contains(e.Error(), "nesting_depth") {
			t.Errorf("deep %s: want a nesting_depth budget error, got %v", name, err)
			continue
		}
		fmt.Printf("deep %s: budget: %s\n", name, e.Error())
	}
	// The highest bound any configuration reaches, on the default stack:
	// a nesting_depth past maxRecursionSteps/stepsPerLevel is capped.
	debug.SetMaxStack(1 << 30)
	big, err := NewEnvironment(Options{Limits: budget.Limits{NestingDepth: 1 << 40}})
	if err != nil {
		t.Fatal(err)
	}
	src := deepTemplates()["macro-recursion"]
	if _, err := big.RenderString("capped", src, nil, RenderOptions{}); err == nil || !strings.Contains(err.Error(), "nesting_depth") {
		t.Errorf("capped: want a nesting_depth budget error, got %v", err)
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
