package engine

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/errs"
)

// FuzzRender: any template renders or returns a typed error; it never
// panics (an internal error is a failure) and never spends past its budget.
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
	const units = 2_000_000
	env, err := NewEnvironment(Options{Limits: budget.Limits{WorkUnits: units}, Templates: oracleTemplates})
	if err != nil {
		f.Fatal(err)
	}
	data := map[string]any{"x": 1, "s": "<a>", "l": []any{1, "b", nil}, "d": map[string]any{"k": "v", "_p": 2}}
	f.Fuzz(func(t *testing.T, src string) {
		res, err := env.RenderString("fuzz", src, data, RenderOptions{})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("untyped error %T %v", err, err)
			}
			if e.Kind == errs.Internal {
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
	})
}
