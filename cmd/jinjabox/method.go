package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/jinjabox/jinjabox/cmd/internal/cli"
	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/methodfile"
)

// cmdValidate: jinjabox validate [flags] PATH... — loads the bundles the
// paths name (method files, or directories: bundle.mthds or the only
// .mthds), the -L library directories and the installed methods they
// reference, validates every pipe of the library, and prints every
// problem, one per line, each naming the file and line, the pipe and the
// field. Exit 0: valid; 1: invalid (or PipeSignatures without
// --allow-signatures); 2: a path names no bundle, or a usage error.
func cmdValidate(args []string, stdout, stderr io.Writer) int {
	fs := cli.NewFlagSet("validate")
	var mf cli.MethodFlags
	mf.Register(fs)
	asJSON := fs.Bool("json", false, "print the verdict, problems and warnings as one JSON object")
	allowSignatures := fs.Bool("allow-signatures", false, "a library whose PipeSignatures have no implementation is valid (exit 0)")
	dryRun := fs.Bool("dry-run", false, "once the static checks pass, run every pipe of the bundles on mock inputs with mock models and functions, as pipelex validate does")
	paths, status, ok := commands.ParseFlags(fs, args, stdout, stderr)
	if !ok {
		return status
	}
	if len(paths) == 0 {
		commands.UsageError(stderr, "validate", "no PATH given")
		return 2
	}
	opts, err := mf.Options(false)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	ld, status := cli.Load(paths, opts, stderr)
	if ld == nil {
		if *asJSON {
			writeJSON(stdout, validateReport{Valid: false, Exit: status, Error: "target not resolvable"})
		}
		return status
	}
	errs, warns := ld.Report.Errors(), ld.Report.Warnings()
	var dry *methodfile.DryRunResult
	if *dryRun && len(errs) == 0 {
		res := ld.DryRun(context.Background(), method.DryRunOptions{Models: opts.Models})
		dry, errs = &res, res.Problems
	}
	var pending []string
	for _, e := range ld.Signatures() {
		pending = append(pending, e.Ref)
	}
	status = 0
	switch {
	case len(errs) > 0:
		status = 1
	case len(pending) > 0 && !*allowSignatures:
		status = 1
	}
	if *asJSON {
		writeJSON(stdout, validateReport{Valid: len(errs) == 0, Exit: status, Runnable: len(errs) == 0 && len(pending) == 0 && len(ld.Library.Missing) == 0,
			Main: ld.Library.Main, Problems: nonNil(errs), Warnings: nonNil(warns), Signatures: pending, Missing: ld.Library.Missing, DryRun: dryRunReport(dry)})
		return status
	}
	cli.PrintProblems(stdout, warns)
	switch {
	case len(errs) > 0:
		cli.PrintProblems(stdout, errs)
		fmt.Fprintf(stderr, "%d problem(s)\n", len(errs))
	case len(pending) > 0 && !*allowSignatures:
		fmt.Fprintf(stdout, "valid, but not runnable: PipeSignature(s) without implementation: %s (--allow-signatures accepts them)\n", strings.Join(pending, ", "))
	case len(pending) > 0:
		fmt.Fprintf(stdout, "ok (%d signatures)\n", len(pending))
	default:
		fmt.Fprintln(stdout, "ok")
	}
	if dry != nil && len(errs) == 0 {
		fmt.Fprintf(stdout, "dry run: %d pipe(s) ran on mock inputs, %d skipped (they need a PipeSignature's implementation or a method not installed)\n", len(dry.Ran), len(dry.Skipped))
	}
	return status
}

// dryRunJSON is the dry run in validate's --json output.
type dryRunJSON struct {
	Ran     []string `json:"ran"`
	Skipped []string `json:"skipped"`
}

func dryRunReport(r *methodfile.DryRunResult) *dryRunJSON {
	if r == nil {
		return nil
	}
	return &dryRunJSON{Ran: nonNilStrings(r.Ran), Skipped: nonNilStrings(r.Skipped)}
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// validateReport is validate's --json output.
type validateReport struct {
	Valid      bool              `json:"valid"`
	Runnable   bool              `json:"runnable"`
	Exit       int               `json:"exit"`
	Main       string            `json:"main_pipe,omitempty"`
	Error      string            `json:"error,omitempty"`
	Problems   []*method.Problem `json:"problems"`
	Warnings   []*method.Problem `json:"warnings"`
	Signatures []string          `json:"signatures,omitempty"`
	Missing    []string          `json:"missing_methods,omitempty"`
	// DryRun is set with --dry-run when the static checks passed.
	DryRun *dryRunJSON `json:"dry_run,omitempty"`
}

func nonNil(ps []*method.Problem) []*method.Problem {
	if ps == nil {
		return []*method.Problem{}
	}
	return ps
}

// writeJSON writes v as indented JSON, <, > and & as themselves.
func writeJSON(w io.Writer, v any) {
	b, _ := cli.MarshalNoEscape(v, "  ")
	_, _ = w.Write(b)
}

// cmdInputs: jinjabox inputs [flags] METHOD — the inputs file of the
// entry pipe (--pipe, else main_pipe) with example content for every
// input, as `pipelex build inputs --explicit` writes it, and as exec and
// run read it back. Exit 1: the library is invalid or the pipe takes no
// inputs; 2: METHOD names no bundle, or a usage error.
func cmdInputs(args []string, stdout, stderr io.Writer) int {
	fs := cli.NewFlagSet("inputs")
	var mf cli.MethodFlags
	mf.Register(fs)
	var outPath string
	fs.StringVar(&outPath, "o", "", "same as --output")
	fs.StringVar(&outPath, "output", "", "write the inputs to `FILE` instead of stdout")
	pos, status, ok := commands.ParseFlags(fs, args, stdout, stderr)
	if !ok {
		return status
	}
	if len(pos) != 1 {
		commands.UsageError(stderr, "inputs", "want one METHOD")
		return 2
	}
	opts, err := mf.Options(false)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	opts.Funcs = nil // which functions are registered does not change the inputs
	ld, status := cli.Load(pos, opts, stderr)
	if ld == nil {
		return status
	}
	if errs := ld.Report.Errors(); len(errs) > 0 {
		cli.PrintProblems(stderr, errs)
		fmt.Fprintf(stderr, "%d problem(s)\n", len(errs))
		return 1
	}
	pipe := opts.Pipe
	if pipe == "" {
		pipe = ld.Library.Main
	}
	if pipe == "" {
		fmt.Fprintln(stderr, "jinjabox: the method has no main_pipe: name the pipe with --pipe")
		return 1
	}
	tmpl, err := ld.Library.InputsTemplate(pipe)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 1
	}
	b, err := cli.MarshalNoEscape(tmpl, "  ")
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 1
	}
	if outPath != "" {
		err = cli.WriteFileAtomic(outPath, string(b))
	} else {
		_, err = stdout.Write(b)
	}
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 1
	}
	return 0
}
