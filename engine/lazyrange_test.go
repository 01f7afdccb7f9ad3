package engine

import (
	"runtime"
	"testing"
)

// lazyRangeLoops are for loops over a call of range itself, every way a
// loop reads its source: each must give the same output, error and units
// with the range's items made (materialRanges) as with its numbers drawn
// one by one (value.NewLazyRange).
var lazyRangeLoops = []string{
	`{% for i in range(5) %}{{ i }},{% endfor %}`,
	`{% for i in range(3, -7, -2) %}{{ i }}{{ loop.index }}{{ loop.revindex0 }}{{ loop.first }}{{ loop.last }}{{ loop.length }};{% endfor %}`,
	`{% for i in range(0) %}x{% else %}empty{% endfor %}`,
	`{% for i in range(5, 2) %}x{% else %}{{ 'empty' }}{% endfor %}`,
	`{% for i in range(6) %}{{ loop.previtem }}<{{ i }}>{{ loop.nextitem }}|{% endfor %}`,
	`{% for i in range(7) if i is odd %}{{ i }}{{ loop.length }}{{ loop.last }}{{ loop.nextitem }},{% else %}none{% endfor %}`,
	`{% for i in range(4) if i > 9 %}x{% else %}none{% endfor %}`,
	`{% for i in range(5) %}{{ loop.cycle('a', 'b') }}{{ loop.changed(i // 2) }}{% endfor %}`,
	`{% for i in range(5) %}{% for j in loop %}{{ i }}{{ j }} {% endfor %};{% endfor %}`,
	`{% for i in range(5) %}{{ loop|list }}{% endfor %}`,
	`{% set ns = namespace(l=none) %}{% for i in range(3) %}{% set ns.l = loop %}{% endfor %}{{ ns.l.length }}{{ ns.l.index }}`,
	`{% for i in range(3) %}{% for j in range(i, 4) %}{{ i }}{{ j }}{{ loop.depth }} {% endfor %}{% endfor %}`,
	`{% for a, b in range(3) %}{% endfor %}`,
	`{% for i in range(9223372036854775807 - 3, 9223372036854775807) %}{{ i }},{% endfor %}`,
	`{% for i in range(-9223372036854775807 - 1, 9223372036854775807, 4611686018427387904) %}{{ i }},{% endfor %}`,
	`{% for i in range(9223372036854775807, -9223372036854775807 - 1, -4611686018427387904) %}{{ i }},{% endfor %}`,
	`{% for i in range(100001) %}{% endfor %}`,
	`{% for i in range(1, 2, 0) %}{% endfor %}`,
	`{% for i in range('3') %}{% endfor %}`,
	`{% for i in range(n) %}{{ i }}{% endfor %}{% for i in range(n)|reverse %}{{ i }}{% endfor %}`,
	`{% macro m(k) %}{% for i in range(m(k - 1)|length if k else 2) %}{{ i }}{% endfor %}{% endmacro %}{{ m(3) }}`,
	`{% for i in range(3) %}{{ range(2)|list }}{% endfor %}{% for i in range(range(4)|length) %}{{ i }}{% endfor %}`,
	`{% macro range(n) %}ab{{ n }}{% endmacro %}{% for i in range(3) %}{{ i }},{% endfor %}`,
	`{% set range = dict %}{% for i in range(a=1) %}{{ i }}{% endfor %}`,
	`{% for i in dict(a=1).keys() %}{{ i }}{% endfor %}{% for i in lipsum(1, false, 2, 3).split() %}{{ i }}{% endfor %}`,
	`{% for i in range(50000) %}{% for j in range(50000) %}{% endfor %}{% endfor %}`,
	`{% for i in range(5) recursive %}{{ i }}{% endfor %}`,
}

func TestLazyRangeLoopsAsMaterial(t *testing.T) {
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	render := func(src string, material bool) (string, int64, string) {
		t.Helper()
		materialRanges = material
		defer func() { materialRanges = false }()
		res, err := env.RenderString("lazyrange", src, map[string]any{"n": 4}, RenderOptions{})
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		return res.Output, res.Units, msg
	}
	errors := 0
	for _, src := range lazyRangeLoops {
		got, gotUnits, gotErr := render(src, false)
		want, wantUnits, wantErr := render(src, true)
		if gotErr != "" {
			errors++
		}
		if got != want || gotUnits != wantUnits || gotErr != wantErr {
			t.Errorf("%s\nlazy:     %q, %d units, %q\nmaterial: %q, %d units, %q", src, got, gotUnits, gotErr, want, wantUnits, wantErr)
		}
	}
	if errors != 5 {
		// the loops made to fail: unpacking ints, a range over MAX_RANGE,
		// a zero step, a string bound, the nested loops past the budget
		t.Errorf("%d of the loops failed, want the 5 made to", errors)
	}
}

// TestLazyRangeLoopAllocatesNoItems holds what the lazy range is for: a
// loop over range(100000) allocates none of its 100,000 items (4.8 MB
// made, then dropped, when the call made them; the red team's nested
// loops allocated that for every run of the inner loop).
func TestLazyRangeLoopAllocatesNoItems(t *testing.T) {
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := env.Parse("loop", `{% for i in range(100000) %}{% endfor %}{% for i in range(2) %}{% for j in range(100000) %}{% endfor %}{% endfor %}`)
	if err != nil {
		t.Fatal(err)
	}
	allocated := func(material bool) uint64 {
		materialRanges = material
		defer func() { materialRanges = false }()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := tpl.Render(nil); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	lazy, material := allocated(false), allocated(true)
	if material < 3*100000*48 {
		t.Fatalf("with the items made, the loops allocated %d bytes: the test measures nothing", material)
	}
	if lazy > 64<<10 {
		t.Errorf("three loops over ranges of 100,000 allocated %d bytes (%d with the items made), want under 64 KiB", lazy, material)
	}
}
