package builtins_test

import (
	"path/filepath"
	"testing"

	"github.com/jinjabox/jinjabox/internal/casecheck"
)

// TestFiltersEndToEnd renders testdata/e2e_filters.jsonl (filter chains,
// text and nested data rendered by real Jinja2 3.1.2, see gen_e2e.py)
// through the whole engine.
func TestFiltersEndToEnd(t *testing.T) {
	cases, err := casecheck.LoadFile(filepath.Join("testdata", "e2e_filters.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for i := range cases {
		r := casecheck.Run(&cases[i], casecheck.RunOptions{Timeout: casecheck.DefaultTimeout})
		if r.Status == casecheck.Fail {
			failed++
			if failed <= 20 {
				t.Errorf("%s %s: %s", cases[i].ID, cases[i].Source(), r.Reason)
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d end-to-end cases failed", failed, len(cases))
	}
	t.Logf("%d cases", len(cases))
}
