package main

import (
	"strings"
	"testing"
)

// TestReport: packages reported as they finish, a failed test's output
// shown, every skip listed with its reason, exit 1 on a failure.
func TestReport(t *testing.T) {
	in := strings.Join([]string{
		`{"Action":"run","Package":"github.com/jinjabox/jinjabox/a","Test":"TestX"}`,
		`{"Action":"output","Package":"github.com/jinjabox/jinjabox/a","Test":"TestX","Output":"    x_test.go:9: no dev server: JINJABOX_TEMPORAL_BIN not set\n"}`,
		`{"Action":"output","Package":"github.com/jinjabox/jinjabox/a","Test":"TestX","Output":"--- SKIP: TestX (0.00s)\n"}`,
		`{"Action":"skip","Package":"github.com/jinjabox/jinjabox/a","Test":"TestX"}`,
		`{"Action":"pass","Package":"github.com/jinjabox/jinjabox/a","Elapsed":1.5}`,
		`{"Action":"output","Package":"github.com/jinjabox/jinjabox/b","Test":"TestY","Output":"    y_test.go:3: got 1, want 2\n"}`,
		`{"Action":"fail","Package":"github.com/jinjabox/jinjabox/b","Test":"TestY","Elapsed":0.1}`,
		`{"Action":"fail","Package":"github.com/jinjabox/jinjabox/b","Elapsed":0.2}`,
		`# a build error line`,
	}, "\n")
	var out strings.Builder
	if code := report(strings.NewReader(in), &out); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{
		"ok    a ", "FAIL  b ", "--- FAIL b.TestY", "got 1, want 2",
		"1 tests skipped:\n  a.TestX: no dev server: JINJABOX_TEMPORAL_BIN not set", "# a build error line",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
	out.Reset()
	if code := report(strings.NewReader(`{"Action":"pass","Package":"p","Elapsed":1}`), &out); code != 0 {
		t.Errorf("all passed: exit %d", code)
	}
}
