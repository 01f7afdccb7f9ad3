// Package workflows runs methods on Temporal: one workflow per pipe
// invocation, whose type is the pipe's kind ("PipeLLMWorkflow", ...),
// and RunMethodWorkflow, which validates a library and runs its main
// pipe. A pipe workflow runs the pure runner of package method on its
// pipe: templates render in workflow code under in-workflow limits, model
// calls are activities, and a controller's children (a condition's
// outcome, a sequence step, a batch item, a parallel branch) are child
// workflows, through the runner's Children seam. Only Temporal code lives
// here; what a pipe does is package method's.
package workflows

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/failure"
	"github.com/jinjabox/jinjabox/method"
)

// WorkflowRunMethod is RunMethodWorkflow's type name.
const WorkflowRunMethod = "RunMethodWorkflow"

// WorkflowFor is the workflow type that runs a pipe kind: the kind's
// name and "Workflow".
func WorkflowFor(kind string) string { return kind + "Workflow" }

// RunOptions tune a run; the zero value is the defaults.
type RunOptions struct {
	// ActivityTimeout is each activity attempt's start-to-close timeout
	// (0: DefaultActivityTimeout).
	ActivityTimeout time.Duration `json:"activity_timeout,omitempty"`
	// HeartbeatTimeout (0: DefaultHeartbeatTimeout) and
	// ScheduleToCloseTimeout (0: DefaultScheduleToCloseTimeout) bound an
	// activity's silence and a call's attempts together.
	HeartbeatTimeout       time.Duration `json:"heartbeat_timeout,omitempty"`
	ScheduleToCloseTimeout time.Duration `json:"schedule_to_close_timeout,omitempty"`
	// MaxAttempts bounds model-call attempts (0: DefaultMaxAttempts; < 0:
	// unlimited; template errors are never retried).
	MaxAttempts int32 `json:"max_attempts,omitempty"`
	// Bounds, when set, lower the batch plan's and the history guard's
	// bounds (tests and the replay corpus: small pages, ranges and
	// histories).
	Bounds *Bounds `json:"bounds,omitempty"`
	// StoreAbove is the payload size at which the clients of the run's
	// workers and starter store payloads outside the history (external
	// storage, package payloadstore): 0, none. A payload of that many
	// bytes or more travels as a claim, so the workflows count it as
	// ClaimBytes of history and hold it to MaxStoredPayloadBytes, not
	// MaxPayloadBytes. The starter sets it from its own settings, which
	// must be the workers' (docs/temporal.md).
	StoreAbove int64 `json:"store_above,omitempty"`
	// Models resolves the method's model references ($preset, @alias,
	// ~waterfall) as `jinjabox exec --models` does; nil passes them to
	// the provider as written. The starter sends it (`run --models`), so
	// every workflow of the run resolves the same way.
	Models *method.ModelConfig `json:"models,omitempty"`
}

// PipeInput is every pipe workflow's input: the part of the library the
// pipe needs (method.Library.Subset: its pipes and their concepts, not
// the whole library), the pipe to run (its library reference), its
// working memory (what the pipe reads of its caller's:
// method.Library.Reads) and its nesting depth (bounded by
// method.DefaultMaxDepth).
type PipeInput struct {
	Method *method.Library `json:"method"`
	Pipe   string          `json:"pipe"`
	Memory *method.Memory  `json:"memory"`
	Depth  int             `json:"depth"`
	// Output, when set, overrides the pipe's output spec (a sequence
	// step's nb_output or multiple_output).
	Output  string     `json:"output,omitempty"`
	Options RunOptions `json:"options"`
}

// PipeOutput is every pipe workflow's result: the output stuff (nil when
// absent: a condition's continue) and the stuffs the pipe adds to its
// caller's memory (a parallel's add_each_output). Memory never flows
// back up.
type PipeOutput struct {
	Output *method.Stuff  `json:"output,omitempty"`
	Added  []method.Stuff `json:"added,omitempty"`
}

// RunMethodInput is RunMethodWorkflow's input: the library (or one
// bundle) and the inputs, as the JSON documents `jinjabox exec` reads.
type RunMethodInput struct {
	Method  json.RawMessage `json:"method"`
	Inputs  json.RawMessage `json:"inputs"`
	Options RunOptions      `json:"options"`
}

// RenderRecorder observes in-workflow renders (the worker turns them into
// trace spans). It is only called when the workflow is not replaying, so
// a render is reported once however often its task is replayed; an
// implementation must not block.
type RenderRecorder interface {
	RecordRender(e method.RenderEvent)
}

// Workflows holds the workflows. Register its methods with Register; the
// zero value works (no render spans).
type Workflows struct {
	Recorder RenderRecorder
	// Funcs are the PipeFunc functions (nil: method.DefaultFuncs). They
	// run in workflow code, so they must be deterministic: no I/O, clock
	// or randomness.
	Funcs *method.FuncRegistry
}

