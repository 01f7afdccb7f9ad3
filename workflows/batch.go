package workflows

import (
	"encoding/json"
	"strconv"

	"go.temporal.io/sdk/workflow"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/failure"
	"github.com/jinjabox/jinjabox/method"
)

// Batches of any size. A batch (a PipeBatch, a sequence's batch_over
// step, a parallel's batch branch) is planned before anything starts,
// from every item's exact input size:
//
//   - a page is a run of consecutive items, at most Plan.PageItems of
//     them and Plan.PageInputBytes of item inputs; a workflow running a
//     page runs its leaf items itself (children.go's leaf: a model call
//     is one activity) and starts a controller item as a child, at most
//     the batch's window at once (at most 6 events and about an input an
//     item);
//   - a batch that is one page runs in the PipeBatch's workflow itself;
//     otherwise its coordinator starts its pages as BatchWorkflow
//     children, or, when there are more than Plan.RangeChildren of them
//     or their inputs would pass Plan.RangeInputBytes, as many ranges of
//     pages as fit, each a BatchWorkflow that plans its range the same
//     way (a tree: 10,000 small items are 20 pages of one coordinator);
//   - a coordinator keeps children running while their windows (each
//     min(window, its items)) sum to at most the batch's window, so at
//     most max_concurrency items run at once, and waits for them in
//     index order: results keep item order, and the failure is the first
//     by index;
//   - outputs come back as the pages' results; the running total of the
//     batch's outputs fails typed (batch_output_bytes, naming the first
//     item past it) as soon as the list could no longer be one payload.
//
// No workflow of a batch loops, so none needs continue-as-new: each is
// bounded by the plan before it starts (docs/temporal.md has the
// arithmetic and the benchmark's measurements). A sequence or parallel
// never runs items itself: its batch is one page (or more) of its own,
// so a step costs it a few events whatever the batch's size.

// WorkflowBatch is the type of the workflow that runs a page or range of
// a batch.
const WorkflowBatch = "BatchWorkflow"

// BatchInput is BatchWorkflow's input: the part of the library the
// branch needs, the batch part to run, and the run's options.
type BatchInput struct {
	Method  *method.Library `json:"method"`
	Batch   *method.Batch   `json:"batch"`
	Options RunOptions      `json:"options"`
}

// BatchOutput is BatchWorkflow's result: each item's output, in item
// order (null when absent).
type BatchOutput struct {
	Outputs []*method.Stuff `json:"outputs"`
}

// BatchWorkflow runs a page or range of a batch. Its failure is the
// innermost typed error, its item the first failing item's index in the
// whole batch; it adds no pipe to the path (it is plumbing).
func (w *Workflows) BatchWorkflow(ctx workflow.Context, in BatchInput) (BatchOutput, error) {
	if in.Batch == nil || in.Method == nil {
		return BatchOutput{}, failure.Flatten(engine.NewError(engine.KindRender, "no batch"), "")
	}
	r := w.newRun(ctx, in.Method, in.Options)
	r.batchHere = true
	res, err := r.batch(in.Batch)
	if err != nil {
		return BatchOutput{}, failure.Flatten(err, "")
	}
	out := BatchOutput{Outputs: make([]*method.Stuff, len(res))}
	for i, c := range res {
		out.Outputs[i] = c.Output
	}
	return out, failure.Flatten(r.finish(in.Batch.Caller, out), "")
}

// Batch implements method.Children.
func (c *children) Batch(b *method.Batch) ([]method.ChildResult, error) { return c.r.batch(b) }

// batchPlan is a batch's plan: its pages, each [from, to) of its items.
type batchPlan struct {
	b *method.Batch
	// itemBytes is each item's JSON size; input is the size of an item
	// child's input without its item.
	itemBytes []int64
	input     int64
	pages     [][2]int
}

// batch runs a batch (or part of one) by its plan.
func (r *run) batch(b *method.Batch) ([]method.ChildResult, error) {
	if b.Window > method.MaxConcurrency {
		return nil, failure.Limit(failure.LimitMaxConcurrency, b.Caller, "max_concurrency", -1, int64(b.Window), method.MaxConcurrency,
			"a batch may run at most "+strconv.Itoa(method.MaxConcurrency)+" items at once")
	}
	b.Window = max(1, b.Window)
	if len(b.Items) == 0 {
		return nil, nil
	}
	p, err := r.plan(b)
	if err != nil {
		return nil, err
	}
	if r.batchHere && len(p.pages) == 1 {
		return r.page(b)
	}
	return r.coordinate(p)
}

