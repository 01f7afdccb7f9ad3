package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/methodfile"
)

// methodFlags are the flags validate, exec and run share.
type methodFlags struct {
	models  string
	pipe    string
	libDirs listFlag
	// workerFuncs are PipeFunc functions the workers register, not this
	// process (--worker-func)
	workerFuncs listFlag
}

// listFlag is a repeatable string flag (-L DIR -L DIR).
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func (f *methodFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.models, "models", "", "model configuration (JSON: presets, aliases, waterfalls) that must resolve every $preset, @alias and ~waterfall")
	fs.StringVar(&f.pipe, "pipe", "", "the pipe to run (default: the bundle's main_pipe); a bare code or domain.code")
	fs.Var(&f.libDirs, "L", "library directory: every .mthds beneath it loads into the library (repeatable)")
	fs.Var(&f.libDirs, "library-dir", "same as -L")
	fs.Var(&f.workerFuncs, "worker-func", "a PipeFunc function_name the workers register (repeatable): validate and run accept it; exec, which runs here, cannot call it")
}

// options turns the flags into load options.
//
// Every PipeFunc's function must be registered, as Pipelex refuses a
// bundle whose function it cannot find when it loads it
// (PipeFunc.validate_function_name): in this process (method.DefaultFuncs)
// or, for validate and run (inProcess false), on the workers as
// --worker-func says.
func (f *methodFlags) options(inProcess bool) (methodfile.Options, error) {
	funcs := method.DefaultFuncs
	if !inProcess && len(f.workerFuncs) > 0 {
		funcs = funcs.Clone()
		for _, name := range f.workerFuncs {
			err := funcs.Register(name, func(context.Context, method.FuncCall) (any, error) {
				return nil, fmt.Errorf("function %q is registered on the workers, not in this process", name)
			})
			if err != nil {
				return methodfile.Options{}, err
			}
		}
	}
	opts := methodfile.Options{Pipe: f.pipe, LibraryDirs: f.libDirs, Funcs: funcs}
	if f.models == "" {
		return opts, nil
	}
	data, err := os.ReadFile(f.models)
	if err != nil {
		return opts, err
	}
	var mc method.ModelConfig
	if err := json.Unmarshal(data, &mc); err != nil {
		return opts, fmt.Errorf("%s: %w", f.models, err)
	}
	opts.Models = &mc
	return opts, nil
}

// load loads the library the paths name; it prints why and returns the
// exit status (2: a path names no bundle, 1: the library is invalid)
// when it cannot be used.
func load(paths []string, opts methodfile.Options, stderr io.Writer) (*methodfile.Loaded, int) {
	ld, err := methodfile.LoadLibrary(paths, opts)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return nil, 2
	}
	return ld, 0
}

// printProblems writes problems, one per line.
func printProblems(w io.Writer, ps []*method.Problem) {
	for _, p := range ps {
		fmt.Fprintln(w, p.Error())
	}
}

