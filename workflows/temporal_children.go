package workflows

import (
	"strconv"

	"go.temporal.io/sdk/workflow"

	"github.com/jinjabox/jinjabox/engine/errs"
	"github.com/jinjabox/jinjabox/method/templating"
)

// WorkflowFor is the workflow type that runs a pipe kind.
func WorkflowFor(kind string) (string, bool) {
	switch kind {
	case KindLLM, KindJudge, KindImgGen, KindSearch, KindExtract, KindFunc, KindParallel:
		return WorkflowPipeLLM, true
	case KindCompose:
		return WorkflowPipeCompose, true
	case KindCondition:
		return WorkflowPipeCondition, true
	case KindBatch:
		return WorkflowPipeBatch, true
	case KindSequence:
		return WorkflowPipeSequence, true
	}
	return "", false
}

// startChild starts pipe code as a child workflow over mem. The child's
// ID extends the parent's (from workflow info, so replays give the same
// IDs) with a suffix unique within the parent.
func startChild(ctx workflow.Context, in PipeInput, code string, mem *Memory, suffix string) (workflow.ChildWorkflowFuture, error) {
	p, ok := in.Method.Pipes[code]
	if !ok || p == nil {
		return nil, ToApplicationError(fail(code, "", errs.New(errs.Render, "pipe is not defined")))
	}
	wf, ok := WorkflowFor(p.Type)
	if !ok {
		return nil, ToApplicationError(fail(code, "type", errs.New(errs.Render, "unknown pipe type "+strconv.Quote(p.Type))))
	}
	wm, err := ToWireMemory(mem)
	if err != nil {
		return nil, ToApplicationError(fail(code, "", errs.Wrap(errs.Render, err)))
	}
	// The child's input carries the memory: refuse one the server would
	// reject, with a budget error naming the pipe.
	size := 0
	for _, s := range wm {
		size += len(s.Content)
	}
	if size > MaxPayloadBytes {
		return nil, ToApplicationError(fail(code, "", errs.New(errs.Budget,
			"working memory of "+strconv.Itoa(size)+" bytes exceeds the "+strconv.Itoa(MaxPayloadBytes)+"-byte payload limit")))
	}
	id := workflow.GetInfo(ctx).WorkflowExecution.ID + "/" + suffix
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: id})
	child := PipeInput{Method: in.Method, Pipe: code, Memory: wm, Depth: in.Depth + 1, Options: in.Options}
	return workflow.ExecuteChildWorkflow(cctx, wf, child), nil
}

// childOutput waits for a child and decodes its output stuff.
func childOutput(ctx workflow.Context, f workflow.ChildWorkflowFuture) (*Stuff, *Memory, error) {
	var res PipeOutput
	if err := f.Get(ctx, &res); err != nil {
		return nil, nil, err
	}
	mem, err := res.Memory.Memory()
	if err != nil {
		return nil, nil, ToApplicationError(errs.Wrap(errs.Render, err))
	}
	if res.Output == nil {
		return nil, mem, nil
	}
	s, err := res.Output.Stuff()
	if err != nil {
		return nil, nil, ToApplicationError(errs.Wrap(errs.Render, err))
	}
	return &s, mem, nil
}

// begin is the prologue every pipe workflow shares: the pipe of the
// expected kind, the run state and memory, and the "!" input check.
func (w *Workflows) begin(ctx workflow.Context, in PipeInput, kind string) (*Pipe, *run, *Memory, error) {
	p, err := pipeOf(in, kind)
	if err != nil {
		return nil, nil, nil, err
	}
	s, mem, err := w.state(ctx, in)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := checkRequiredInputs(in.Pipe, p, mem); err != nil {
		return nil, nil, nil, ToApplicationError(err)
	}
	return p, s, mem, nil
}

// PipeConditionWorkflow renders the condition's expression in workflow
// code and runs the chosen pipe as a child workflow (continue: absent
// output; fail: a TemplateRenderError).
func (w *Workflows) PipeConditionWorkflow(ctx workflow.Context, in PipeInput) (PipeOutput, error) {
	p, s, mem, err := w.begin(ctx, in, KindCondition)
	if err != nil {
		return PipeOutput{}, err
	}
	code := in.Pipe
	// The same outcome logic as the pure runner's condition, with the
	// chosen pipe as a child instead of a call.
	field, src := "expression", "{{ "+p.Expression+" }}"
	if p.Expression == "" {
		field, src = "expression_template", p.ExpressionTemplate
	}
	got, err := s.render(code, field, templating.Expression, s.r.Method.style(p, nil), src, false, mem, nil, nil)
	if err != nil {
		return PipeOutput{}, ToApplicationError(err)
	}
	if got == "" || got == "None" {
		return PipeOutput{}, ToApplicationError(fail(code, field, errs.New(errs.Render, "the expression rendered "+strconv.Quote(got)+", which selects no outcome")))
	}
	if a := p.AddAliasFromExpressionTo; a != "" {
		mem = mem.With(Stuff{Name: a, Concept: ConceptText, Content: textContent(got)})
	}
	target, ok := p.Outcomes[got]
	if !ok {
		target = p.DefaultOutcome
	}
	switch target {
	case OutcomeContinue:
		return finish(code, nil, mem)
	case OutcomeFail:
		return PipeOutput{}, ToApplicationError(fail(code, "outcomes", errs.New(errs.Render, "outcome fail selected by "+strconv.Quote(got))))
	}
	f, err := startChild(ctx, in, target, mem, target)
	if err != nil {
		return PipeOutput{}, err
	}
	out, _, err := childOutput(ctx, f)
	if err != nil {
		return PipeOutput{}, err
	}
	if out != nil {
		out.Name = code
	}
	return finish(code, out, mem)
}

