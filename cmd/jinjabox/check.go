package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/jinjabox/jinjabox/cmd/internal/cli"
	"github.com/jinjabox/jinjabox/internal/casecheck"
)

// caseJSON is one line of `check --json` output.
type caseJSON struct {
	ID      string  `json:"id"`
	Pass    bool    `json:"pass"`
	Skipped bool    `json:"skipped,omitempty"`
	Reason  string  `json:"reason,omitempty"` // skip or failure reason
	Got     *gotObj `json:"got,omitempty"`
	Units   int64   `json:"units"`
	NS      int64   `json:"ns"`
}

type gotObj struct {
	Output  *string `json:"output,omitempty"`
	Error   string  `json:"error,omitempty"`
	Message string  `json:"message,omitempty"`
}

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	fs := cli.NewFlagSet("check")
	asJSON := fs.Bool("json", false, "one JSON object per case on stdout; the summary line goes to stderr")
	verbose := fs.Bool("verbose", false, "also list passing and skipped cases, and per-file counts")
	timeout := fs.Duration("timeout", casecheck.DefaultTimeout, "wall-time bound per case: a case past it is cancelled and reported as a timeout (0: none)")
	files, status, ok := commands.ParseFlags(fs, args, stdout, stderr)
	if !ok {
		return status
	}
	if len(files) == 0 {
		commands.UsageError(stderr, "check", "no case file given")
		return 2
	}
	// Load everything first: a corrupt file is a usage error, reported
	// before any case runs rather than after minutes of output.
	var all [][]casecheck.Case
	for _, f := range files {
		cases, err := casecheck.LoadFile(f)
		if err != nil {
			fmt.Fprintln(stderr, "jinjabox:", err)
			return 2
		}
		all = append(all, cases)
	}
	var total casecheck.Summary
	skips := map[string]int{} // reason -> count, for the skip breakdown
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false) // a case's <, > and & print as themselves
	for i, cases := range all {
		var sum casecheck.Summary
		for j := range cases {
			r := casecheck.Run(&cases[j], casecheck.RunOptions{Timeout: *timeout})
			sum.Add(&r)
			if r.Status == casecheck.Skip {
				skips[r.SkipReason]++
			}
			if *asJSON {
				if err := enc.Encode(toJSON(&r)); err != nil {
					fmt.Fprintln(stderr, "jinjabox:", err)
					return 2
				}
				continue
			}
			printResult(stdout, &r, *verbose)
		}
		if *verbose && !*asJSON {
			fmt.Fprintf(stdout, "%s: %s\n", files[i], sum)
		}
		total.Passed += sum.Passed
		total.Failed += sum.Failed
		total.Skipped += sum.Skipped
	}
	summaryTo := stdout
	if *asJSON {
		summaryTo = stderr // keep stdout pure JSONL
	}
	// Say why cases were skipped, so a skip count never hides silently
	// what the harness does not run yet.
	reasons := make([]string, 0, len(skips))
	for k := range skips {
		reasons = append(reasons, k)
	}
	sort.Strings(reasons)
	for _, k := range reasons {
		fmt.Fprintf(summaryTo, "skipped %d: %s\n", skips[k], k)
	}
	fmt.Fprintln(summaryTo, total)
	if total.Failed > 0 {
		return 1
	}
	return 0
}

func printResult(w io.Writer, r *casecheck.Result, verbose bool) {
	c := r.Case
	switch r.Status {
	case casecheck.Fail:
		fmt.Fprintf(w, "FAIL %s (%s:%d)\n  want: %s\n  got:  %s\n", c.ID, c.File, c.Line, want(c), got(r))
	case casecheck.Skip:
		if verbose {
			fmt.Fprintf(w, "SKIP %s: %s\n", c.ID, r.SkipReason)
		}
	default:
		if verbose {
			fmt.Fprintf(w, "PASS %s (%d units, %v)\n", c.ID, r.Units, r.Duration)
		}
	}
}

// Report bounds keep one failing case to a few lines even when the
// expected or produced output is a megabyte.
const (
	boundOutput  = 160
	boundMessage = 240
)

func want(c *casecheck.Case) string {
	if c.Expect.Output != nil {
		return "output " + casecheck.Bound(*c.Expect.Output, boundOutput)
	}
	if c.Expect.AnyOutput {
		return "any output (no error)"
	}
	return c.Expect.Error + " error"
}

func got(r *casecheck.Result) string {
	if !r.Errored() {
		return "output " + casecheck.Bound(r.Output, boundOutput)
	}
	s := r.ErrKind + " error: " + casecheck.Bound(r.ErrMsg, boundMessage)
	if r.Output != "" {
		s += " (with output " + casecheck.Bound(r.Output, boundOutput) + ")"
	}
	return s
}

func toJSON(r *casecheck.Result) caseJSON {
	j := caseJSON{ID: r.Case.ID, Pass: r.Status == casecheck.Pass, Units: r.Units, NS: r.Duration.Nanoseconds()}
	switch r.Status {
	case casecheck.Skip:
		j.Skipped, j.Reason = true, r.SkipReason
		return j
	case casecheck.Fail:
		j.Reason = r.Reason
	}
	g := &gotObj{}
	if r.Errored() {
		g.Error, g.Message = r.ErrKind, r.ErrMsg
		if r.Output != "" {
			out := r.Output
			g.Output = &out
		}
	} else {
		out := r.Output
		g.Output = &out
	}
	j.Got = g
	return j
}
