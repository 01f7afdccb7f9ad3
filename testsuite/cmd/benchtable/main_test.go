package main

import (
	"os"
	"path/filepath"
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
BenchmarkWorkloads/prompt/jinjabox-context-2              	    4000	     15000 ns/op	   1000 B/op	      10 allocs/op
PASS
`

// nometerSample is the unmetered build's run of two of sample's benchmarks.
const nometerSample = `BenchmarkWorkloads/prompt/jinjabox-render-2               	    2000	     16000 ns/op	   4000 B/op	      50 allocs/op
BenchmarkWorkloads/prompt/jinjabox-context-2              	    4000	     15000 ns/op	   1000 B/op	      10 allocs/op
`

// Interleaved rounds: the machine slows down in round 2 for both builds,
// so the paired ratios are 1.10, 1.10 and 1.30 (median 10%), where the
// means (13000 / 11000) would say 18.2%.
const roundsOn = `BenchmarkWorkloads/macro/jinjabox-render-2 100 11000 ns/op
BenchmarkWorkloads/macro/jinjabox-render-2 100 22000 ns/op
BenchmarkWorkloads/macro/jinjabox-render-2 100 6500 ns/op
`

const roundsOff = `BenchmarkWorkloads/macro/jinjabox-render-2 100 10000 ns/op
BenchmarkWorkloads/macro/jinjabox-render-2 100 20000 ns/op
BenchmarkWorkloads/macro/jinjabox-render-2 100 5000 ns/op
`

func TestOverheadPairsRounds(t *testing.T) {
	f := filepath.Join(t.TempDir(), "nometer.out")
	if err := os.WriteFile(f, []byte(roundsOff), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := runAll(strings.NewReader(roundsOn), f, &b); err != nil {
		t.Fatal(err)
	}
	if want := "| macro | render | 11000 | 10000 | 10.0% | 10.0% to 30.0% | 3 |"; !strings.Contains(b.String(), want) {
		t.Errorf("missing row %q in\n%s", want, b.String())
	}
}

func TestOverhead(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "nometer.out")
	if err := os.WriteFile(f, []byte(nometerSample), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := runAll(strings.NewReader(sample), f, &b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"| prompt | context | 15000 | 15000 | 0.0% | 0.0% to 0.0% | 1 |",
		// 20000 metered / 16000 unmetered
		"| prompt | render | 20000 | 16000 | 25.0% | 25.0% to 25.0% | 1 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing row %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "| prompt | parse-render | 40000 |") && strings.Count(out, "parse-render") > 1 {
		t.Errorf("a benchmark missing from the unmetered run has an overhead row:\n%s", out)
	}
}

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
		// The context mode is compared with text/template's render.
		"| prompt | context | 15000 | 20000 | 0.75 | 1000 | 0 | inf | 10 | 0 | inf |",
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
