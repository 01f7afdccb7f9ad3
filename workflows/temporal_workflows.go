package workflows

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/jinjabox/jinjabox/engine/errs"
)

// Workflow and activity type names. Workflows start children and
// activities by name so this package does not import the activities.
const (
	WorkflowPipeLLM       = "PipeLLMWorkflow"
	WorkflowPipeCompose   = "PipeComposeWorkflow"
	WorkflowPipeCondition = "PipeConditionWorkflow"
	WorkflowPipeBatch     = "PipeBatchWorkflow"
	WorkflowPipeSequence  = "PipeSequenceWorkflow"
	WorkflowRunMethod     = "RunMethodWorkflow"

	ActivityRenderTemplate    = "RenderTemplate"
	ActivityValidateMethod    = "ValidateMethod"
	ActivityEvaluateCondition = "EvaluateCondition"
	ActivityCompleteText      = "CompleteText"
)

// DefaultActivityTimeout bounds one model call attempt (StartToClose);
// a call on a worker that died is retried after it.
const DefaultActivityTimeout = 2 * time.Minute

// RunOptions tune a run; the zero value is the defaults.
type RunOptions struct {
	// ActivityTimeout is each activity attempt's start-to-close timeout
	// (0: DefaultActivityTimeout).
	ActivityTimeout time.Duration `json:"activity_timeout,omitempty"`
	// MaxAttempts bounds model-call attempts (0: unlimited, Temporal's
	// default; template errors are never retried).
	MaxAttempts int32 `json:"max_attempts,omitempty"`
}

// PipeInput is every pipe workflow's input: the bundle, the pipe to run,
// working memory and the nesting depth (bounded by DefaultMaxDepth).
type PipeInput struct {
	Method  *Method    `json:"method"`
	Pipe    string     `json:"pipe"`
	Memory  WireMemory `json:"memory"`
	Depth   int        `json:"depth"`
	Options RunOptions `json:"options"`
}

// PipeOutput is every pipe workflow's result: the output stuff (nil when
// absent: a condition's continue) and the memory after the pipe (changed
// by a condition's alias and a sequence's steps).
type PipeOutput struct {
	Output *WireStuff `json:"output,omitempty"`
	Memory WireMemory `json:"memory"`
}

// RunMethodInput is RunMethodWorkflow's input: the bundle and inputs as
// the JSON documents `jinjabox exec` reads.
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
	RecordRender(e RenderEvent)
}

// Workflows holds the pipe workflows. Register its methods with
// Register; the zero value works (no render spans).
type Workflows struct {
	Recorder RenderRecorder
	// Funcs are the PipeFunc functions (nil: DefaultFuncs). They run in
	// workflow code, so they must be deterministic: no I/O, clock or
	// randomness.
	Funcs *FuncRegistry
}

// workflowProvider runs model calls as CompleteText activities; it is how
// the pure runner's PipeLLM (and judge, img gen, search) code runs inside
// a workflow.
type workflowProvider struct {
	ctx workflow.Context
}

// CompleteText implements Provider. The context.Context is unused: the
// workflow context carries cancellation.
func (p workflowProvider) CompleteText(_ context.Context, req CompletionRequest) (CompletionResponse, error) {
	var w WireResponse
	if err := workflow.ExecuteActivity(p.ctx, ActivityCompleteText, req).Get(p.ctx, &w); err != nil {
		return CompletionResponse{}, err
	}
	return w.Response()
}

// activityContext sets the activity options of a run.
func activityContext(ctx workflow.Context, o RunOptions) workflow.Context {
	t := o.ActivityTimeout
	if t <= 0 {
		t = DefaultActivityTimeout
	}
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: t,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:        time.Second,
			MaximumAttempts:        o.MaxAttempts,
			NonRetryableErrorTypes: []string{ErrTypeSyntax, ErrTypeSecurity, ErrTypeBudget, ErrTypeUndefined, ErrTypeRender, ErrTypeInvalidMethod, ErrTypeProvider},
		},
	})
}