// PipeBatchWorkflow runs the branch pipe as one child workflow per item,
// at most max_concurrency at once.
func (w *Workflows) PipeBatchWorkflow(ctx workflow.Context, in PipeInput) (PipeOutput, error) {
	p, s, mem, err := w.begin(ctx, in, KindBatch)
	if err != nil {
		return PipeOutput{}, err
	}
	out, err := w.batch(ctx, s, in, "input_list_name", p, mem, p.InputListName, p.InputItemName, p.BranchPipeCode, p.MaxConcurrency, "")
	if err != nil {
		return PipeOutput{}, err
	}
	return finish(in.Pipe, out, mem)
}

// batch runs branch over the list at listPath as children. It keeps a
// window of at most maxConcurrency children running and waits for them
// in index order, starting the next item as each finishes: results stay
// in item order, and the failure returned is the first by index (a later
// item that failed earlier in time is only seen if every item before it
// succeeded). Leftover children are cancelled with the parent.
func (w *Workflows) batch(ctx workflow.Context, s *run, in PipeInput, listField string, p *Pipe, mem *Memory, listPath, itemName, branch string, maxConcurrency int, prefix string) (*Stuff, error) {
	code := in.Pipe
	items, err := WalkList(mem.PathRoot(), listPath)
	if err != nil {
		return nil, ToApplicationError(fail(code, listField, err))
	}
	if maxConcurrency <= 0 {
		maxConcurrency = DefaultMaxConcurrency
	}
	itemConcept := s.itemConcept(p, mem, listPath)
	start := func(i int) (workflow.ChildWorkflowFuture, error) {
		m := mem.With(Stuff{Name: itemName, Concept: itemConcept, Content: items[i]})
		return startChild(ctx, in, branch, m, prefix+strconv.Itoa(i))
	}
	futures := make([]workflow.ChildWorkflowFuture, len(items))
	for i := 0; i < len(items) && i < maxConcurrency; i++ {
		if futures[i], err = start(i); err != nil {
			return nil, err
		}
	}
	var outs []any
	outConcept := ""
	for i := range items {
		out, _, err := childOutput(ctx, futures[i])
		if err != nil {
			return nil, withItem(err, i)
		}
		if next := i + maxConcurrency; next < len(items) {
			if futures[next], err = start(next); err != nil {
				return nil, err
			}
		}
		if out == nil {
			continue
		}
		outConcept = ParseConceptSpec(out.Concept).Name
		outs = append(outs, out.Content)
	}
	return s.batchOutput(code, branch, outConcept, outs), nil
}

// PipeSequenceWorkflow runs the steps in order, each as a child workflow
// (a batch_over step as one child per item), storing each step's output
// under its result name.
func (w *Workflows) PipeSequenceWorkflow(ctx workflow.Context, in PipeInput) (PipeOutput, error) {
	p, s, mem, err := w.begin(ctx, in, KindSequence)
	if err != nil {
		return PipeOutput{}, err
	}
	code := in.Pipe
	var last *Stuff
	for i, st := range p.Steps {
		var out *Stuff
		step := "s" + strconv.Itoa(i)
		if st.BatchOver != "" {
			out, err = w.batch(ctx, s, in, "steps["+strconv.Itoa(i)+"].batch_over", p, mem, st.BatchOver, st.BatchAs, st.Pipe, p.MaxConcurrency, step+"-")
		} else {
			var f workflow.ChildWorkflowFuture
			var after *Memory
			if f, err = startChild(ctx, in, st.Pipe, mem, step+"-"+st.Pipe); err == nil {
				out, after, err = childOutput(ctx, f)
			}
			if sp := in.Method.Pipes[st.Pipe]; err == nil && sp != nil && sp.Type == KindParallel && sp.AddEachOutput {
				mem = after // as the runner: a parallel step adds each branch's output
			}
		}
		if err != nil {
			return PipeOutput{}, err
		}
		if out == nil {
			last = nil
			continue
		}
		mem, last = storeStep(mem, st, out)
	}
	return finish(code, renameResult(last, code), mem)
}

// RunMethodWorkflow validates the bundle (a ValidateMethod activity: it
// parses every template, more work than a workflow task should do), then
// runs the main pipe over the inputs as a child workflow. An invalid
// bundle fails with an InvalidMethod application error listing every
// problem.
func (w *Workflows) RunMethodWorkflow(ctx workflow.Context, in RunMethodInput) (PipeOutput, error) {
	actx := activityContext(ctx, in.Options)
	if err := workflow.ExecuteActivity(actx, ActivityValidateMethod, in.Method).Get(ctx, nil); err != nil {
		return PipeOutput{}, err
	}
	m, err := LoadMethod(in.Method)
	if err != nil {
		return PipeOutput{}, ToApplicationError(errs.Wrap(errs.Render, err))
	}
	mem, err := LoadInputs(in.Inputs)
	if err != nil {
		return PipeOutput{}, ToApplicationError(errs.Wrap(errs.Render, err))
	}
	root := PipeInput{Method: m, Pipe: m.MainPipe, Options: in.Options, Depth: -1}
	f, err := startChild(ctx, root, m.MainPipe, mem, m.MainPipe)
	if err != nil {
		return PipeOutput{}, err
	}
	out, outMem, err := childOutput(ctx, f)
	if err != nil {
		return PipeOutput{}, err
	}
	return finish(m.MainPipe, out, outMem)
}
