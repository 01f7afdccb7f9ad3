package workflows

import (
	"encoding/json"
	"strconv"

	"go.temporal.io/sdk/workflow"

	"github.com/jinjabox/jinjabox/engine/errs"
	"github.com/jinjabox/jinjabox/failure"
	"github.com/jinjabox/jinjabox/method"
)

// children is the runner's Children seam under Temporal: each child is a
// child workflow of its kind's type. It keeps a window of at most
// `window` children running and waits for them in index order, starting
// the next as each finishes: results stay in index order, and the failure
// returned is the first by index (a later child that failed earlier in
// time is only seen if every child before it succeeded). Children left
// running when the parent fails are cancelled with it.
type children struct {
	ctx workflow.Context
	in  PipeInput
}

// Run implements method.Children.
func (c *children) Run(n int, child func(i int) method.Child, window int) ([]method.ChildResult, error) {
	if window < 1 {
		window = 1
	}
	futures := make([]workflow.ChildWorkflowFuture, n)
	items := make([]int, n)
	start := func(i int) error {
		ch := child(i)
		items[i] = ch.Item
		f, err := c.start(ch)
		futures[i] = f
		return err
	}
	for i := 0; i < n && i < window; i++ {
		if err := start(i); err != nil {
			return nil, err
		}
	}
	out := make([]method.ChildResult, n)
	for i := range n {
		var res PipeOutput
		if err := futures[i].Get(c.ctx, &res); err != nil {
			if items[i] >= 0 {
				return nil, failure.WithItem(err, items[i])
			}
			return nil, err
		}
		if next := i + window; next < n {
			if err := start(next); err != nil {
				return nil, err
			}
		}
		out[i] = method.ChildResult{Output: res.Output, Added: res.Added}
	}
	return out, nil
}

// start starts one child workflow. Its ID extends the parent's (from
// workflow info, so replays give the same IDs) with the child's key,
// unique within the parent.
func (c *children) start(ch method.Child) (workflow.ChildWorkflowFuture, error) {
	e, ok := c.in.Method.Pipe(ch.Pipe)
	if !ok {
		return nil, failure.From(method.Fail(ch.Pipe, "", errs.New(errs.Render, "pipe is not defined")))
	}
	if _, ok := method.KindOf(e.Pipe.Type); !ok {
		return nil, failure.From(method.Fail(ch.Pipe, "type", errs.New(errs.Render, "a "+method.KindSignature+" has no body to run")))
	}
	// The child's input carries the memory: refuse one the server would
	// reject, with a budget error naming the pipe.
	b, err := json.Marshal(ch.Memory)
	if err != nil {
		return nil, failure.From(method.Fail(ch.Pipe, "", errs.Wrap(errs.Render, err)))
	}
	if len(b) > MaxPayloadBytes {
		return nil, failure.From(method.Fail(ch.Pipe, "", errs.New(errs.Budget,
			"working memory of "+strconv.Itoa(len(b))+" bytes exceeds the "+strconv.Itoa(MaxPayloadBytes)+"-byte payload limit")))
	}
	id := workflow.GetInfo(c.ctx).WorkflowExecution.ID + "/" + ch.Key
	cctx := workflow.WithChildOptions(c.ctx, workflow.ChildWorkflowOptions{WorkflowID: id})
	in := PipeInput{Method: c.in.Method, Pipe: ch.Pipe, Memory: ch.Memory, Depth: ch.Depth, Output: ch.Output, Options: c.in.Options}
	return workflow.ExecuteChildWorkflow(cctx, WorkflowFor(e.Pipe.Type), in), nil
}
