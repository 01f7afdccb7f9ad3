package workflows_test

import (
	"context"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jinjabox/jinjabox/internal/casecheck"
	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/method/templating"
	"github.com/jinjabox/jinjabox/workflows"
)

// renderCost renders a corpus case once through the runner (what a
// pipe workflow runs in workflow code), under the default limits: its
// wall time and units (best of runs; one run under 1 Mi units).
func renderCost(t testing.TB, c casecheck.Case, cat templating.Category, runs int) (time.Duration, int64) {
	in := caseInput(t, c, cat)
	best, units := time.Duration(1<<62), int64(0)
	for i := 0; i < runs && (i == 0 || units >= 1<<20); i++ {
		var u int64
		r := &method.Runner{Library: in.Method, Provider: method.LocalProvider{},
			OnRender: func(e method.RenderEvent) { u = e.Units }}
		start := time.Now()
		_, _ = r.Invoke(context.Background(), in.Pipe, in.Memory, 0, "")
		if d := time.Since(start); d < best {
			best, units = d, u
		}
	}
	return best, units
}

// BenchmarkTaskMeter measures what the task meter's constants
// (workflows.StretchWorkUnits, RenderFixedUnits, ParseUnitsPerByte) are
// calibrated from, on this machine: the largest cost per unit over every
// hostile case that spends at least 1 Mi units (basic
// and html), the cost of a render that does nothing, and the cost of
// parsing per source byte. It reports how long a stretch's renders take
// at that cost (stretch_ms: the target is 100 ms, a tenth of the deadlock
// detector's second). Run: go test -run '^$' -bench TaskMeter ./workflows
func BenchmarkTaskMeter(b *testing.B) {
	// The hostile corpora hold the expensive cases (conformance cases spend
	// a few thousand units: their cost is the fixed cost measured below),
	// the red team's included: every one of its cases is now metered.
	files := []string{filepath.Join(corporaDir, "hostile", "cases.jsonl"), filepath.Join(corporaDir, "hostile", "redteam.jsonl")}
	type cost struct {
		id      string
		nsPerU  float64
		units   int64
		elapsed time.Duration
	}
	var costs []cost
	for range b.N {
		costs = costs[:0]
		for _, f := range files {
			cases, err := casecheck.LoadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			for _, c := range cases {
				if c.Type() != casecheck.TemplateCase {
					continue
				}
				for _, cat := range []templating.Category{templating.Basic, templating.HTML} {
					d, u := renderCost(b, c, cat, 3)
					if u >= 1<<20 {
						costs = append(costs, cost{c.ID + " (" + string(cat) + ")", float64(d.Nanoseconds()) / float64(u), u, d})
					}
				}
			}
		}
	}
	sort.Slice(costs, func(i, j int) bool { return costs[i].nsPerU > costs[j].nsPerU })
	for i := 0; i < 5 && i < len(costs); i++ {
		b.Logf("slowest per unit %d: %s %.2f ns/unit (%d units, %v)", i+1, costs[i].id, costs[i].nsPerU, costs[i].units, costs[i].elapsed)
	}
	worst := costs[0].nsPerU

	// A render that does nothing, in a memory of a few stuffs.
	empty := casecheck.Case{ID: "empty"}
	src := "{{ x }}"
	empty.Template = &src
	empty.Context = []byte(`{"x": "a", "y": {"k": [1, 2, 3]}, "z": "b"}`)
	in := caseInput(b, empty, templating.Basic)
	const n = 2000
	r := &method.Runner{Library: in.Method, Provider: method.LocalProvider{}}
	start := time.Now()
	for range n {
		r2 := *r
		_, _ = r2.Invoke(context.Background(), in.Pipe, in.Memory, 0, "")
	}
	fixed := float64(time.Since(start).Nanoseconds()) / n

	// Binding: a render that reads nothing, in a memory holding a list of
	// 100,000 items (each bound as an artefact).
	items := make([]any, 100000)
	for i := range items {
		items[i] = "item"
	}
	bindIn := caseInput(b, empty, templating.Basic)
	bindIn.Memory = bindIn.Memory.With(method.Stuff{Name: "many", Concept: "Text[]", Content: items})
	const bn = 20
	start = time.Now()
	for range bn {
		r2 := *r
		_, _ = r2.Invoke(context.Background(), bindIn.Pipe, bindIn.Memory, 0, "")
	}
	bind := (float64(time.Since(start).Nanoseconds())/bn - fixed) / float64(len(items))

	// Parsing: a long template of ordinary statements.
	long := strings.Repeat("{% if a %}{{ b|upper }}{% else %}text {{ c.d }}{% endif %}\n", 5000)
	parseCase := casecheck.Case{ID: "parse"}
	parseCase.Template = &long
	d, u := renderCost(b, parseCase, templating.Basic, 3)
	parse := (float64(d.Nanoseconds()) - float64(u)*worst) / float64(len(long))

	b.ReportMetric(worst, "ns/unit")
	b.ReportMetric(fixed/worst, "fixed_units")
	b.ReportMetric(parse/worst, "parse_units/byte")
	b.ReportMetric(bind/worst, "bind_units/value")
	b.ReportMetric(float64(workflows.StretchWorkUnits)*worst/1e6, "stretch_ms")
	b.Logf("worst %.2f ns/unit: a render that does nothing costs %.0f ns (%.0f units; RenderFixedUnits %d), binding a value %.1f ns (%.1f units; BindUnitsPerValue %d), parsing %.1f ns a byte (%.1f units; ParseUnitsPerByte %d); StretchWorkUnits %d is %.0f ms",
		worst, fixed, fixed/worst, workflows.RenderFixedUnits, bind, bind/worst, workflows.BindUnitsPerValue, parse, parse/worst, workflows.ParseUnitsPerByte, workflows.StretchWorkUnits, float64(workflows.StretchWorkUnits)*worst/1e6)
}
