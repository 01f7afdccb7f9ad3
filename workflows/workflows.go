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

	"go.temporal.io/sdk/workflow"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/engine/errs"
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
}

// PipeInput is every pipe workflow's input: the library, the pipe to run
// (its library reference), its working memory and its nesting depth
// (bounded by method.DefaultMaxDepth).
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
	ctx workflow.Context
}

// CompleteText implements method.Provider. The context.Context is
// unused: the workflow context carries cancellation.
func (p workflowProvider) CompleteText(_ context.Context, req method.CompletionRequest) (method.CompletionResponse, error) {
	var resp method.CompletionResponse
	err := workflow.ExecuteActivity(p.ctx, activities.NameCompleteText, req).Get(p.ctx, &resp)
	return resp, modelCallFailure(err)
}

// runner is the pure runner of one pipe workflow: renders under the
// in-workflow limits, model calls as activities, children as child
// workflows.
func (w *Workflows) runner(ctx workflow.Context, in PipeInput) *method.Runner {
	r := &method.Runner{
		Library:   in.Method,
		Provider:  workflowProvider{ctx: activityContext(ctx, in.Options)},
		LimitsFor: InWorkflowLimits,
		Funcs:     w.Funcs,
		Children:  &children{ctx: ctx, in: in},
	}
	if w.Recorder != nil {
		rec := w.Recorder
		r.OnRender = func(e method.RenderEvent) {
			if !workflow.IsReplaying(ctx) {
				recordRender(ctx, rec, e)
			}
		}
	}
	return r
}

// PipeWorkflow runs one pipe invocation. It is registered once per kind,
// under the kind's workflow type (WorkflowFor), and refuses a pipe of
// another kind.
func (w *Workflows) PipeWorkflow(ctx workflow.Context, in PipeInput) (PipeOutput, error) {
	if in.Method == nil {
		return PipeOutput{}, failure.From(errs.New(errs.Render, "no method"))
	}
	e, ok := in.Method.Pipe(in.Pipe)
	if !ok {
		return PipeOutput{}, failure.From(method.Fail(in.Pipe, "", errs.New(errs.Render, "pipe is not defined")))
	}
	if wf := workflow.GetInfo(ctx).WorkflowType.Name; wf != WorkflowFor(e.Pipe.Type) {
		return PipeOutput{}, failure.From(method.Fail(in.Pipe, "type", errs.New(errs.Render, "pipe type "+strconv.Quote(e.Pipe.Type)+" does not run in "+wf)))
	}
	mem := in.Memory
	if mem == nil {
		mem = method.NewMemory()
	}
	res, err := w.runner(ctx, in).Invoke(context.Background(), in.Pipe, mem, in.Depth, in.Output)
	if err != nil {
		return PipeOutput{}, failure.From(err)
	}
	return finish(in.Pipe, res.Output, res.Added)
}

// finish encodes a pipe's result, refusing one too large for a payload.
func finish(ref string, out *method.Stuff, added []method.Stuff) (PipeOutput, error) {
	res := PipeOutput{Output: out, Added: added}
	b, err := json.Marshal(res)
	if err != nil {
		return PipeOutput{}, failure.From(method.Fail(ref, "", errs.Wrap(errs.Render, err)))
	}
	if len(b) > MaxPayloadBytes {
		return PipeOutput{}, failure.From(method.Fail(ref, "", errs.New(errs.Budget,
			"result of "+strconv.Itoa(len(b))+" bytes exceeds the "+strconv.Itoa(MaxPayloadBytes)+"-byte payload limit")))
	}
	return res, nil
}

// RunMethodWorkflow validates the library (a ValidateMethod activity: it
// parses every template, more work than a workflow task should do), then
// runs its main pipe over the inputs as a child workflow. An invalid
// library fails with an InvalidMethod application error listing every
// problem.
func (w *Workflows) RunMethodWorkflow(ctx workflow.Context, in RunMethodInput) (PipeOutput, error) {
	actx := activityContext(ctx, in.Options)
	if err := workflow.ExecuteActivity(actx, activities.NameValidateMethod, in.Method).Get(ctx, nil); err != nil {
		return PipeOutput{}, err
	}
	lib, err := method.LoadJSON(in.Method)
	if err != nil {
		return PipeOutput{}, failure.From(errs.Wrap(errs.Render, err))
	}
	if lib.Main == "" {
		return PipeOutput{}, failure.From(method.Fail("", "main_pipe", errs.New(errs.Render, "no pipe to run: the method has no main_pipe and none was named")))
	}
	e, err := lib.EntryPipe(lib.Main)
	if err != nil {
		return PipeOutput{}, failure.From(method.Fail(lib.Main, "", errs.Wrap(errs.Render, err)))
	}
	mem, err := method.LoadInputs(in.Inputs)
	if err != nil {
		return PipeOutput{}, failure.From(errs.Wrap(errs.Render, err))
	}
	root := &children{ctx: ctx, in: PipeInput{Method: lib, Options: in.Options}}
	res, err := root.Run(1, func(int) method.Child {
		return method.Child{Pipe: e.Ref, Memory: lib.ResolveInputs(e, mem), Key: e.Code, Item: -1}
	}, 1)
	if err != nil {
		return PipeOutput{}, err
	}
	return finish(e.Ref, res[0].Output, res[0].Added)
}