// workflowProvider runs model calls as CompleteText activities; it is how
// the runner's operators call a model inside a workflow.
type workflowProvider struct {
	w *run
}

// CompleteText implements method.Provider. The context.Context is
// unused: the workflow context carries cancellation. The request is a
// payload: checked and accounted for before the activity starts.
func (p workflowProvider) CompleteText(_ context.Context, req method.CompletionRequest) (method.CompletionResponse, error) {
	var resp method.CompletionResponse
	e, err := encode(activities.ModelCall{CompletionRequest: req, Attempts: maxAttempts(p.w.opts)})
	if err != nil {
		return resp, err
	}
	if err := p.w.task.issue(e, "the model request of pipe "+strconv.Quote(req.Pipe), req.Pipe, "", -1); err != nil {
		return resp, err
	}
	err = workflow.ExecuteActivity(modelCallContext(p.w.actx, p.w.opts), activities.NameCompleteText, e.raw).Get(p.w.ctx, &resp)
	return resp, modelCallFailure(err)
}

// executeActivity runs an activity under the run's activity options and
// waits for its result.
func (r *run) executeActivity(name string, arg, result any) error {
	return workflow.ExecuteActivity(r.actx, name, arg).Get(r.ctx, result)
}

// run is the state of one workflow execution: its context, activity
// context, options, current workflow task, and the library subsets its
// children were sent (each computed once).
type run struct {
	w       *Workflows
	ctx     workflow.Context
	actx    workflow.Context
	opts    RunOptions
	lib     *method.Library
	task    *task
	subsets map[string]*method.Library
	// batchHere is set in a PipeBatch's workflow: its batch is its whole
	// job, so it runs a page of items itself (batch.go).
	batchHere bool
	// leaves is set in a batch page's items (children.go): their leaf
	// children run in this workflow too, not as child workflows.
	leaves bool
	// keyPrefix is what the keys of this run's children extend: empty in
	// a workflow's own run, the item's key and "/" in a leaf item run in
	// a page, so that a controller it starts gets the ID it would have
	// had under the item's own workflow.
	keyPrefix string
}

func (w *Workflows) newRun(ctx workflow.Context, lib *method.Library, o RunOptions) *run {
	return &run{w: w, ctx: ctx, actx: activityContext(ctx, o), opts: o, lib: lib, task: newTask(ctx, o.Bounds.resolved(), o.StoreAbove), subsets: map[string]*method.Library{}}
}

// runner is the pure runner of one pipe workflow: renders in workflow
// code under the task meter (render.go), model calls as activities,
// children as child workflows.
func (r *run) runner() *method.Runner {
	mr := &method.Runner{
		Library:  r.lib,
		Provider: workflowProvider{w: r},
		Funcs:    r.w.Funcs,
		Models:   r.opts.Models,
		Children: &children{r: r, leaves: r.leaves},
		Renderer: &renderer{r: r},
	}
	if rec := r.w.Recorder; rec != nil {
		ctx := r.ctx
		mr.OnRender = func(e method.RenderEvent) {
			if !workflow.IsReplaying(ctx) {
				recordRender(ctx, rec, e)
			}
		}
	}
	return mr
}

// PipeWorkflow runs one pipe invocation. It is registered once per kind,
// under the kind's workflow type (WorkflowFor), and refuses a pipe of
// another kind. Its failure is flattened (failure.Flatten): the
// innermost typed error, with this pipe first in its path.
func (w *Workflows) PipeWorkflow(ctx workflow.Context, in PipeInput) (PipeOutput, error) {
	out, err := w.pipe(ctx, in)
	return out, failure.Flatten(err, in.Pipe)
}

func (w *Workflows) pipe(ctx workflow.Context, in PipeInput) (PipeOutput, error) {
	if err := checkRoot(ctx); err != nil {
		return PipeOutput{}, err
	}
	if in.Method == nil {
		return PipeOutput{}, engine.NewError(engine.KindRender, "no method")
	}
	e, ok := in.Method.Pipe(in.Pipe)
	if !ok {
		return PipeOutput{}, method.Fail(in.Pipe, "", engine.NewError(engine.KindRender, "pipe is not defined"))
	}
	if wf := workflow.GetInfo(ctx).WorkflowType.Name; wf != WorkflowFor(e.Pipe.Type) {
		return PipeOutput{}, method.Fail(in.Pipe, "type", engine.NewError(engine.KindRender, "pipe type "+strconv.Quote(e.Pipe.Type)+" does not run in "+wf))
	}
	mem := in.Memory
	if mem == nil {
		mem = method.NewMemory()
	}
	r := w.newRun(ctx, in.Method, in.Options)
	r.batchHere = e.Pipe.Type == method.KindBatch
	res, err := r.runner().Invoke(context.Background(), in.Pipe, mem, in.Depth, in.Output)
	if err != nil {
		return PipeOutput{}, err
	}
	out := PipeOutput{Output: res.Output, Added: res.Added}
	return out, r.finish(in.Pipe, out)
}

