package workflows

import (
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/failure"
	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/method/templating"
)

// The budget of a workflow task. Temporal fails a workflow task whose
// code runs 1 s without yielding (the deadlock detector, TMPRL1101: the
// wall time of one uninterrupted stretch of the workflow's coroutine) and
// retries it forever; a render never yields. So renders are charged to a
// meter: a stretch of workflow code renders at most StretchWorkUnits,
// then breathes (a no-op local activity: the coroutine blocks, the
// detector's clock starts over, the workflow task goes on, in
// microseconds; the SDK itself renews a task that waits on local
// activities for 8 s, task.breathe). Every render gets the engine's full budget (what
// `jinjabox exec` gives), capped by what is left of the stretch's: one
// that does not fit what is left breathes and renders again; one that
// does not fit a whole stretch runs in the RenderTemplate activity, under
// the full budget. A render that succeeds gives the same output whatever
// its cap (the engine is deterministic and fail-stop), so `run` and
// `exec` give the same output for every method; every decision depends
// on units only, so replay takes the same path.
//
// The figures are measured on the reference machine (2 cores), through
// the runner's render path, by BenchmarkTaskMeter (docs/temporal.md, "The
// budget of a workflow task", has the numbers): the slowest hostile case
// costs 6.2-8.2 ns a unit; a render that does nothing about 1,600 units
// at that cost, a bound value about 74, a parsed byte about 7.
const (
	// StretchWorkUnits bounds the render units of one stretch of
	// workflow code: 80-105 ms of rendering at the slowest case's cost per
	// unit, a tenth of the deadlock detector's second (a stretch stays far
	// below it with two runnable tasks a core).
	StretchWorkUnits int64 = 12 << 20
	// RenderFixedUnits is charged for every render besides its own units:
	// the cost of a render that does nothing (environment lookup, registry,
	// result), so that many tiny renders fill a stretch too.
	RenderFixedUnits int64 = 4 << 10
	// ParseUnitsPerByte is charged per source byte when a render parses
	// its template (once per template per workflow execution).
	ParseUnitsPerByte int64 = 16
	// BindUnitsPerValue is charged per value a render binds (the engine
	// copied its context in before metering: a memory holding a long list
	// cost every render of the pipe, whatever the template read). Renders
	// now read a context prepared once per memory; the charge stays, as
	// recorded histories replay on it.
	BindUnitsPerValue int64 = 128
)

// DeadlockDetectionTimeout is the worker's DeadlockDetectionTimeout
// (cmd/worker's --deadlock-timeout default, the benchmark's and the
// tests' workers): how long one stretch of workflow code may run, in
// wall time, before the SDK fails its task (TMPRL1101). The SDK's 1 s
// holds a stretch (StretchWorkUnits, about 100 ms of CPU at the slowest
// case) on an idle core only: the detector times wall time, so a stretch
// takes longer by the host's runnable threads per core, and longer again
// by the worker's own workflow-task slots per GOMAXPROCS (the Go
// scheduler preempts a render for another slot's). At 8 runnable threads
// a core and the default 2 slots a core that is 100 ms x 8 x 2 = 1.6 s:
// the SDK default trips (integration.TestNastyComposeUnderLoad measured
// it, docs/temporal.md), 5 s holds with three times the margin, and stays
// below the 8 s after which the SDK completes a task waiting on local
// activities and goes on in a new one (task.breathe). A real deadlock is
// still reported, 4 s later.
//
// The stretch stays 12 Mi units: where a render breathes is recorded in
// every history (a local activity marker), so a smaller stretch would
// make every recorded run fail to replay (workflows/testdata/histories).
const DeadlockDetectionTimeout = 5 * time.Second

// renderer is the runner's Renderer under Temporal.
type renderer struct {
	r *run
}

// Render implements method.Renderer.
func (rd *renderer) Render(j *method.RenderJob) (templating.Rendered, error) {
	t := rd.r.task
	full := j.Limits().Resolved().WorkUnits
	for {
		t.sync()
		fresh := t.units == 0
		left := min(full, StretchWorkUnits-t.units-RenderFixedUnits)
		if left <= 0 {
			if err := t.breathe(); err != nil {
				return templating.Rendered{}, err
			}
			continue
		}
		out, err := j.Inline(left)
		spent := RenderFixedUnits + int64(j.Values)*BindUnitsPerValue + out.Units
		if j.Parsed {
			spent += int64(len(j.Source)) * ParseUnitsPerByte
		}
		if err != nil && left < full && overTask(err) {
			t.units += spent + left
			if fresh {
				// more than a whole stretch: the activity has the full budget
				return rd.activity(j)
			}
			if err := t.breathe(); err != nil {
				return templating.Rendered{}, err
			}
			continue
		}
		t.units += spent
		return out, err
	}
}

// overTask reports whether a render failed on its work units while
// rendering (the cap the task meter sets), not while parsing (the parse
// has the full budget).
func overTask(err error) bool {
	var be *budget.Error
	return errors.As(err, &be) && be.Limit == budget.LimitWorkUnits && be.Phase == budget.PhaseRender
}

// activity renders the job in the RenderTemplate activity: the same data
// (the pipe's memory, its concepts, the images registered so far) and the
// same limits as in workflow code. Its failure keeps its type, and names
// the pipe and field.
func (rd *renderer) activity(j *method.RenderJob) (templating.Rendered, error) {
	r := rd.r
	req, err := j.Request()
	if err != nil {
		return templating.Rendered{}, err
	}
	e, err := encode(activities.RenderInput{Request: req})
	if err != nil {
		return templating.Rendered{}, err
	}
	if err := r.task.issue(e, "the render of "+j.Pipe+"."+j.Field, j.Pipe, j.Field, -1); err != nil {
		return templating.Rendered{}, err
	}
	var out activities.RenderOutput
	if err := r.executeActivity(activities.NameRenderTemplate, e.raw, &out); err != nil {
		var ae *temporal.ApplicationError
		if errors.As(err, &ae) && failure.IsJinjaboxType(ae.Type()) {
			d := failure.Details{Item: -1}
			_ = ae.Details(&d)
			d.Pipe, d.Field = j.Pipe, j.Field
			return templating.Rendered{}, temporal.NewNonRetryableApplicationError(ae.Message(), ae.Type(), nil, d)
		}
		return templating.Rendered{}, err
	}
	for _, img := range out.Images {
		j.Images.Register(img)
	}
	return templating.Rendered{Text: out.Text, Units: out.Units, Images: j.Images.Images()}, nil
}
