package workflows

import (
	"context"
	"strconv"
	"strings"

	"go.temporal.io/sdk/workflow"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/failure"
	"github.com/jinjabox/jinjabox/method"
)

// children is the runner's Children seam under Temporal: each child is a
// child workflow of its kind's type, whose input is the part of the
// library its pipe needs and the memory it reads (the runner filtered
// it). Run keeps a window of at most `window` children running and waits
// for them in index order, starting the next as each finishes: results
// stay in index order, and the failure returned is the first by index (a
// later child that failed earlier in time is only seen if every child
// before it succeeded). Children left running when the parent fails are
// cancelled with it. Batch is batch.go's.
type children struct {
	r *run
	// check, when set, sees each child's output as it comes, in index
	// order, and may fail the rest (a batch's running output total).
	check func(i int, out *method.Stuff) error
	// leaves, set in a batch page (batch.go) and in the items it runs,
	// runs a leaf child (isLeaf) in this workflow, in a coroutine of its
	// own (leaf), instead of as a child workflow.
	leaves bool
}

// Run implements method.Children. The window is at most MaxConcurrency
// (a parallel's branches run at once, up to that many): no workflow ever
// has more pending children than the server allows.
func (c *children) Run(n int, child func(i int) method.Child, window int) ([]method.ChildResult, error) {
	window = max(1, min(window, method.MaxConcurrency))
	futures := make([]workflow.Future, n)
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
		if err := futures[i].Get(c.r.ctx, &res); err != nil {
			if items[i] >= 0 {
				return nil, failure.WithItem(err, items[i])
			}
			return nil, err
		}
		if c.check != nil {
			if err := c.check(i, res.Output); err != nil {
				return nil, err
			}
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

// subset is the part of the run's library a child needs: its pipe's
// closure and the concepts of its memory (computed once per pipe and set
// of concepts).
func (r *run) subset(pipe string, mem *method.Memory) *method.Library {
	concepts := mem.StuffConcepts()
	k := pipe + "\x00" + strings.Join(concepts, "\x00")
	if l, ok := r.subsets[k]; ok {
		return l
	}
	l := r.lib.Subset([]string{pipe}, concepts)
	r.subsets[k] = l
	return l
}

// childInput is the input of the child workflow of ch, and its type.
func (r *run) childInput(ch method.Child) (PipeInput, string, error) {
	e, ok := r.lib.Pipe(ch.Pipe)
	if !ok {
		return PipeInput{}, "", method.Fail(ch.Pipe, "", engine.NewError(engine.KindRender, "pipe is not defined"))
	}
	if _, ok := method.KindOf(e.Pipe.Type); !ok {
		return PipeInput{}, "", method.Fail(ch.Pipe, "type", engine.NewError(engine.KindRender, "a "+method.KindSignature+" has no body to run"))
	}
	in := PipeInput{Method: r.subset(ch.Pipe, ch.Memory), Pipe: ch.Pipe, Memory: ch.Memory, Depth: ch.Depth, Output: ch.Output, Options: r.opts}
	return in, WorkflowFor(e.Pipe.Type), nil
}

// start starts one child: a leaf in this workflow when c.leaves, or a
// child workflow, its input checked as a payload (a TemporalLimitError
// naming the child's pipe and item when it is too large) and accounted
// to the current task. A child workflow's ID extends the parent's with
// the child's key (childID).
func (c *children) start(ch method.Child) (workflow.Future, error) {
	if c.leaves && c.r.isLeaf(ch.Pipe) {
		return c.r.leaf(ch), nil
	}
	in, typ, err := c.r.childInput(ch)
	if err != nil {
		return nil, err
	}
	return c.r.startChild(typ, ch.Key, in, "the input of pipe "+strconv.Quote(ch.Pipe), ch.Pipe, ch.Item)
}

// isLeaf reports whether a batch page runs a pipe itself: a pipe of any
// kind but a controller (a PipeLLM, a PipeCompose, a PipeFunc, ...), and
// a PipeCondition, whose expression is one render (its outcome is a
// child again, run by the same rule). A sequence, a batch and a
// parallel stay child workflows: each one's history grows with its
// steps, items or branches, not its parent's.
func (r *run) isLeaf(pipe string) bool {
	e, ok := r.lib.Pipe(pipe)
	if !ok {
		return false // childInput reports it
	}
	k, ok := method.KindOf(e.Pipe.Type)
	return ok && (!k.Controller || k.Name == method.KindCondition)
}

// leaf runs a leaf child in this workflow, in a coroutine of its own (a
// batch page runs a window of items at once): what the child's pipe
// workflow would run (PipeWorkflow), its renders under this workflow's
// task meter, its model calls one activity each, its failure flattened
// as the child's would be. So a leaf batch item costs its page the
// events of its activity (three) and a share of a workflow task, not a
// child workflow's eleven and the child's own history.
func (r *run) leaf(ch method.Child) workflow.Future {
	f, set := workflow.NewFuture(r.ctx)
	workflow.Go(r.ctx, func(ctx workflow.Context) {
		c := *r
		c.ctx, c.actx, c.task = ctx, activityContext(ctx, r.opts), r.task.in(ctx)
		c.batchHere, c.leaves, c.keyPrefix = false, true, r.keyPrefix+ch.Key+"/"
		res, err := c.runner().Invoke(context.Background(), ch.Pipe, ch.Memory, ch.Depth, ch.Output)
		if err != nil {
			set.Set(nil, failure.Flatten(err, ch.Pipe))
			return
		}
		set.Set(PipeOutput{Output: res.Output, Added: res.Added}, nil)
	})
	return f
}

// startChild starts a child workflow of type typ with input in (checked
// and accounted as a payload) under the key's child ID.
func (r *run) startChild(typ, key string, in any, what, pipe string, item int) (workflow.ChildWorkflowFuture, error) {
	e, err := encode(in)
	if err != nil {
		return nil, method.Fail(pipe, "", engine.WrapError(engine.KindRender, err))
	}
	if err := r.task.issue(e, what, pipe, "", item); err != nil {
		return nil, err
	}
	cctx := workflow.WithChildOptions(r.ctx, workflow.ChildWorkflowOptions{WorkflowID: childID(r.ctx, r.keyPrefix+key)})
	return workflow.ExecuteChildWorkflow(cctx, typ, e.raw), nil
}
