package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/methodfile"
)

// MethodHelp is the help validate, inputs, exec and run share.
const MethodHelp = `METHOD and PATH are a JSON bundle, a Pipelex .mthds/.plx file, or a directory
holding bundle.mthds or a single .mthds.`

// Companion is the executable that runs exec and run (cmd/jinjabox-method),
// and Install how to install it, for jinjabox's error when it is missing.
const (
	Companion = "jinjabox-method"
	Install   = "go install github.com/jinjabox/jinjabox/cmd/jinjabox-method@latest, or make build"
)

// Exec and Run are the entries of exec and run in both command tables:
// jinjabox lists them (and runs Companion for them), Companion runs them.
// One definition, so the synopsis jinjabox shows is the one Companion
// parses.
var (
	Exec = Command{"exec", "[-L DIR]... [--models M.json] [--pipe PIPE] [--docs DIR] [--simulate] METHOD INPUTS.json",
		"run a method in process (local model by default)", MethodHelp}
	Run = Command{"run", "[-L DIR]... [--models M.json] [--pipe PIPE] [--id ID] [--execution-timeout D] [--timeout D] [activity options] METHOD INPUTS.json",
		"run a method on Temporal (RunMethodWorkflow)", MethodHelp}
)

// MethodFlags are the flags validate, inputs, exec and run share.
type MethodFlags struct {
	Models  string
	Pipe    string
	LibDirs ListFlag
	// WorkerFuncs are PipeFunc functions the workers register, not this
	// process (--worker-func)
	WorkerFuncs ListFlag
}

// ListFlag is a repeatable string flag (-L DIR -L DIR).
type ListFlag []string

// String is the values, comma-separated, as flag.Value requires.
func (l *ListFlag) String() string { return strings.Join(*l, ",") }

// Set appends s: each occurrence of the flag adds one value.
func (l *ListFlag) Set(s string) error { *l = append(*l, s); return nil }

// Register adds the flags to fs.
func (f *MethodFlags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.Models, "models", "", "model configuration (JSON: presets, aliases, waterfalls) that must resolve every $preset, @alias and ~waterfall")
	fs.StringVar(&f.Pipe, "pipe", "", "the pipe to run (default: the bundle's main_pipe); a bare code or domain.code")
	fs.Var(&f.LibDirs, "L", "library directory: every .mthds beneath it loads into the library (repeatable)")
	fs.Var(&f.LibDirs, "library-dir", "same as -L")
	fs.Var(&f.WorkerFuncs, "worker-func", "a PipeFunc function_name the workers register (repeatable): validate and run accept it; exec, which runs here, cannot call it")
}

// Options turns the flags into load options.
//
// Every PipeFunc's function must be registered, as Pipelex refuses a
// bundle whose function it cannot find when it loads it
// (PipeFunc.validate_function_name): in this process (method.DefaultFuncs)
// or, for validate and run (inProcess false), on the workers as
// --worker-func says.
func (f *MethodFlags) Options(inProcess bool) (methodfile.Options, error) {
	funcs := method.DefaultFuncs
	if !inProcess && len(f.WorkerFuncs) > 0 {
		funcs = funcs.Clone()
		for _, name := range f.WorkerFuncs {
			err := funcs.Register(name, func(context.Context, method.FuncCall) (any, error) {
				return nil, fmt.Errorf("function %q is registered on the workers, not in this process", name)
			})
			if err != nil {
				return methodfile.Options{}, err
			}
		}
	}
	opts := methodfile.Options{Pipe: f.Pipe, LibraryDirs: f.LibDirs, Funcs: funcs}
	if f.Models == "" {
		return opts, nil
	}
	data, err := os.ReadFile(f.Models)
	if err != nil {
		return opts, err
	}
	var mc method.ModelConfig
	if err := json.Unmarshal(data, &mc); err != nil {
		return opts, fmt.Errorf("%s: %w", f.Models, err)
	}
	opts.Models = &mc
	return opts, nil
}

// Load loads the library the paths name; it prints why and returns the
// exit status (2: a path names no bundle, 1: the library is invalid)
// when it cannot be used.
func Load(paths []string, opts methodfile.Options, stderr io.Writer) (*methodfile.Loaded, int) {
	ld, err := methodfile.LoadLibrary(paths, opts)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return nil, 2
	}
	return ld, 0
}

// PrintProblems writes problems, one per line.
func PrintProblems(w io.Writer, ps []*method.Problem) {
	for _, p := range ps {
		fmt.Fprintln(w, p.Error())
	}
}

// Runnable loads a library for exec or run: valid, with a pipe to run.
// It prints why not and returns the exit status when it is not.
func Runnable(paths []string, opts methodfile.Options, stderr io.Writer) (*method.Library, int) {
	ld, status := Load(paths, opts, stderr)
	if ld == nil {
		return nil, status
	}
	PrintProblems(stderr, ld.Report.Warnings())
	if errs := ld.Report.Errors(); len(errs) > 0 {
		PrintProblems(stderr, errs)
		return nil, 1
	}
	if ld.Library.Main == "" {
		fmt.Fprintln(stderr, "jinjabox: no pipe to run: the bundle has no main_pipe; name one with --pipe")
		return nil, 1
	}
	return ld.Library, 0
}

// OutputFlag registers exec's and run's -o/--output.
func OutputFlag(fs *flag.FlagSet) *string {
	p := new(string)
	fs.StringVar(p, "o", "", "same as --output")
	fs.StringVar(p, "output", "", "write the result to `FILE` (only when the run succeeds) instead of stdout")
	return p
}

// WriteResult prints a run's output stuff as exec and run both print it:
// indented JSON with HTML characters as they are, to stdout, or to the
// file outPath names once it is complete (WriteFileAtomic).
func WriteResult(stdout io.Writer, outPath string, out *method.Stuff) error {
	b, err := MarshalNoEscape(out, "  ")
	if err != nil {
		return err
	}
	if outPath != "" {
		return WriteFileAtomic(outPath, string(b))
	}
	_, err = stdout.Write(b)
	return err
}
