package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/jinjabox/jinjabox/cmd/internal/cli"
	"github.com/jinjabox/jinjabox/cmd/internal/tconfig"
	"github.com/jinjabox/jinjabox/failure"
	"github.com/jinjabox/jinjabox/workflows"
)

// cmdRun: jinjabox run [flags] METHOD INPUTS.json — loads and validates
// the library as exec does, starts RunMethodWorkflow with it on the
// Temporal server of TEMPORAL_ADDRESS (the same settings as cmd/worker),
// waits for it and prints the output stuff as JSON, exactly as
// `jinjabox exec` prints it (cli.WriteResult). With a payload store
// (JINJABOX_PAYLOAD_STORE, package payloadstore) the client stores and
// reads large payloads there, as the workers must: a result of any size
// comes back.
func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := cli.NewFlagSet("run")
	var mf cli.MethodFlags
	mf.Register(fs)
	id := fs.String("id", "", "workflow ID (default: jinjabox-run-<uuid>); a run of that ID still running is an error unless --attach")
	attach := fs.Bool("attach", false, "when a run of --id is still running, wait for it and print its result (that run's method and inputs, not these) instead of failing")
	execTimeout := fs.Duration("execution-timeout", tconfig.DefaultExecutionTimeout,
		"the run's execution timeout (WorkflowExecutionTimeout): past it the server closes the run and its children as timed out")
	timeout := fs.Duration("timeout", 0, "give up waiting after this long (default: the execution timeout and a minute)")
	var ro workflows.RunOptions
	fs.DurationVar(&ro.ActivityTimeout, "activity-timeout", workflows.DefaultActivityTimeout, "one activity attempt's start-to-close timeout")
	fs.DurationVar(&ro.HeartbeatTimeout, "heartbeat-timeout", workflows.DefaultHeartbeatTimeout, "how long an activity attempt may go without a heartbeat")
	fs.DurationVar(&ro.ScheduleToCloseTimeout, "schedule-to-close-timeout", workflows.DefaultScheduleToCloseTimeout, "one activity call's total time, retries included")
	attempts := fs.Int("max-attempts", workflows.DefaultMaxAttempts, "attempts of one model call (-1: unlimited)")
	outPath := cli.OutputFlag(fs)
	pos, status, ok := commands.ParseFlags(fs, args, stdout, stderr)
	if !ok {
		return status
	}
	if len(pos) != 2 {
		commands.UsageError(stderr, "run", "want METHOD and INPUTS.json")
		return 2
	}
	if *execTimeout <= 0 || ro.ActivityTimeout <= 0 || ro.HeartbeatTimeout <= 0 || ro.ScheduleToCloseTimeout <= 0 || *timeout < 0 ||
		*attempts == 0 || *attempts < -1 || *attempts > math.MaxInt32 {
		fmt.Fprintln(stderr, "jinjabox: timeouts must be positive and --max-attempts at least 1 (or -1: unlimited)")
		return 2
	}
	ro.MaxAttempts = int32(*attempts)
	if *timeout == 0 {
		*timeout = *execTimeout + time.Minute
	}
	opts, err := mf.Options(false)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	// --models resolves model references in the workflows as it does
	// in exec, not only in validation
	ro.Models = opts.Models
	// The library is loaded and validated here and sent as JSON, the
	// form RunMethodWorkflow takes (it validates it again).
	lib, status := cli.Runnable(pos[:1], opts, stderr)
	if lib == nil {
		return status
	}
	mdata, err := json.Marshal(lib)
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
	cfg, err := tconfig.Load()
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	tp, err := cfg.Tracing(ctx, nil) // stdout is for the result
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	mp, err := cfg.Metering(ctx, nil)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	defer func() {
		fctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = tconfig.Shutdown(fctx, tp, mp)
	}()
	copts, store, err := cfg.ClientOptions(ctx, tp.Tracer("github.com/jinjabox/jinjabox"), mp)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	defer store.Close()
	// the workflows plan payloads as the clients will send them: over
	// the threshold, as claims
	ro.StoreAbove = cfg.StoreAbove()
	c, err := client.DialContext(ctx, copts)
	if err != nil {
		fmt.Fprintf(stderr, "jinjabox: connecting to %s: %v\n", cfg.Address(), err)
		return 2
	}
	defer c.Close()
	in := workflows.RunMethodInput{Method: mdata, Inputs: idata, Options: ro}
	// An ID still running is an error (FAIL), never a silent attach:
	// the running workflow's method and inputs may not be these, and its
	// result would print as theirs. --attach asks for exactly that.
	so := client.StartWorkflowOptions{ID: *id, TaskQueue: cfg.TaskQueue, WorkflowExecutionTimeout: *execTimeout,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL, WorkflowExecutionErrorWhenAlreadyStarted: true}
	if *attach {
		so.WorkflowIDConflictPolicy, so.WorkflowExecutionErrorWhenAlreadyStarted = enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING, false
	}
	run, err := c.ExecuteWorkflow(ctx, so, workflows.WorkflowRunMethod, in)
	var running *serviceerror.WorkflowExecutionAlreadyStarted
	switch {
	case errors.As(err, &running):
		fmt.Fprintf(stderr, "jinjabox: workflow ID %s is already running (run %s): pass --attach to wait for that run, or choose another --id\n", *id, running.RunId)
		return 1
	case err != nil:
		fmt.Fprintln(stderr, "jinjabox: starting the workflow:", err)
		return 2
	}
	fmt.Fprintf(stderr, "jinjabox: started %s (run %s) on %s\n", run.GetID(), run.GetRunID(), cfg.TaskQueue)
	var res workflows.PipeOutput
	if err := run.Get(ctx, &res); err != nil {
		printRunError(stderr, err)
		return 1
	}
	if err := cli.WriteResult(stdout, *outPath, res.Output); err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 1
	}
	return 0
}

