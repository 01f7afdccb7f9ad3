package engine

import (
	"fmt"
	"testing"

	"github.com/jinjabox/jinjabox/budget"
)

// TestCondAsTruthOfEval holds cond, which decides the tests of if,
// conditional expressions and loop filters without the Values eval makes,
// to the truth of eval's value in everything: the output, the units, and
// the error of every render that runs out of units at any point of it,
// in default and strict undefined modes.
func TestCondAsTruthOfEval(t *testing.T) {
	exprs := []string{
		"a > 1 and 'x' in b",
		"a > 1 and 'z' in b",
		"not a",
		"not (a > 1)",
		"not not (a < 1)",
		"a or u",
		"u and a",
		"u or a",
		"(a > 1) or (c < 0)",
		"(a < 1) or u",
		"(a > 1) and u",
		"not u",
		"a > 1 and not (c == 2) or u",
		"u or not u",
		"a is defined and a > 1",
		"a > 1 and c > 1 and 'x' in b and a != c",
		"(a > 1 or u) and (u or c)",
		"0 < a < 3 and not 'x' not in b",
		"a + u > 1",
		"b",
		"a == 'x' or []",
	}
	data := map[string]any{"a": 2, "b": []any{"x"}, "c": 2}
	for _, strict := range []bool{false, true} {
		env, err := NewEnvironment(Options{StrictUndefined: strict})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range exprs {
			src := "{% if " + e + " %}y{% else %}n{% endif %}{{ 'p' if (" + e + ") else 'q' }}" +
				"{% for i in b if " + e + " %}{{ i }}{% endfor %}"
			tpl, err := env.Parse("cond", src)
			if err != nil {
				t.Fatalf("%s: %v", e, err)
			}
			render := func(byEval bool, units int64) (string, int64) {
				condsByEval = byEval
				defer func() { condsByEval = false }()
				res, err := tpl.RenderResult(data, RenderOptions{Limits: budget.Limits{WorkUnits: units}})
				return fmt.Sprintf("%q %d %v", res.Output, res.Units, err), res.Units
			}
			full, units := render(true, 0)
			if units == 0 {
				units = 4096 // the render fails: every budget up to well past its failure
			}
			if got, _ := render(false, 0); got != full {
				t.Errorf("strict=%v %s:\n cond %s\n eval %s", strict, e, got, full)
				continue
			}
			for u := int64(1); u <= units; u++ {
				got, _ := render(false, u)
				if want, _ := render(true, u); got != want {
					t.Errorf("strict=%v %s at %d units:\n cond %s\n eval %s", strict, e, u, got, want)
					break
				}
			}
		}
	}
}
