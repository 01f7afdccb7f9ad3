package engine

import (
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/budget"
)

// TestStringLengthConstant holds H2 (redteam/cpu/*-uncharged): len() of a
// string is O(1) as in Python, for strings from literals, repetition,
// concatenation, filters and copy-in (they know their length in code
// points, counted when made, by whoever paid for its bytes), so 300
// length questions on a 6 MB string cost steps, not 300 scans: with a
// length unknown, each question would be charged its scan (value.StrLen)
// and overrun the bound.
func TestStringLengthConstant(t *testing.T) {
	env, _ := NewEnvironment(Options{Limits: budget.Limits{WorkUnits: 1 << 40}})
	const size = 6_000_000
	data := map[string]any{"d": strings.Repeat("é", size/2)}
	loop := func(set, use string) string {
		return "{% set s = " + set + " %}{% for i in range(300) %}{% if " + use + " %}{% endif %}{% endfor %}done"
	}
	for _, c := range []struct{ set, use string }{
		{"'x' * 6000000", "s|length"},
		{"'é' * 3000000", "s|count"},
		{"'x' * 6000000", "s|truncate(100000000)"},
		{"'x' * 6000000", "s|center(1)"},
		{"'x' * 6000000", "s|truncate(100000000, end=s)"},
		{"'x' * 3000000 ~ 'y' * 3000000", "s|length"},
		{"'x' * 3000000 + 'y' * 3000000", "s|length"},
		{"('x' * 6000000)|upper", "s|length"},
		{"(' x ' * 2000000)|trim", "s|length"},
		{"d", "s|length"},
		{"d ~ ''", "s|length"},
		{"('x' * 6000000)[1:]", "s|length"},
		{"('x' * 6000000)|string", "s|length"},
		{"'%s' % ('x' * 6000000)", "s|length"},
	} {
		tpl := loop(c.set, c.use)
		r, err := env.RenderString("len", tpl, data, RenderOptions{})
		if err != nil || r.Output != "done" {
			t.Errorf("%s: %q %v", tpl, r.Output, err)
			continue
		}
		if max := int64(16*size + 300*4096); r.Units > max {
			t.Errorf("%s: %d units, want at most %d (a length scanned per call)", tpl, r.Units, max)
		}
	}
}
