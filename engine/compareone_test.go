package engine

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/jinjabox/jinjabox/budget"
)

// TestCompareOneAsChain holds compareOne, the one-operator comparison
// with its operands read in place and its common cases compared inline,
// to compare's chained way (CompareFrom, EqualFrom, Contains) in
// everything: the output, the units and the error of every render that
// runs out of units at any point of it, with and without a host context
// (whose charges take Charge's way), in default and strict modes.
func TestCompareOneAsChain(t *testing.T) {
	exprs := []string{
		"f > 0.7", "f < 0.7", "f >= 0.82", "f <= 0.82", "f == 0.82", "f != 1",
		"i > 1", "i < 1", "i >= 2", "i <= 2", "i > f", "f > i", "i > 1.5", "0.5 < i",
		"t > 0", "t >= True", "nan > 1", "nan < 1", "nan == nan", "nan >= nan", "1 <= nan",
		"s > 'a'", "s < 'zz'", "s >= s", "s == 'urgent'", "[1, 2] < [1, 3]", "(1, 2) >= (1, 2)",
		"'urgent' in b", "'eu' in b", "'nope' in b", "'' in b", "'urgent' not in b", "'x' in e",
		"'urgent' in tu", "1 in b", "1 in mixed", "'a' in mixed", "'urgent' in s", "'g' in s",
		"'k' in d", "'k' in d.keys()", "'v' in d.values()", "('k', 'v') in d.items()",
		"2 in range(3)", "'2' in range(3)", "'x' in u", "u in b", "'a' in n", "i in f",
		"'é' in uni", "'éé' in uni", "u > 1", "none < 1", "s > 1", "b > 1",
		"m in b", "'urgent' in b|list", "x.y > 1", "f > -f", "(f > 1) in b", "i > i * 2",
	}
	data := map[string]any{
		"f": 0.82, "i": 2, "t": true, "s": "urgent", "b": []any{"billing", "urgent", "eu", ""},
		"e": []any{}, "mixed": []any{1, "a", 2.5, nil}, "d": map[string]any{"k": "v"},
		"n": nil, "nan": math.NaN(), "uni": []any{"é", "éé", "e"}, "m": "eu", "x": map[string]any{"y": 3},
	}
	for _, strict := range []bool{false, true} {
		env, err := NewEnvironment(Options{StrictUndefined: strict, Globals: map[string]any{"tu": []string{"a", "urgent"}}})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range exprs {
			// the names top-level ones of the data, then bound in scopes
			src := "{{ (" + e + ") }}{{ 'p' if (" + e + ") else 'q' }}{% if " + e + " %}y{% endif %}" +
				"{% set z = 1 %}{{ 'p' if (" + e + ") else 'q' }}{% for _ in [1] %}{{ (" + e + ") }}{% endfor %}"
			tpl, err := env.Parse("cmp", src)
			if err != nil {
				t.Fatalf("%s: %v", e, err)
			}
			for _, withCtx := range []bool{false, true} {
				render := func(chained bool, units int64) (string, int64) {
					comparesChained = chained
					defer func() { comparesChained = false }()
					ro := RenderOptions{Limits: budget.Limits{WorkUnits: units}}
					if withCtx {
						ro.Context = context.Background()
					}
					res, err := tpl.RenderResult(data, ro)
					return fmt.Sprintf("%q %d %v", res.Output, res.Units, err), res.Units
				}
				full, units := render(true, 0)
				if units == 0 {
					units = 4096 // the render fails: every budget up to well past its failure
				}
				if got, _ := render(false, 0); got != full {
					t.Errorf("strict=%v ctx=%v %s:\n one     %s\n chained %s", strict, withCtx, e, got, full)
					continue
				}
				for u := int64(1); u <= units; u++ {
					got, _ := render(false, u)
					if want, _ := render(true, u); got != want {
						t.Errorf("strict=%v ctx=%v %s at %d units:\n one     %s\n chained %s", strict, withCtx, e, u, got, want)
						break
					}
				}
			}
		}
	}
}
