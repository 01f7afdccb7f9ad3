package workflows

import (
	"context"
	"strconv"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/workflow"

	"github.com/jinjabox/jinjabox/failure"
)

// task is the state one workflow execution keeps about its current
// workflow task: the payload bytes of the commands issued in it, and the
// render units spent in its current stretch (render.go). A workflow task
// is identified by the event ID of its WorkflowTaskStarted
// (GetCurrentHistoryLength), which changes exactly at task boundaries
// and is the same on replay, so every decision below replays
// identically.
//
// The counters are the workflow's: a batch page's items running in
// coroutines of their own (children.go) share them, each through a task
// of its own coroutine's context (in), which is the one a coroutine must
// block on. The SDK runs one coroutine at a time, in an order that
// replays, so the shared counters replay too.
type task struct {
	ctx workflow.Context
	*counters
}

// counters are a workflow's counters of its current workflow task.
type counters struct {
	bounds Bounds
	// storeAbove is RunOptions.StoreAbove: payloads of that size or more
	// travel as claims (0: none do).
	storeAbove int64
	// key is the task the counters belong to.
	key   int
	bytes int64
	units int64
	// cmds counts the task's commands.
	cmds int
}

func newTask(ctx workflow.Context, b Bounds, storeAbove int64) *task {
	return &task{ctx: ctx, counters: &counters{bounds: b, storeAbove: storeAbove, key: workflow.GetInfo(ctx).GetCurrentHistoryLength()}}
}

// stored reports whether a payload of n bytes travels as a claim: the
// SDK stores a payload whose protobuf size is at least its threshold
// (extstore's visitor: proto.Size(p) < threshold stays inline).
func (c *counters) stored(n int64) bool { return c.storeAbove > 0 && n >= c.storeAbove }

// payloadLimit is the most a payload of n bytes may be: MaxPayloadBytes
// inline, MaxStoredPayloadBytes when it travels as a claim.
func (c *counters) payloadLimit(n int64) int64 {
	if c.stored(n) {
		return MaxStoredPayloadBytes
	}
	return MaxPayloadBytes
}

// in is the task seen from the coroutine of ctx: the same counters.
func (t *task) in(ctx workflow.Context) *task { return &task{ctx: ctx, counters: t.counters} }

// sync resets the counters when a new workflow task has started.
func (t *task) sync() {
	if k := workflow.GetInfo(t.ctx).GetCurrentHistoryLength(); k != t.key {
		t.key, t.bytes, t.units, t.cmds = k, 0, 0, 0
	}
}

// breathe ends the current stretch of workflow code: a no-op local
// activity, which blocks the workflow's coroutine (the deadlock
// detector's clock starts over when it resumes: it times one
// uninterrupted stretch, internal_workflow.go's coroutineState.call) and
// comes back in microseconds, in the same workflow task. The SDK bounds a
// workflow task that waits on local activities itself: past 80 % of the
// workflow task timeout (8 s of the default 10) it completes the task and
// goes on in a new one (internal_task_handlers.go, the local activity
// heartbeat), so a task of many stretches is never timed out either.
func (t *task) breathe() error {
	lctx := workflow.WithLocalActivityOptions(t.ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second})
	if err := workflow.ExecuteLocalActivity(lctx, breath).Get(t.ctx, nil); err != nil {
		return err
	}
	t.units = 0
	return nil
}

// breath is the local activity breathe runs: nothing.
func breath(context.Context) error { return nil }

// endTask ends the current workflow task: a 1 ms timer, whose firing
// starts a new one (the server fires it about a second later: this is
// for a task's payload budget, rarely reached). The counters start over
// (also where the history length does not move, in the SDK's test
// environment).
func (t *task) endTask() error {
	if err := workflow.Sleep(t.ctx, time.Millisecond); err != nil {
		return err
	}
	t.key, t.bytes, t.units, t.cmds = workflow.GetInfo(t.ctx).GetCurrentHistoryLength(), 0, 0, 0
	return nil
}

