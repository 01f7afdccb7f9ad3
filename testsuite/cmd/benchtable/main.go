// Command benchtable reads `go test -bench BenchmarkWorkloads -benchmem`
// output on stdin and prints a markdown table comparing jinjabox with
// text/template per workload and mode (parse+render, render only). The
// ratios are jinjabox / text/template: 3.0 means three times the time
// (or bytes, or allocations). Repeated runs (-count N) are averaged.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

// stat accumulates one benchmark's measurements over repeated runs.
type stat struct {
	n                   int
	ns, bytes, allocs   float64
	hasBytes, hasAllocs bool
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

func run(in io.Reader, out io.Writer) error {
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
		return err
	}
	if len(stats) == 0 {
		return fmt.Errorf("no BenchmarkWorkloads results on stdin")
	}
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
		t := stats[key{r.workload, "text/template", r.mode}]
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
	return nil
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