// finish checks a workflow's result, a payload like any other: over
// its limit (task.payloadLimit) it is a TemporalLimitError naming the pipe; the
// completion is a command of the current task, which ends first when the
// result would not fit its payload budget.
func (r *run) finish(ref string, res any) error {
	e, err := encode(res)
	if err != nil {
		return method.Fail(ref, "", engine.WrapError(engine.KindRender, err))
	}
	return r.task.issue(e, "the result of pipe "+strconv.Quote(ref), ref, "", -1)
}

// validateLocally is the change that validates a run's method in a
// local activity (its input is never recorded: the method is in the
// history once, as the run's input) instead of an activity, whose
// scheduled event held a second copy. Runs recorded before it replay
// the activity (workflow.DefaultVersion).
const validateLocally = "validate-method-locally"

// validate runs ValidateMethod on the run's method: as a local activity,
// or, replaying a run from before validateLocally, as the activity it
// was then.
func (r *run) validate(lib json.RawMessage) error {
	if workflow.GetVersion(r.ctx, validateLocally, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		e, err := encode(lib)
		if err != nil {
			return engine.WrapError(engine.KindRender, err)
		}
		if err := r.task.issue(e, "the method", "", "", -1); err != nil {
			return err
		}
		return workflow.ExecuteActivity(r.actx, activities.NameValidateMethod, e.raw).Get(r.ctx, nil)
	}
	// The SDK runs a local activity of the workflow task and, past 80 %
	// of the task timeout, completes the task and goes on in the next
	// (as breathe's do): a long validation never times a task out.
	lctx := workflow.WithLocalActivityOptions(r.ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: orDefault(r.opts.ActivityTimeout, DefaultActivityTimeout),
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: retryInitialInterval, BackoffCoefficient: retryBackoff,
			MaximumInterval: retryMaximumInterval, MaximumAttempts: 3, NonRetryableErrorTypes: []string{failure.ErrTypeInvalidMethod}},
	})
	return workflow.ExecuteLocalActivity(lctx, activities.NameValidateMethod, lib).Get(r.ctx, nil)
}

// RunMethodWorkflow validates the library (ValidateMethod as a local
// activity: it parses every template, more work than a stretch of
// workflow code should do), then
// runs its main pipe over the inputs as a child workflow. An invalid
// library fails with an InvalidMethod application error listing every
// problem; any failure is the innermost typed error (failure.Flatten).
func (w *Workflows) RunMethodWorkflow(ctx workflow.Context, in RunMethodInput) (PipeOutput, error) {
	out, main, err := w.runMethod(ctx, in)
	return out, failure.Flatten(err, main)
}

func (w *Workflows) runMethod(ctx workflow.Context, in RunMethodInput) (PipeOutput, string, error) {
	if err := checkRoot(ctx); err != nil {
		return PipeOutput{}, "", err
	}
	r := w.newRun(ctx, nil, in.Options)
	if err := r.validate(in.Method); err != nil {
		return PipeOutput{}, "", err
	}
	lib, err := method.LoadJSON(in.Method)
	if err != nil {
		return PipeOutput{}, "", engine.WrapError(engine.KindRender, err)
	}
	r.lib = lib
	if lib.Main == "" {
		return PipeOutput{}, "", method.Fail("", "main_pipe", engine.NewError(engine.KindRender, "no pipe to run: the method has no main_pipe and none was named"))
	}
	entry, err := lib.EntryPipe(lib.Main)
	if err != nil {
		return PipeOutput{}, lib.Main, method.Fail(lib.Main, "", engine.WrapError(engine.KindRender, err))
	}
	mem, err := method.LoadInputs(in.Inputs)
	if err != nil {
		return PipeOutput{}, entry.Ref, engine.WrapError(engine.KindRender, err)
	}
	res, err := (&children{r: r}).Run(1, func(int) method.Child {
		// the main pipe gets the inputs it reads, as any child does
		return method.Child{Pipe: entry.Ref, Memory: lib.ResolveInputs(entry, mem).Only(lib.Reads(entry.Ref)), Key: entry.Code, Item: -1}
	}, 1)
	if err != nil {
		return PipeOutput{}, entry.Ref, err
	}
	out := PipeOutput{Output: res[0].Output, Added: res[0].Added}
	return out, entry.Ref, r.finish(entry.Ref, out)
}