// state is one pipe workflow's view: a pure run whose renders use the
// in-workflow limits and whose model calls are activities.
func (w *Workflows) state(ctx workflow.Context, in PipeInput) (*run, *Memory, error) {
	if in.Method == nil {
		return nil, nil, ToApplicationError(errs.New(errs.Render, "no method"))
	}
	mem, err := in.Memory.Memory()
	if err != nil {
		return nil, nil, ToApplicationError(errs.Wrap(errs.Render, err))
	}
	actx := activityContext(ctx, in.Options)
	r := &Runner{Method: in.Method, Provider: workflowProvider{ctx: actx}, LimitsFor: InWorkflowLimits, Funcs: w.Funcs}
	if w.Recorder != nil {
		rec := w.Recorder
		r.OnRender = func(e RenderEvent) {
			if !workflow.IsReplaying(ctx) {
				rec.RecordRender(e)
			}
		}
	}
	return &run{r: r, ctx: context.Background(), res: &Result{}}, mem, nil
}

// pipeOf returns the input's pipe, checking the kind and the depth.
func pipeOf(in PipeInput, kinds ...string) (*Pipe, error) {
	if in.Depth > DefaultMaxDepth {
		return nil, ToApplicationError(fail(in.Pipe, "", errs.New(errs.Budget, "pipes nest deeper than "+strconv.Itoa(DefaultMaxDepth))))
	}
	p, ok := in.Method.Pipes[in.Pipe]
	if !ok || p == nil {
		return nil, ToApplicationError(fail(in.Pipe, "", errs.New(errs.Render, "pipe is not defined")))
	}
	for _, k := range kinds {
		if p.Type == k {
			return p, nil
		}
	}
	return nil, ToApplicationError(fail(in.Pipe, "type", errs.New(errs.Render, "pipe type "+strconv.Quote(p.Type)+" does not run in this workflow")))
}

// finish encodes a pipe's result, refusing one too large for a payload.
func finish(code string, out *Stuff, mem *Memory) (PipeOutput, error) {
	var res PipeOutput
	size := 0
	if out != nil {
		ws, err := ToWireStuff(*out)
		if err != nil {
			return res, ToApplicationError(fail(code, "", errs.Wrap(errs.Render, err)))
		}
		res.Output, size = &ws, len(ws.Content)
	}
	wm, err := ToWireMemory(mem)
	if err != nil {
		return res, ToApplicationError(fail(code, "", errs.Wrap(errs.Render, err)))
	}
	res.Memory = wm
	for _, s := range wm {
		size += len(s.Content)
	}
	if size > MaxPayloadBytes {
		return PipeOutput{}, ToApplicationError(fail(code, "", errs.New(errs.Budget,
			"result of "+strconv.Itoa(size)+" bytes exceeds the "+strconv.Itoa(MaxPayloadBytes)+"-byte payload limit")))
	}
	return res, nil
}

// PipeLLMWorkflow runs a model-calling pipe (PipeLLM, PipeJudge,
// PipeImgGen, PipeSearch, PipeExtract) or another leaf pipe (PipeFunc):
// its templates render in workflow code, model calls are CompleteText
// activities. It also runs PipeParallel, whose branches run inline in
// this workflow (renders in workflow code, model calls as activities),
// not as child workflows.
func (w *Workflows) PipeLLMWorkflow(ctx workflow.Context, in PipeInput) (PipeOutput, error) {
	if _, err := pipeOf(in, KindLLM, KindJudge, KindImgGen, KindSearch, KindExtract, KindFunc, KindParallel); err != nil {
		return PipeOutput{}, err
	}
	return w.inline(ctx, in)
}

// inline runs a pipe with the pure runner's own dispatch (depth and
// required-input checks included) inside this workflow.
func (w *Workflows) inline(ctx workflow.Context, in PipeInput) (PipeOutput, error) {
	s, mem, err := w.state(ctx, in)
	if err != nil {
		return PipeOutput{}, err
	}
	out, after, err := s.pipe(in.Pipe, mem, max(in.Depth, 0))
	if err != nil {
		return PipeOutput{}, ToApplicationError(err)
	}
	return finish(in.Pipe, out, after)
}

// PipeComposeWorkflow renders a PipeCompose template or construct in
// workflow code.
func (w *Workflows) PipeComposeWorkflow(ctx workflow.Context, in PipeInput) (PipeOutput, error) {
	if _, err := pipeOf(in, KindCompose); err != nil {
		return PipeOutput{}, err
	}
	return w.inline(ctx, in)
}
