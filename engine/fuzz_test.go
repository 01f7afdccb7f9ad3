package engine

import (
	"bufio"
	"encoding/json"
	"errors"
	"math"
	"os"
	"testing"
	"time"

	"github.com/jinjabox/jinjabox/budget"
)

// Time property of FuzzRender: the CPU time a render costs the process
// stays under a generous line in the units it spent, so an operation that
// works much more than it charges (an order-of-magnitude hole in the cost
// model) fails. The calibrated cost is about 2 ns a unit: 50 ns a unit
// plus 100 ms is 25 times that. CPU time, not wall time: at load 8-10 on
// two cores a render's wall time was ten times its CPU time (a 70 ms
// urlize measured 747 ms, best of three), which no line can tell from a
// hole; a render over the line is measured twice more (the best of three
// counts) for what remains (a collection another render left).
const (
	fuzzNsPerUnit = 50
	fuzzTimeSlack = 100 * time.Millisecond
)

// timeBound is the CPU time allowed for a render that spent units.
func timeBound(units int64) time.Duration {
	return time.Duration(units)*fuzzNsPerUnit*time.Nanosecond + fuzzTimeSlack
}

// FuzzRender: any template renders or returns a typed error; it never
// panics (an internal error is a failure), never spends past its budget,
// and its CPU time stays under timeBound of the units it spent (a
// refused render is taken to have spent its whole budget).
func FuzzRender(f *testing.F) {
	for _, path := range []string{"testdata/render_cases.jsonl", "../testsuite/testdata/shared/conformance/systematic.jsonl", "../testsuite/testdata/shared/hostile/cases.jsonl"} {
		fh, err := os.Open(path)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var c struct {
				Template string `json:"template"`
			}
			if json.Unmarshal(sc.Bytes(), &c) == nil && len(c.Template) < 2000 {
				f.Add(c.Template)
			}
		}
		fh.Close()
	}
	// large enough that a hole in the cost model shows in the time
	// property (the work an uncharged scan adds grows with the budget),
	// small enough that a fuzz input ends within ~30 ms
	const units = 16_000_000
	env, err := NewEnvironment(Options{Limits: budget.Limits{WorkUnits: units}, Templates: oracleTemplates})
	if err != nil {
		f.Fatal(err)
	}
	data := map[string]any{"x": 1, "s": "<a>", "l": []any{1, "b", nil}, "d": map[string]any{"k": "v", "_p": 2}}
	f.Fuzz(func(t *testing.T, src string) {
		var res Result
		var err error
		best := time.Duration(math.MaxInt64)
		var bound time.Duration
		for try := 0; try < 3; try++ {
			start, wall := cpuTime(), time.Now()
			res, err = env.RenderString("fuzz", src, data, RenderOptions{})
			spentTime := cpuTime() - start
			if start == 0 { // no CPU clock on this platform (calibrate_cpu_other_test.go)
				spentTime = time.Since(wall)
			}
			best = min(best, spentTime)
			spent := res.Units
			if err != nil {
				spent = units
			}
			if bound = timeBound(spent); best <= bound {
				break
			}
		}
		if best > bound {
			t.Fatalf("render took %v, over %v for the units it spent (%d ns a unit + %v): %q", best, bound, fuzzNsPerUnit, fuzzTimeSlack, src)
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("untyped error %T %v", err, err)
			}
			if e.Kind == KindInternal {
				t.Fatalf("internal error on %q: %v", src, err)
			}
			if res.Output != "" {
				t.Fatalf("refusal with output")
			}
			return
		}
		if res.Units > units {
			t.Fatalf("spent %d > budget %d", res.Units, units)
		}
		if int64(len(res.Output)) > res.Units {
			// every byte written is charged: the calibration's heap
			// ceiling rests on it (calHeapCeiling)
			t.Fatalf("wrote %d bytes on %d units: %q", len(res.Output), res.Units, src)
		}
	})
}
