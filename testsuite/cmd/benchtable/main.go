// Command benchtable reads `go test -bench BenchmarkWorkloads -benchmem`
// output on stdin and prints a markdown table comparing jinjabox with
// text/template per workload and mode (parse+render, render only, and
// jinjabox's render from a prepared context and the same to a writer,
// which are compared with text/template's render). The ratios are jinjabox / text/template: 3.0
// means three times the time (or bytes, or allocations). Repeated runs
// (-count N) are averaged.
//
// With -nometer FILE, the output of the same benchmarks built with the
// jinjabox_nometer tag (renders that charge nothing), it also prints the
// budget's overhead per workload and mode: the median over rounds of
// metered / unmetered time, the i-th sample of a benchmark in one file
// paired with the i-th in the other. scripts/bench-overhead.sh runs the
// two builds of each benchmark back to back, round after round, so a
// pair shares the machine's state: on a shared VM whose speed drifts by
// a fifth within minutes, two separate runs compared their drift, not
// the budget (interleaved runs gave -13% to +18%).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

func main() {
	nometer := flag.String("nometer", "", "benchmark output of the jinjabox_nometer build: also print the budget's overhead")
	flag.Parse()
	if err := runAll(os.Stdin, *nometer, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

// baselineMode is the text/template mode a jinjabox mode is compared
// with: a prepared context is a render of data text/template never copies.
var baselineMode = map[string]string{"context": "render", "writer": "render"}

// stat accumulates one benchmark's measurements over repeated runs.
type stat struct {
	n                   int
	ns, bytes, allocs   float64
	hasBytes, hasAllocs bool
	// samples is each run's ns/op, in input order.
	samples []float64
}

func (s *stat) mean(v float64) float64 { return v / float64(s.n) }

// key is workload + engine + mode, from names like
// BenchmarkWorkloads/prompt/jinjabox-parse-render-8.
type key struct{ workload, engine, mode string }

var engines = []struct{ prefix, name string }{
	{"jinjabox-", "jinjabox"},
	{"text-template-", "text/template"},
}

func parseName(name string) (key, bool) {
	parts := strings.Split(name, "/")
	if len(parts) != 3 || parts[0] != "BenchmarkWorkloads" {
		return key{}, false
	}
	sub := parts[2]
	// Drop the -GOMAXPROCS suffix go test adds when it is not 1.
	if i := strings.LastIndexByte(sub, '-'); i >= 0 {
		if _, err := strconv.Atoi(sub[i+1:]); err == nil {
			sub = sub[:i]
		}
	}
	for _, e := range engines {
		if mode, ok := strings.CutPrefix(sub, e.prefix); ok {
			return key{parts[1], e.name, mode}, true
		}
	}
	return key{}, false
}

// parse reads benchmark output into averaged stats per benchmark.
func parse(in io.Reader) (map[key]*stat, error) {
	stats := map[key]*stat{}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 {
			continue
		}
		k, ok := parseName(f[0])
		if !ok {
			continue
		}
		s := stats[k]
		if s == nil {
			s = &stat{}
			stats[k] = s
		}
		s.n++
		// After the name and iteration count come "value unit" pairs.
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "ns/op":
				s.ns += v
				s.samples = append(s.samples, v)
			case "B/op":
				s.bytes += v
				s.hasBytes = true
			case "allocs/op":
				s.allocs += v
				s.hasAllocs = true
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(stats) == 0 {
		return nil, fmt.Errorf("no BenchmarkWorkloads results on stdin")
	}
	return stats, nil
}

// runAll prints the table of in and, when nometer names a file, the
// overhead table of in against it.
func runAll(in io.Reader, nometer string, out io.Writer) error {
	stats, err := parse(in)
	if err != nil {
		return err
	}
	table(stats, out)
	if nometer == "" {
		return nil
	}
	f, err := os.Open(nometer)
	if err != nil {
		return err
	}
	defer f.Close()
	off, err := parse(f)
	if err != nil {
		return fmt.Errorf("%s: %w", nometer, err)
	}
	overhead(stats, off, out)
	return nil
}

// overhead prints metered / unmetered time for every jinjabox benchmark
// found in both runs.
func overhead(on, off map[key]*stat, out io.Writer) {
	var keys []key
	for k := range on {
		if k.engine == "jinjabox" && off[k] != nil {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].workload != keys[j].workload {
			return keys[i].workload < keys[j].workload
		}
		return keys[i].mode < keys[j].mode
	})
	fmt.Fprintln(out)
	fmt.Fprintln(out, "| workload | mode | metered ns/op | unmetered ns/op | budget overhead | range over rounds | rounds |")
	fmt.Fprintln(out, "|---|---|---:|---:|---:|---:|---:|")
	pct := func(r float64) string { return strconv.FormatFloat(100*(r-1), 'f', 1, 64) + "%" }
	for _, k := range keys {
		a, b := on[k].samples, off[k].samples
		n := min(len(a), len(b))
		var ratios []float64
		for i := range n {
			if b[i] > 0 {
				ratios = append(ratios, a[i]/b[i])
			}
		}
		over, spread := "n/a", "n/a"
		if len(ratios) > 0 {
			sort.Float64s(ratios)
			over = pct(median(ratios))
			spread = pct(ratios[0]) + " to " + pct(ratios[len(ratios)-1])
		}
		fmt.Fprintf(out, "| %s | %s | %s | %s | %s | %s | %d |\n", k.workload, k.mode,
			num(median(sorted(a[:n])), n > 0), num(median(sorted(b[:n])), n > 0), over, spread, len(ratios))
	}
}

// sorted returns a sorted copy of xs.
func sorted(xs []float64) []float64 {
	out := append([]float64(nil), xs...)
	sort.Float64s(out)
	return out
}

// median is the middle of sorted xs (the mean of the two middle ones for
// an even count); 0 for none.
func median(xs []float64) float64 {
	switch n := len(xs); {
	case n == 0:
		return 0
	case n%2 == 1:
		return xs[n/2]
	default:
		return (xs[n/2-1] + xs[n/2]) / 2
	}
}

// run prints the table of the benchmark output in.
func run(in io.Reader, out io.Writer) error {
	stats, err := parse(in)
	if err != nil {
		return err
	}
	table(stats, out)
	return nil
}

// table prints jinjabox against text/template per workload and mode.
func table(stats map[key]*stat, out io.Writer) {
	type row struct{ workload, mode string }
	seen := map[row]bool{}
	var rows []row
	for k := range stats {
		r := row{k.workload, k.mode}
		if !seen[r] {
			seen[r] = true
			rows = append(rows, r)
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].workload != rows[j].workload {
			return rows[i].workload < rows[j].workload
		}
		return rows[i].mode < rows[j].mode
	})
	fmt.Fprintln(out, "| workload | mode | jinjabox ns/op | text/template ns/op | time ratio | jinjabox B/op | text/template B/op | bytes ratio | jinjabox allocs/op | text/template allocs/op | allocs ratio |")
	fmt.Fprintln(out, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		j := stats[key{r.workload, "jinjabox", r.mode}]
		base := r.mode
		if m, ok := baselineMode[r.mode]; ok {
			base = m
		}
		t := stats[key{r.workload, "text/template", base}]
		cells := []string{r.workload, r.mode}
		for _, get := range []func(*stat) (float64, bool){
			func(s *stat) (float64, bool) { return s.mean(s.ns), true },
			func(s *stat) (float64, bool) { return s.mean(s.bytes), s.hasBytes },
			func(s *stat) (float64, bool) { return s.mean(s.allocs), s.hasAllocs },
		} {
			jv, jok := value(j, get)
			tv, tok := value(t, get)
			cells = append(cells, num(jv, jok), num(tv, tok), ratio(jv, jok, tv, tok))
		}
		fmt.Fprintln(out, "| "+strings.Join(cells, " | ")+" |")
	}
}

func value(s *stat, get func(*stat) (float64, bool)) (float64, bool) {
	if s == nil {
		return 0, false
	}
	return get(s)
}

func num(v float64, ok bool) string {
	if !ok {
		return "n/a"
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

func ratio(a float64, aok bool, b float64, bok bool) string {
	switch {
	case !aok || !bok:
		return "n/a"
	case b == 0 && a == 0:
		return "1.00"
	case b == 0:
		return "inf"
	}
	return strconv.FormatFloat(a/b, 'f', 2, 64)
}
