package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/jinjabox/jinjabox/budget"
)

// countdownCtx is a context that reports itself cancelled from its n-th
// poll on: a deterministic stand-in for a deadline (no clock in tests of
// the render path).
type countdownCtx struct {
	context.Context
	n, polls int
}

func (c *countdownCtx) Err() error {
	c.polls++
	if c.polls >= c.n {
		return context.DeadlineExceeded
	}
	return nil
}

// TestRenderCancellation holds the host cancellation rule: a render whose
// RenderOptions.Context is done stops at its next poll (within
// CancelCheckUnits of work) with a render error wrapping ErrCanceled and
// ctx.Err() (never a budget error: nothing was overdrawn) and no output, even under a budget that would let it run for hours; without a
// context nothing is polled.
func TestRenderCancellation(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	huge := budget.Limits{WorkUnits: 1 << 60}
	endless := "{% for a in range(100000) %}{% for b in range(100000) %}{{ a }}{% endfor %}{% endfor %}"

	done, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := env.RenderString("t", "x{{ 1 }}", nil, RenderOptions{Context: done})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindRender || !errors.Is(err, ErrCanceled) || !errors.Is(err, context.Canceled) || e.BudgetError() != nil || res.Output != "" {
		t.Fatalf("cancelled before rendering: %q %v", res.Output, err)
	}

	for _, polls := range []int{1, 3, 50} {
		ctx := &countdownCtx{Context: context.Background(), n: polls}
		tpl, err := env.Parse("t", endless)
		if err != nil {
			t.Fatal(err)
		}
		res, err := tpl.RenderResult(nil, RenderOptions{Limits: huge, Context: ctx})
		if !errors.As(err, &e) || e.Kind != KindRender || !errors.Is(err, ErrCanceled) || !errors.Is(err, context.DeadlineExceeded) || res.Output != "" {
			t.Fatalf("%d polls: want a cancellation, got %q %v", polls, res.Output, err)
		}
		if ctx.polls != polls {
			t.Fatalf("polled %d times, want %d", ctx.polls, polls)
		}
	}

	// the same render without a context is bounded by its budget alone
	_, err = env.RenderString("t", endless, nil, RenderOptions{Limits: budget.Limits{WorkUnits: 1 << 20}})
	if !errors.As(err, &e) || e.Kind != KindBudget || e.BudgetError() == nil {
		t.Fatalf("without a context: %v", err)
	}
}

// TestCancellationPollsByWork: polls are spaced by work and by charges
// (never more than one a charge, at least one each 16 charges), and a
// render that finishes is not disturbed by a live context.
func TestCancellationPollsByWork(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	ctx := &countdownCtx{Context: context.Background(), n: 1 << 30}
	tpl := "{% for i in range(20000) %}{{ i }}{% endfor %}"
	res, err := env.RenderString("t", tpl, nil, RenderOptions{Context: ctx})
	plain, err2 := env.RenderString("t", tpl, nil, RenderOptions{})
	if err != nil || err2 != nil || res != plain {
		t.Fatalf("a live context changed the render: %v %v", err, err2)
	}
	// 20,000 iterations charge at least twice each (iteration, print)
	if ctx.polls < 40000/cancelCheckCharges || ctx.polls > 40000 {
		t.Fatalf("%d units, %d polls", res.Units, ctx.polls)
	}
}

// TestChargeFastPathsAgree holds that the inlined charges (renderer.spent
// at the evaluator's sites, strutil.Spent in a sort's comparisons) spend
// what Charge spends and refuse where it refuses: each template renders
// with no context (the fast paths), and with a live one (every charge
// through Charge, which polls), to the same output and units; at a budget
// of one unit less, both fail with the same error.
func TestChargeFastPathsAgree(t *testing.T) {
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	data := map[string]any{
		"items": []any{
			map[string]any{"name": "kilo", "n": 3, "tags": []any{"b", "a"}},
			map[string]any{"name": "alpha", "n": 1, "tags": []any{"a"}},
			map[string]any{"name": "kilo", "n": 2, "tags": []any{"b", "a"}},
			map[string]any{"name": "echo", "n": 5, "tags": []any{}},
		},
		"words": []any{"pear", "apple", "fig", "apple", "banana"},
	}
	templates := []string{
		`{{ items | sort(attribute="name") | map(attribute="n") | join(",") }}`,
		`{{ items | sort(attribute="name,n", reverse=true) | map(attribute="n") | list }}`,
		`{{ items | map(attribute="tags") | sort | list }}`,
		`{{ words | sort | unique | join(" ") }} {{ words | max }} {{ words | min }}`,
		`{% for i in items %}{{ loop.index }}:{{ i.name | upper | truncate(3, True, "") }}{% if i.tags %}{{ i.tags | join("/") }}{% endif %};{% endfor %}`,
		`{{ items | groupby("name") | map(attribute="grouper") | join }} {{ "ab" ~ words[0] }}{{ words[1:3] }}`,
		`{{ "apple" in words }} {{ "kiwi" in words }} {{ ["b", "a"] in items | map(attribute="tags") }} {{ 3 in [1, 2.0, 3] }}`,
		`{% set ns = namespace(s=0) %}{% for w in words if w != "fig" %}{% set ns.s = ns.s + w | length %}{% endfor %}{{ ns.s }}`,
	}
	for _, src := range templates {
		tpl, err := env.Parse("t", src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		ctx := &countdownCtx{Context: context.Background(), n: 1 << 30}
		fast, err1 := tpl.RenderResult(data, RenderOptions{})
		slow, err2 := tpl.RenderResult(data, RenderOptions{Context: ctx})
		if err1 != nil || err2 != nil || fast != slow || ctx.polls == 0 {
			t.Fatalf("%s: fast %+v (%v), with a context %+v (%v), %d polls", src, fast, err1, slow, err2, ctx.polls)
		}
		short := RenderOptions{Limits: budget.Limits{WorkUnits: fast.Units - 1}}
		_, err1 = tpl.RenderResult(data, short)
		short.Context = ctx
		_, err2 = tpl.RenderResult(data, short)
		if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
			t.Fatalf("%s at %d units: %v, with a context %v", src, fast.Units-1, err1, err2)
		}
	}
}

// TestEnvironmentLimitsAreCeilings: a render option lowers any limit of
// the environment's and raises none; where the environment keeps a
// default, the option sets it.
func TestEnvironmentLimitsAreCeilings(t *testing.T) {
	env, _ := NewEnvironment(Options{Limits: budget.Limits{OutputBytes: 10, WorkUnits: 100000}})
	tpl, err := env.Parse("t", "{{ 'x' * n }}")
	if err != nil {
		t.Fatal(err)
	}
	var e *Error
	_, err = tpl.RenderResult(map[string]any{"n": 20}, RenderOptions{Limits: budget.Limits{OutputBytes: 1000}})
	if !errors.As(err, &e) || e.Kind != KindBudget {
		t.Fatalf("a render option raised the environment's output limit: %v", err)
	}
	_, err = tpl.RenderResult(map[string]any{"n": 8}, RenderOptions{Limits: budget.Limits{OutputBytes: 5}})
	if !errors.As(err, &e) || e.Kind != KindBudget {
		t.Fatalf("a render option did not lower the output limit: %v", err)
	}
	if res, err := tpl.RenderResult(map[string]any{"n": 8}, RenderOptions{Limits: budget.Limits{NestingDepth: 50}}); err != nil || res.Output != "xxxxxxxx" {
		t.Fatalf("within the limits: %q %v", res.Output, err)
	}
}
