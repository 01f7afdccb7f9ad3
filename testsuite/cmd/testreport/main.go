// Command testreport reads `go test -json` on stdin and reports as it
// goes: a line for each package when it finishes (ok, FAIL, or no tests),
// the whole output of each failed test, and at the end every skipped test
// with the reason it gave, so `make test` says what it ran, what it
// skipped and why. It exits 1 when a test or a package failed.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// event is one line of go test -json (test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

func main() { os.Exit(report(os.Stdin, os.Stdout)) }

func report(in io.Reader, out io.Writer) int {
	type key struct{ pkg, test string }
	outputs := map[key][]string{}
	var skips, fails []string
	failedPkgs := 0
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil {
			// not JSON: a build error or the go command's own output
			fmt.Fprintln(out, string(line))
			continue
		}
		k := key{e.Package, e.Test}
		short := strings.TrimPrefix(e.Package, "github.com/jinjabox/jinjabox/")
		switch e.Action {
		case "output":
			outputs[k] = append(outputs[k], e.Output)
		case "skip":
			if e.Test == "" {
				delete(outputs, k)
				continue
			}
			skips = append(skips, fmt.Sprintf("%s.%s: %s", short, e.Test, skipReason(outputs[k])))
			delete(outputs, k)
		case "pass":
			delete(outputs, k)
			if e.Test == "" {
				fmt.Fprintf(out, "ok    %-50s %6.1fs\n", short, e.Elapsed)
			}
		case "fail":
			if e.Test == "" {
				failedPkgs++
				fmt.Fprintf(out, "FAIL  %-50s %6.1fs\n", short, e.Elapsed)
				for _, l := range outputs[k] {
					fmt.Fprint(out, "      ", l)
				}
				delete(outputs, k)
				continue
			}
			fails = append(fails, short+"."+e.Test)
			fmt.Fprintf(out, "--- FAIL %s.%s (%.1fs)\n", short, e.Test, e.Elapsed)
			for _, l := range outputs[k] {
				fmt.Fprint(out, "      ", l)
			}
			delete(outputs, k)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(out, "testreport:", err)
		return 1
	}
	sort.Strings(skips)
	fmt.Fprintf(out, "\n%d tests skipped:\n", len(skips))
	for _, s := range skips {
		fmt.Fprintln(out, "  "+s)
	}
	if len(fails) > 0 || failedPkgs > 0 {
		fmt.Fprintf(out, "\n%d tests failed (%d packages):\n", len(fails), failedPkgs)
		for _, f := range fails {
			fmt.Fprintln(out, "  "+f)
		}
		return 1
	}
	return 0
}

// skipReason is the message a skipped test gave (t.Skip's, the line
// before "--- SKIP"), or "(no reason given)".
func skipReason(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "--- SKIP") || strings.HasPrefix(l, "=== ") {
			continue
		}
		// t.Skip output is "file_test.go:NN: reason"
		if i := strings.Index(l, ".go:"); i >= 0 {
			if j := strings.Index(l[i:], ": "); j >= 0 {
				return l[i+j+2:]
			}
		}
		return l
	}
	return "(no reason given)"
}