// command accounts for a command carrying n payload bytes, ending the
// task first when they would take its commands past TaskPayloadBytes.
func (t *task) command(n int64) error {
	t.sync()
	if t.bytes > 0 && t.bytes+n > TaskPayloadBytes {
		if err := t.endTask(); err != nil {
			return err
		}
	}
	t.bytes += n
	t.cmds++
	return nil
}

// history refuses a command of n payload bytes that would take the
// workflow's history past MaxHistoryBytes or MaxHistoryEvents (or the
// run's lower Bounds), with a
// TemporalLimitError naming the pipe (and field and item).
func (t *task) history(n int64, pipe, field string, item int) error {
	t.sync()
	info := workflow.GetInfo(t.ctx)
	if size := int64(info.GetCurrentHistorySize()) + t.bytes + n; size > t.bounds.HistoryBytes {
		return failure.Limit(failure.LimitHistoryBytes, pipe, field, item, size, t.bounds.HistoryBytes,
			"the history of workflow "+strconv.Quote(info.WorkflowExecution.ID)+" would grow past its bound")
	}
	if events := info.GetCurrentHistoryLength() + (t.cmds+1)*eventsPerCommand; events > t.bounds.HistoryEvents {
		return failure.Limit(failure.LimitHistoryEvents, pipe, field, item, int64(events), int64(t.bounds.HistoryEvents),
			"the history of workflow "+strconv.Quote(info.WorkflowExecution.ID)+" would grow past its bound")
	}
	return nil
}

// encoded is a payload encoded once by the default data converter (what
// the SDK sends, byte for byte, when handed the RawValue) and its size as
// the server measures it: the protobuf size of the command's Payloads.
type encoded struct {
	raw  converter.RawValue
	size int64
	// payload is the Payload's own protobuf size, what external
	// storage's threshold is compared with.
	payload int64
}

func encode(v any) (encoded, error) {
	p, err := converter.GetDefaultDataConverter().ToPayload(v)
	if err != nil {
		return encoded{}, err
	}
	n := payloadSize(p)
	return encoded{raw: converter.NewRawValue(p), size: int64(1 + varintLen(n) + n), payload: int64(n)}, nil
}

// payloadSize is the protobuf wire size of p (the size of Payloads{p}
// is one field more: encode), computed from the wire format (field tags
// are one byte here) in a fixed order: proto.Size would walk the
// metadata map, which workflow code must not.
func payloadSize(p *commonpb.Payload) int {
	field := func(n int) int { return 1 + varintLen(n) + n }
	keys := make([]string, 0, len(p.GetMetadata()))
	//workflowcheck:ignore the sizes are summed: the order cannot matter
	for k := range p.GetMetadata() {
		keys = append(keys, k)
	}
	n := 0
	for _, k := range keys {
		n += field(field(len(k)) + field(len(p.Metadata[k])))
	}
	if len(p.GetData()) > 0 {
		n += field(len(p.GetData()))
	}
	return n
}

func varintLen(n int) int {
	l := 1
	for n >= 0x80 {
		n >>= 7
		l++
	}
	return l
}

// issue checks and accounts for a command carrying payload e: over
// MaxPayloadBytes it is a TemporalLimitError naming what (the input of a
// pipe, ...) and the pipe, field and item; then the history bound; then
// the task's payload budget.
func (t *task) issue(e encoded, what, pipe, field string, item int) error {
	if limit := t.payloadLimit(e.payload); e.size > limit {
		return failure.Limit(failure.LimitPayloadBytes, pipe, field, item, e.size, limit,
			what+" is too large for a Temporal payload")
	}
	wire := e.size
	if t.stored(e.payload) {
		wire = ClaimBytes
	}
	if err := t.history(wire, pipe, field, item); err != nil {
		return err
	}
	return t.command(wire)
}
