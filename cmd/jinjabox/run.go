package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/jinjabox/jinjabox/cmd/internal/tconfig"
	"github.com/jinjabox/jinjabox/methodfile"
	"github.com/jinjabox/jinjabox/workflows"
)

// cmdRun: jinjabox run [--id ID] [--timeout D] METHOD INPUTS.json —
// starts RunMethodWorkflow on the Temporal server of TEMPORAL_ADDRESS
// (the same settings as cmd/worker), waits for it and prints the output
// stuff as JSON, exactly as `jinjabox exec` prints it.
func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	id := fs.String("id", "", "workflow ID (default: jinjabox-run-<uuid>)")
	timeout := fs.Duration("timeout", 10*time.Minute, "give up waiting after this long")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 2 {
		fmt.Fprintln(stderr, usageLine("run"))
		return 2
	}
	// A .mthds (TOML) bundle is loaded and validated here and sent as
	// JSON, the form RunMethodWorkflow takes.
	m, err := methodfile.LoadFile(pos[0])
	if err != nil {
		if isPathError(err) {
			fmt.Fprintln(stderr, "jinjabox:", err)
			return 2
		}
		printProblems(stderr, err)
		return 1
	}
	mdata, err := json.Marshal(m)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	idata, err := os.ReadFile(pos[1])
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	if *id == "" {
		*id = "jinjabox-run-" + uuid.NewString()
	}
	cfg := tconfig.FromEnv()
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	tp, err := cfg.Tracing(ctx, nil) // stdout is for the result
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	defer func() { _ = tp.Shutdown(context.Background()) }()
	opts, err := cfg.ClientOptions(tp.Tracer("github.com/jinjabox/jinjabox"))
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	c, err := client.DialContext(ctx, opts)
	if err != nil {
		fmt.Fprintf(stderr, "jinjabox: connecting to %s: %v\n", cfg.Address, err)
		return 2
	}
	defer c.Close()
	in := workflows.RunMethodInput{Method: mdata, Inputs: idata}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: *id, TaskQueue: cfg.TaskQueue}, workflows.WorkflowRunMethod, in)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox: starting the workflow:", err)
		return 2
	}
	fmt.Fprintf(stderr, "jinjabox: started %s (run %s) on %s\n", run.GetID(), run.GetRunID(), cfg.TaskQueue)
	var res workflows.PipeOutput
	if err := run.Get(ctx, &res); err != nil {
		printRunError(stderr, err)
		return 1
	}
	var out *workflows.Stuff
	if res.Output != nil {
		s, err := res.Output.Stuff()
		if err != nil {
			fmt.Fprintln(stderr, "jinjabox:", err)
			return 1
		}
		out = &s
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 1
	}
	return 0
}

// printRunError prints a failed run: the application error's type and
// message, and the problems of an invalid method.
func printRunError(w io.Writer, err error) {
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) {
		fmt.Fprintln(w, "jinjabox:", err)
		return
	}
	fmt.Fprintf(w, "jinjabox: %s: %s\n", ae.Type(), ae.Error())
	if ae.Type() == workflows.ErrTypeInvalidMethod && ae.HasDetails() {
		var problems []string
		if ae.Details(&problems) == nil {
			for _, p := range problems {
				fmt.Fprintln(w, p)
			}
		}
	}
}
