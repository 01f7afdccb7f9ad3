package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/jinjabox/jinjabox/methodfile"
	"github.com/jinjabox/jinjabox/workflows"
)

// methodFlags are the flags validate and exec share.
type methodFlags struct {
	models string
	pipe   string
}

func (f *methodFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.models, "models", "", "model configuration (JSON: presets, aliases, waterfalls) that must resolve every $preset, @alias and ~waterfall")
	fs.StringVar(&f.pipe, "pipe", "", "the pipe to start from (default: the method's main_pipe)")
}

// options turns the flags into load options.
func (f *methodFlags) options() (methodfile.Options, error) {
	opts := methodfile.Options{MainPipe: f.pipe}
	if f.models == "" {
		return opts, nil
	}
	data, err := os.ReadFile(f.models)
	if err != nil {
		return opts, err
	}
	var mc workflows.ModelConfig
	if err := json.Unmarshal(data, &mc); err != nil {
		return opts, fmt.Errorf("%s: %w", f.models, err)
	}
	opts.Models = &mc
	return opts, nil
}

// printProblems writes every problem of a load, one per line.
func printProblems(w io.Writer, err error) int {
	probs := methodfile.Problems(err)
	for _, p := range probs {
		fmt.Fprintln(w, p.Error())
	}
	if len(probs) == 0 {
		fmt.Fprintln(w, err)
	}
	return max(len(probs), 1)
}

// cmdValidate: jinjabox validate [--models M.json] [--pipe PIPE] METHOD — loads a
// method (a Pipelex .mthds or .plx file, or a JSON bundle), parses every
// template and path, and prints every problem, one per line, each naming
// the file and line, the pipe and the field.
func cmdValidate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var mf methodFlags
	mf.register(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, usageLine("validate"))
		return 2
	}
	opts, err := mf.options()
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	_, err = methodfile.LoadFileWith(pos[0], opts)
	if err == nil {
		fmt.Fprintln(stdout, "ok")
		return 0
	}
	if os.IsNotExist(err) || isPathError(err) {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	n := printProblems(stdout, err)
	fmt.Fprintf(stderr, "%d problem(s)\n", n)
	return 1
}

func isPathError(err error) bool {
	_, ok := err.(*os.PathError)
	return ok
}

// cmdExec: jinjabox exec [flags] METHOD INPUTS.json — validates the
// method, runs its main pipe in process with the local deterministic
// model provider, and prints the output stuff as JSON (no Temporal).
// The local provider extracts text documents (read from --docs, default
// the inputs file's directory) and refuses image generation, search and
// non-text documents unless --simulate.
func cmdExec(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("exec", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var mf methodFlags
	mf.register(fs)
	docs := fs.String("docs", "", "directory the local provider reads documents from (default: the inputs file's directory)")
	simulate := fs.Bool("simulate", false, "answer image generation and search with placeholders instead of refusing")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 2 {
		fmt.Fprintln(stderr, usageLine("exec"))
		return 2
	}
	opts, err := mf.options()
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	m, err := methodfile.LoadFileWith(pos[0], opts)
	if err != nil {
		if isPathError(err) {
			fmt.Fprintln(stderr, "jinjabox:", err)
			return 2
		}
		printProblems(stderr, err)
		return 1
	}
	idata, err := os.ReadFile(pos[1])
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	mem, err := workflows.LoadInputs(idata)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	dir := *docs
	if dir == "" {
		dir = filepath.Dir(pos[1])
	}
	provider := workflows.LocalProvider{Files: os.DirFS(dir), Simulate: *simulate}
	res, err := (&workflows.Runner{Method: m, Provider: provider, Models: opts.Models}).Run(context.Background(), mem)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 1
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res.Output); err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 1
	}
	return 0
}