// cmdValidate: jinjabox validate [flags] PATH... — loads the bundles the
// paths name (method files, or directories: bundle.mthds or the only
// .mthds), the -L library directories and the installed methods they
// reference, validates every pipe of the library, and prints every
// problem, one per line, each naming the file and line, the pipe and the
// field. Exit 0: valid; 1: invalid (or PipeSignatures without
// --allow-signatures); 2: a path names no bundle, or a usage error.
func cmdValidate(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("validate")
	var mf methodFlags
	mf.register(fs)
	asJSON := fs.Bool("json", false, "print the verdict, problems and warnings as one JSON object")
	allowSignatures := fs.Bool("allow-signatures", false, "a library whose PipeSignatures have no implementation is valid (exit 0)")
	dryRun := fs.Bool("dry-run", false, "once the static checks pass, run every pipe of the bundles on mock inputs with mock models and functions, as pipelex validate does")
	paths, status, ok := parseFlags(fs, args, stdout, stderr)
	if !ok {
		return status
	}
	if len(paths) == 0 {
		usageError(stderr, "validate", "no PATH given")
		return 2
	}
	opts, err := mf.options(false)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	ld, status := load(paths, opts, stderr)
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
	printProblems(stdout, warns)
	switch {
	case len(errs) > 0:
		printProblems(stdout, errs)
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
	b, _ := marshalNoEscape(v, "  ")
	_, _ = w.Write(b)
}

// runnable loads a library for exec or run: valid, with a pipe to run.
// It prints why not and returns the exit status when it is not.
func runnable(paths []string, opts methodfile.Options, stderr io.Writer) (*method.Library, int) {
	ld, status := load(paths, opts, stderr)
	if ld == nil {
		return nil, status
	}
	printProblems(stderr, ld.Report.Warnings())
	if errs := ld.Report.Errors(); len(errs) > 0 {
		printProblems(stderr, errs)
		return nil, 1
	}
	if ld.Library.Main == "" {
		fmt.Fprintln(stderr, "jinjabox: no pipe to run: the bundle has no main_pipe; name one with --pipe")
		return nil, 1
	}
	return ld.Library, 0
}

// cmdExec: jinjabox exec [flags] METHOD INPUTS.json — validates the
// library, runs its main pipe (or --pipe) in process with the local
// deterministic model provider (or the worker's, JINJABOX_PROVIDER=openai
// with OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL), and prints the
// output stuff as JSON (no Temporal). The local provider extracts text documents (read from
// --docs, default the inputs file's directory) and refuses image
// generation, search and non-text documents unless --simulate.
func cmdExec(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("exec")
	var mf methodFlags
	mf.register(fs)
	docs := fs.String("docs", "", "directory the local provider reads documents from (default: the inputs file's directory)")
	simulate := fs.Bool("simulate", false, "answer image generation and search with placeholders instead of refusing")
	outPath := outputFlag(fs)
	pos, status, ok := parseFlags(fs, args, stdout, stderr)
	if !ok {
		return status
	}
	if len(pos) != 2 {
		usageError(stderr, "exec", "want METHOD and INPUTS.json")
		return 2
	}
	opts, err := mf.options(true)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	lib, status := runnable(pos[:1], opts, stderr)
	if lib == nil {
		return status
	}
	idata, err := os.ReadFile(pos[1])
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	mem, err := method.LoadInputs(idata)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	dir := *docs
	if dir == "" {
		dir = filepath.Dir(pos[1])
	}
	var provider method.Provider = method.LocalProvider{Files: os.DirFS(dir), Simulate: *simulate}
	// JINJABOX_PROVIDER=openai (with OPENAI_*) calls the model as the
	// worker does; local (the default) is the offline provider above
	if p := os.Getenv("JINJABOX_PROVIDER"); p != "" && p != "local" {
		if provider, err = activities.ProviderFromEnv(); err != nil {
			fmt.Fprintln(stderr, "jinjabox:", err)
			return 2
		}
	}
	res, err := (&method.Runner{Library: lib, Provider: provider, Models: opts.Models}).Run(context.Background(), mem)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 1
	}
	if err := writeResult(stdout, *outPath, res.Output); err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 1
	}
	return 0
}

// outputFlag registers exec's and run's -o/--output.
func outputFlag(fs *flag.FlagSet) *string {
	p := new(string)
	fs.StringVar(p, "o", "", "same as --output")
	fs.StringVar(p, "output", "", "write the result to `FILE` (only when the run succeeds) instead of stdout")
	return p
}

// writeResult prints a run's output stuff as exec and run both print it:
// indented JSON with HTML characters as they are, to stdout, or to the
// file outPath names once it is complete (writeFileAtomic).
func writeResult(stdout io.Writer, outPath string, out *method.Stuff) error {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return err
	}
	if outPath != "" {
		return writeFileAtomic(outPath, b.String())
	}
	_, err := io.WriteString(stdout, b.String())
	return err
}

// cmdInputs: jinjabox inputs [flags] METHOD — the inputs file of the
// entry pipe (--pipe, else main_pipe) with example content for every
// input, as `pipelex build inputs --explicit` writes it, and as exec and
// run read it back. Exit 1: the library is invalid or the pipe takes no
// inputs; 2: METHOD names no bundle, or a usage error.
func cmdInputs(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("inputs")
	var mf methodFlags
	mf.register(fs)
	var outPath string
	fs.StringVar(&outPath, "o", "", "same as --output")
	fs.StringVar(&outPath, "output", "", "write the inputs to `FILE` instead of stdout")
	pos, status, ok := parseFlags(fs, args, stdout, stderr)
	if !ok {
		return status
	}
	if len(pos) != 1 {
		usageError(stderr, "inputs", "want one METHOD")
		return 2
	}
	opts, err := mf.options(false)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	opts.Funcs = nil // which functions are registered does not change the inputs
	ld, status := load(pos, opts, stderr)
	if ld == nil {
		return status
	}
	if errs := ld.Report.Errors(); len(errs) > 0 {
		printProblems(stderr, errs)
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
	b, err := marshalNoEscape(tmpl, "  ")
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 1
	}
	if outPath != "" {
		err = writeFileAtomic(outPath, string(b))
	} else {
		_, err = stdout.Write(b)
	}
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 1
	}
	return 0
}