// plan measures the items and cuts the pages.
func (r *run) plan(b *method.Batch) (*batchPlan, error) {
	pl := r.opts.Bounds.resolved()
	p := &batchPlan{b: b, itemBytes: make([]int64, len(b.Items))}
	for i, it := range b.Items {
		j, err := json.Marshal(it)
		if err != nil {
			return nil, method.Fail(b.Pipe, "", engine.WrapError(engine.KindRender, err))
		}
		p.itemBytes[i] = int64(len(j))
	}
	// An item child's input is the same but for the item: measure it once
	// with a null item, and add each item's size (8 bytes of slack for
	// the lengths' varints).
	ch := b.Child(0)
	ch.Memory = b.Shared.With(method.Stuff{Name: b.ItemName, Concept: b.ItemConcept, Content: nil})
	in, _, err := r.childInput(ch)
	if err != nil {
		return nil, err
	}
	e, err := encode(in)
	if err != nil {
		return nil, method.Fail(b.Pipe, "", engine.WrapError(engine.KindRender, err))
	}
	p.input = e.size - int64(len("null")) + 8
	from, bytes := 0, int64(0)
	for i := range b.Items {
		size := p.input + p.itemBytes[i]
		if limit := r.task.payloadLimit(size); size > limit {
			return nil, failure.Limit(failure.LimitPayloadBytes, b.Pipe, "", b.Offset+i, size, limit,
				"the input of pipe "+strconv.Quote(b.Pipe)+" is too large for a Temporal payload")
		}
		size += PlanEventBytes
		if i > from && (i-from >= pl.PageItems || bytes+size > pl.PageInputBytes) {
			p.pages = append(p.pages, [2]int{from, i})
			from, bytes = i, 0
		}
		bytes += size
	}
	p.pages = append(p.pages, [2]int{from, len(b.Items)})
	return p, nil
}

// page runs a page's items as children of this workflow: a window of at
// most b.Window, results in index order, the first failure by index, and
// the outputs' running total checked.
func (r *run) page(b *method.Batch) ([]method.ChildResult, error) {
	var total int64
	c := &children{r: r, leaves: true, check: func(i int, out *method.Stuff) (err error) {
		total, err = r.outputBytes(b, total, b.Offset+i, out)
		return err
	}}
	return c.Run(len(b.Items), b.Child, b.Window)
}

// outputBytes adds an item's output to the batch's running total, and
// refuses the item whose output takes it past what one payload holds:
// MaxPayloadBytes, or MaxStoredPayloadBytes once the outputs are large
// enough to travel as a claim (RunOptions.StoreAbove).
func (r *run) outputBytes(b *method.Batch, total int64, item int, out *method.Stuff) (int64, error) {
	if out == nil {
		return total, nil
	}
	j, err := json.Marshal(out.Content)
	if err != nil {
		return total, method.Fail(b.Caller, "", engine.WrapError(engine.KindRender, err))
	}
	total += int64(len(j)) + 1
	if limit := r.task.payloadLimit(total); total > limit {
		return total, failure.Limit(failure.LimitBatchOutputBytes, b.Caller, "", item, total, limit,
			"the batch's outputs up to item "+strconv.Itoa(item)+" are too large for one Temporal payload")
	}
	return total, nil
}

// coordinate runs the plan's pages, or ranges of them, as BatchWorkflow
// children, and concatenates their outputs.
func (r *run) coordinate(p *batchPlan) ([]method.ChildResult, error) {
	b := p.b
	pl := r.opts.Bounds.resolved()
	// A child range's input: the batch without items, and its items.
	empty := b.Part(0, 0)
	e, err := encode(BatchInput{Method: r.subsetOf(b), Batch: empty, Options: r.opts})
	if err != nil {
		return nil, method.Fail(b.Caller, "", engine.WrapError(engine.KindRender, err))
	}
	base := e.size + 8
	var items int64
	for _, n := range p.itemBytes {
		items += n + 1
	}
	// As many children as the coordinator's bounds allow, at least two.
	fit := int64(pl.RangeChildren)
	if room := (pl.RangeInputBytes - items) / base; room < fit {
		fit = room
	}
	units := p.pages
	if int64(len(p.pages)) > fit {
		g := min(len(p.pages), int(max(2, fit)))
		units = make([][2]int, g)
		for i := range g {
			lo, hi := len(p.pages)*i/g, len(p.pages)*(i+1)/g
			units[i] = [2]int{p.pages[lo][0], p.pages[hi-1][1]}
		}
	}
	out := make([]method.ChildResult, 0, len(b.Items))
	futures := make([]workflow.ChildWorkflowFuture, len(units))
	windows := make([]int, len(units))
	next, running := 0, 0
	var total int64
	for i := range units {
		for next < len(units) && (next == i || running+min(b.Window, units[next][1]-units[next][0]) <= b.Window) {
			u := units[next]
			part := b.Part(u[0], u[1])
			part.Window = min(b.Window, u[1]-u[0])
			key := b.KeyPrefix + "p" + strconv.Itoa(part.Offset) + "-" + strconv.Itoa(part.Offset+len(part.Items)-1)
			f, err := r.startChild(WorkflowBatch, key, BatchInput{Method: r.subsetOf(b), Batch: part, Options: r.opts},
				"the items "+strconv.Itoa(part.Offset)+" to "+strconv.Itoa(part.Offset+len(part.Items)-1)+" of pipe "+strconv.Quote(b.Caller),
				b.Caller, part.Offset)
			if err != nil {
				return nil, err
			}
			futures[next], windows[next] = f, part.Window
			running += part.Window
			next++
		}
		var res BatchOutput
		if err := futures[i].Get(r.ctx, &res); err != nil {
			return nil, err
		}
		running -= windows[i]
		for j, o := range res.Outputs {
			if total, err = r.outputBytes(b, total, b.Offset+units[i][0]+j, o); err != nil {
				return nil, err
			}
			out = append(out, method.ChildResult{Output: o})
		}
	}
	return out, nil
}

// subsetOf is the part of the library a batch's items need.
func (r *run) subsetOf(b *method.Batch) *method.Library {
	return r.subset(b.Pipe, b.Shared.With(method.Stuff{Name: b.ItemName, Concept: b.ItemConcept}))
}
