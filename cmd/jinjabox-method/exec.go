package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/cmd/internal/cli"
	"github.com/jinjabox/jinjabox/method"
)

// cmdExec: jinjabox exec [flags] METHOD INPUTS.json — validates the
// library, runs its main pipe (or --pipe) in process with the local
// deterministic model provider (or the worker's, JINJABOX_PROVIDER=openai
// with OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL), and prints the
// output stuff as JSON (no Temporal). The local provider extracts text documents (read from
// --docs, default the inputs file's directory) and refuses image
// generation, search and non-text documents unless --simulate.
func cmdExec(args []string, stdout, stderr io.Writer) int {
	fs := cli.NewFlagSet("exec")
	var mf cli.MethodFlags
	mf.Register(fs)
	docs := fs.String("docs", "", "directory the local provider reads documents from (default: the inputs file's directory)")
	simulate := fs.Bool("simulate", false, "answer image generation and search with placeholders instead of refusing")
	outPath := cli.OutputFlag(fs)
	pos, status, ok := commands.ParseFlags(fs, args, stdout, stderr)
	if !ok {
		return status
	}
	if len(pos) != 2 {
		commands.UsageError(stderr, "exec", "want METHOD and INPUTS.json")
		return 2
	}
	opts, err := mf.Options(true)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	lib, status := cli.Runnable(pos[:1], opts, stderr)
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
	if err := cli.WriteResult(stdout, *outPath, res.Output); err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 1
	}
	return 0
}
