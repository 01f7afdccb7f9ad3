package main

import (
	"strings"
	"testing"
)

const sample = `goos: linux
BenchmarkWorkloads/prompt/jinjabox-parse-render-2         	    1000	     40000 ns/op	   8000 B/op	     100 allocs/op
BenchmarkWorkloads/prompt/jinjabox-render-2               	    2000	     20000 ns/op	   4000 B/op	      50 allocs/op
BenchmarkWorkloads/prompt/text-template-parse-render-2    	    2000	     20000 ns/op	   4000 B/op	      50 allocs/op
BenchmarkWorkloads/prompt/text-template-render-2          	    4000	     10000 ns/op	      0 B/op	       0 allocs/op
BenchmarkWorkloads/prompt/text-template-render-2          	    4000	     30000 ns/op	      0 B/op	       0 allocs/op
BenchmarkWorkloads/table/text-template-render             	    4000	     10000 ns/op
PASS
`

func TestTable(t *testing.T) {
	var b strings.Builder
	if err := run(strings.NewReader(sample), &b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		// 40000/20000; bytes 8000/4000; allocs 100/50.
		"| prompt | parse-render | 40000 | 20000 | 2.00 | 8000 | 4000 | 2.00 | 100 | 50 | 2.00 |",
		// Repeated runs are averaged (20000 ns), a zero baseline gives inf.
		"| prompt | render | 20000 | 20000 | 1.00 | 4000 | 0 | inf | 50 | 0 | inf |",
		// A missing engine (a failed benchmark) and missing -benchmem give n/a.
		"| table | render | n/a | 10000 | n/a | n/a | n/a | n/a | n/a | n/a | n/a |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing row %q in\n%s", want, out)
		}
	}
}

func TestNoResults(t *testing.T) {
	if err := run(strings.NewReader("FAIL\n"), &strings.Builder{}); err == nil {
		t.Error("empty input must be an error, not an empty table")
	}
}