// printRunError prints a failed run: the innermost of jinjabox's typed
// application errors in the chain (a child's failure arrives wrapped in
// one layer per pipe) with its type and message, and the problems of an
// invalid method; a run closed by its execution timeout says so.
func printRunError(w io.Writer, err error) {
	var we *temporal.WorkflowExecutionError
	if errors.As(err, &we) {
		if _, ok := errors.Unwrap(we).(*temporal.TimeoutError); ok {
			fmt.Fprintln(w, "jinjabox: the run timed out (its execution timeout, --execution-timeout):", err)
			return
		}
	}
	ae := typedError(err)
	if ae == nil {
		fmt.Fprintln(w, "jinjabox:", err)
		return
	}
	fmt.Fprintf(w, "jinjabox: %s: %s\n", ae.Type(), ae.Error())
	if ae.Type() == failure.ErrTypeInvalidMethod && ae.HasDetails() {
		var problems []string
		if ae.Details(&problems) == nil {
			for _, p := range problems {
				fmt.Fprintln(w, p)
			}
		}
	}
}

// jinjaboxTypes are the application error types jinjabox raises.
var jinjaboxTypes = map[string]bool{
	failure.ErrTypeSyntax: true, failure.ErrTypeSecurity: true, failure.ErrTypeBudget: true, failure.ErrTypeUndefined: true,
	failure.ErrTypeRender: true, failure.ErrTypeInvalidMethod: true, failure.ErrTypeProvider: true,
	failure.ErrTypeRateLimited: true, failure.ErrTypeTruncated: true, failure.ErrTypeRefused: true,
}

// typedError is the innermost application error of err's chain whose
// type is one of jinjabox's (failure.ErrType*), else the outermost
// application error, else nil.
func typedError(err error) *temporal.ApplicationError {
	var first, typed *temporal.ApplicationError
	for e := err; e != nil; e = errors.Unwrap(e) {
		ae, ok := e.(*temporal.ApplicationError)
		if !ok {
			continue
		}
		if first == nil {
			first = ae
		}
		if jinjaboxTypes[ae.Type()] {
			typed = ae
		}
	}
	if typed != nil {
		return typed
	}
	return first
}
