package engine

import (
	"context"
	"fmt"
	"testing"

	"github.com/jinjabox/jinjabox/budget"
)

// TestRootNameAsFullWay holds the inline lookup of a top-level name
// (rootDataIndex: the root scope binds nothing and the name's guess in
// the data is right) to the full way, which a render with a host context
// always takes (its charges never pass spent): the same output, units and
// error at every budget, on data whose shape changes between renders (a
// guess made on one shape is wrong on the next), with a global the data
// shadows, a name the data lacks, and names bound by set, a loop and a
// macro.
func TestRootNameAsFullWay(t *testing.T) {
	env, err := NewEnvironment(Options{Globals: map[string]any{"g": "global", "a": "shadowed"}})
	if err != nil {
		t.Fatal(err)
	}
	templates := []string{
		"{{ a }}{{ b.c }}{{ a > 1 and 'x' in l }}{{ u }}{{ g }}",
		"{{ a }}{% set a = 5 %}{{ a }}{{ b.c }}",
		"{% for i in l %}{{ a }}{{ i }}{% endfor %}{{ a }}{{ l | length }}",
		"{% macro m(x) %}{{ a }}{{ x }}{% endmacro %}{{ m(a) }}{{ b.c if b is defined }}",
		"{{ 'yes' if (a > 0 and 'x' in l) else 'no' }}{{ b['c'] }}",
	}
	datas := []map[string]any{
		{"a": 2, "b": map[string]any{"c": 3}, "l": []any{"x"}},
		{"l": []any{"y"}, "b": map[string]any{"c": "z"}, "a": 0, "extra": 1},
		{"a": 1, "l": []any{}},
		{"aa": 1, "b": map[string]any{"c": 1}, "l": []any{"x"}, "a": -1},
	}
	for _, src := range templates {
		tpl, err := env.Parse("t", src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		for round := 0; round < 2; round++ { // the second round starts from the last shape's guesses
			for di, data := range datas {
				render := func(withCtx bool, units int64) (string, int64) {
					ro := RenderOptions{Limits: budget.Limits{WorkUnits: units}}
					if withCtx {
						ro.Context = &countdownCtx{Context: context.Background(), n: 1 << 30}
					}
					res, err := tpl.RenderResult(data, ro)
					return fmt.Sprintf("%q %d %v", res.Output, res.Units, err), res.Units
				}
				want, units := render(true, 0)
				if got, _ := render(false, 0); got != want {
					t.Fatalf("%s on data %d: inline %s, full way %s", src, di, got, want)
				}
				if units == 0 {
					units = 4096 // an error: every budget well past it
				}
				for u := int64(1); u <= units; u++ {
					got, _ := render(false, u)
					if want, _ := render(true, u); got != want {
						t.Fatalf("%s on data %d at %d units: inline %s, full way %s", src, di, u, got, want)
					}
				}
			}
		}
	}
}
