package casecheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/internal/casecheck/fixtures"
	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/method/templating"
)

// Status is the outcome of running one case.
type Status int

// Outcomes.
const (
	Pass Status = iota
	Fail
	Skip
)

func (s Status) String() string {
	switch s {
	case Pass:
		return "pass"
	case Fail:
		return "fail"
	}
	return "skip"
}

// Harness-made error kinds, beside the engine's own.
const (
	// KindInternal is a panic that escaped the engine, a non-*engine.Error
	// error, or a harness failure (bad options, bad context).
	KindInternal = "internal"
	// KindTimeout is a case that ran past RunOptions.Timeout.
	KindTimeout = "timeout"
)

// Result is the outcome of one case.
type Result struct {
	Case   *Case
	Status Status
	// SkipReason says why a skipped case did not run.
	SkipReason string
	// Output is what the render returned (even alongside an error, so the
	// "no partial output" rule can be checked).
	Output string
	// ErrKind and ErrMsg describe the error, if any ("" when none).
	ErrKind string
	ErrMsg  string
	// Err is the engine's typed error, when it returned one.
	Err *engine.Error
	// Units is the work the engine reported (0 on error).
	Units int64
	// Duration is the wall time of RenderString.
	Duration time.Duration
	// Reason explains a failure in one line.
	Reason string
	// Env is the environment the case ran on (nil when it was not built),
	// so callers can check it still renders cleanly after a refusal.
	Env *engine.Environment
}

// Errored reports whether the render failed.
func (r *Result) Errored() bool { return r.ErrKind != "" }

// RunOptions tune a run.
type RunOptions struct {
	// Timeout bounds one case's wall time; 0 means no bound. A case past it
	// is a failure of kind "timeout": its render is cancelled through
	// RenderOptions.Context and stops within CancelCheckUnits of work, so
	// it does not run on and starve the cases after it. A render that
	// still runs cancelGrace after its cancellation (a path that works
	// without charging: an engine bug) is reported so and left behind.
	Timeout time.Duration
}

// cancelGrace is how long a cancelled render may take to stop: it polls
// its context every engine.CancelCheckUnits units (about 0.1 ms of work).
const cancelGrace = time.Second

// DefaultTimeout is far above the hostile README's 1 s "sensible" limit so
// a loaded CI machine does not flake, yet it still turns a runaway case
// into a reported failure instead of a hung run.
const DefaultTimeout = 10 * time.Second

// Options converts a case's options into engine options. Limits go into
// the RenderOptions only, so the Environment keeps its defaults and can be
// reused for a clean render after a refusal.
func Options(c *Case) (engine.Options, engine.RenderOptions, error) {
	o := engine.Options{
		Autoescape:          c.Options.Autoescape,
		TrimBlocks:          c.Options.TrimBlocks,
		LstripBlocks:        c.Options.LstripBlocks,
		KeepTrailingNewline: c.Options.KeepTrailingNewline,
		Templates:           c.Options.Templates,
	}
	lim, err := Limits(c.Options.BudgetUnits, c.Options.Limits)
	return o, engine.RenderOptions{Limits: lim}, err
}

// Limits converts the corpus `budget_units` and `limits` options into
// budget.Limits. budget_units and limits.work_units are the same budget,
// so the smaller wins. budget.Limits reads 0 as "default", so an explicit
// 0 in a case (a budget of nothing) is passed as 1, the smallest ceiling
// the type can express; any real work still overdraws it.
func Limits(budgetUnits *int64, limits map[string]*int64) (budget.Limits, error) {
	var l budget.Limits
	set := func(dst *int64, v int64) {
		if v < 1 {
			v = 1
		}
		if *dst == 0 || v < *dst {
			*dst = v
		}
	}
	if budgetUnits != nil {
		set(&l.WorkUnits, *budgetUnits)
	}
	names := make([]string, 0, len(limits))
	for k := range limits {
		names = append(names, k)
	}
	sort.Strings(names) // deterministic error for several bad names
	for _, k := range names {
		p := limits[k]
		if p == nil {
			continue
		}
		f := l.Field(k)
		if f == nil {
			return l, fmt.Errorf("unknown limit %q", k)
		}
		set(f, *p)
	}
	return l, nil
}

// Run runs one case: it builds an Environment with the case options,
// renders with RenderString under the case limits and compares the
// outcome with the expectation. A panic or timeout is a failed case, never
// a crash of the caller.
func Run(c *Case, ro RunOptions) Result {
	res := Result{Case: c}
	switch c.Type() {
	case PathCase:
		executePath(c, &res)
		judgePath(&res)
		return res
	case TypedCase:
		if Fixtures[c.Needs] == nil {
			res.Status, res.SkipReason = Skip, "needs fixture "+c.Needs
			return res
		}
	}
	if ro.Timeout <= 0 {
		execute(context.Background(), c, &res)
	} else {
		res = runWithTimeout(c, ro.Timeout)
	}
	judge(&res)
	return res
}

// runWithTimeout renders c under a context that expires after timeout and
// waits for the render to stop. The render runs in its own goroutine only
// so that one which ignores its cancellation cannot hang the run.
func runWithTimeout(c *Case, timeout time.Duration) Result {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	done := make(chan Result, 1)
	go func() {
		r := Result{Case: c}
		execute(ctx, c, &r)
		done <- r
	}()
	timedOut := func(msg string) Result {
		return Result{Case: c, ErrKind: KindTimeout, ErrMsg: msg, Duration: timeout}
	}
	select {
	case r := <-done:
		if r.Err != nil && errors.Is(r.Err, context.DeadlineExceeded) {
			return timedOut(fmt.Sprintf("cancelled after %v", timeout))
		}
		return r
	case <-ctx.Done():
	}
	grace := time.NewTimer(cancelGrace)
	defer grace.Stop()
	select {
	case <-done:
		return timedOut(fmt.Sprintf("cancelled after %v", timeout))
	case <-grace.C:
		return timedOut(fmt.Sprintf("still running %v after it was cancelled at %v (work without charges)", cancelGrace, timeout))
	}
}

// executePath walks a paths.jsonl case with the method layer's walker
// (the same policy as templates: underscore segments are refused).
func executePath(c *Case, res *Result) {
	defer func() {
		if p := recover(); p != nil {
			res.ErrKind = KindInternal
			res.ErrMsg = firstLine(fmt.Sprintf("panic: %v", p)) + " at " + panicSite(debug.Stack())
		}
	}()
	ctx, err := value.DecodeJSON(c.Context)
	if err != nil {
		res.ErrKind, res.ErrMsg = KindInternal, "bad case context: "+err.Error()
		return
	}
	start := time.Now()
	got, err := walkPath(c, ctx)
	res.Duration = time.Since(start)
	if err != nil {
		setErr(res, err)
		return
	}
	b, err := json.Marshal(got)
	if err != nil {
		res.ErrKind, res.ErrMsg = KindInternal, "path value is not JSON: "+err.Error()
		return
	}
	res.Output = string(b)
}

// walkPath applies the method-layer walker a path case's field names
// (the fields of a Pipelex method that take a data path) to ctx, plain
// JSON decoded with value.DecodeJSON.
func walkPath(c *Case, ctx any) (any, error) {
	switch c.Field {
	case "from", "image":
		return method.WalkPath(ctx, c.Path)
	case "batch_list":
		return method.WalkList(ctx, c.Path)
	case "list_to_dict_keyed_by":
		return method.ListToDictKeyedBy(ctx, c.Path, c.Key)
	}
	return nil, fmt.Errorf("unknown path field %q", c.Field)
}

// judgePath compares a path case: the error kind, or the value as JSON
// (a null expected value only requires the walk to be allowed).
func judgePath(res *Result) {
	c := res.Case
	res.Status = Fail
	switch {
	case c.Expect.Error != "" && !res.Errored():
		res.Reason = fmt.Sprintf("want %s error, got value %s", c.Expect.Error, Bound(res.Output, 120))
	case c.Expect.Error != "" && !KindsMatch(c.Expect.Error, res.ErrKind):
		res.Reason = fmt.Sprintf("want %s error, got %s error: %s", c.Expect.Error, res.ErrKind, Bound(res.ErrMsg, 200))
	case c.Expect.Error != "":
		res.Status = Pass
		res.Output = ""
	case res.Errored():
		res.Reason = fmt.Sprintf("want a value, got %s error: %s", res.ErrKind, Bound(res.ErrMsg, 200))
	case len(c.Expect.Value) == 0 || string(c.Expect.Value) == "null":
		res.Status = Pass
	default:
		var want, got any
		if json.Unmarshal(c.Expect.Value, &want) != nil || json.Unmarshal([]byte(res.Output), &got) != nil || !reflect.DeepEqual(want, got) {
			res.Reason = fmt.Sprintf("want value %s, got %s", Bound(string(c.Expect.Value), 120), Bound(res.Output, 120))
			return
		}
		res.Status = Pass
	}
}

// execute does the render under a recover guard and fills the got-fields;
// ctx cancels the render.
func execute(ctx context.Context, c *Case, res *Result) {
	defer func() {
		if p := recover(); p != nil {
			res.ErrKind = KindInternal
			res.ErrMsg = firstLine(fmt.Sprintf("panic: %v", p)) + " at " + panicSite(debug.Stack())
		}
	}()
	opts, rend, err := Options(c)
	if err != nil {
		res.ErrKind, res.ErrMsg = KindInternal, "bad case options: "+err.Error()
		return
	}
	data, err := DecodeObject(c.Context)
	if err != nil {
		res.ErrKind, res.ErrMsg = KindInternal, "bad case context: "+err.Error()
		return
	}
	if fix := Fixtures[c.Needs]; c.Needs != "" && fix != nil {
		if data, err = fix(data); err != nil {
			res.ErrKind, res.ErrMsg = KindInternal, "fixture "+c.Needs+": "+err.Error()
			return
		}
	}
	env, err := environment(c, opts)
	if err != nil {
		setErr(res, err)
		return
	}
	res.Env = env
	rend.Context = ctx
	start := time.Now()
	r, err := env.RenderString(c.ID, c.Source(), data, rend)
	res.Duration = time.Since(start)
	res.Output = r.Output
	if err != nil {
		setErr(res, err)
		return
	}
	res.Units = r.Units
}

// environment builds the case's Environment. A filter need (markdown,
// with_images) runs in the category environment that registers the host
// filter, as in Pipelex; such a case may not set environment options of
// its own, since the category fixes them.
func environment(c *Case, opts engine.Options) (*engine.Environment, error) {
	cat, ok := fixtures.FilterCategory(c.Needs)
	if !ok {
		return engine.NewEnvironment(opts)
	}
	if o := c.Options; o.Autoescape || o.TrimBlocks || o.LstripBlocks || o.KeepTrailingNewline || len(o.Templates) > 0 {
		return nil, fmt.Errorf("case options with need %s: the %s category fixes the environment", c.Needs, cat)
	}
	return templating.NewEnvironment(cat, templating.DefaultStyle)
}

// setErr records err, classifying anything that is not an engine error
// as internal: the API promises *engine.Error for every failure.
func setErr(res *Result, err error) {
	var e *engine.Error
	if errors.As(err, &e) {
		res.Err = e
		res.ErrKind = e.Kind.String()
		res.ErrMsg = e.Message
		return
	}
	res.ErrKind = KindInternal
	res.ErrMsg = fmt.Sprintf("not an *engine.Error (%T): %v", err, err)
}

// judge sets Status and Reason from the expectation.
func judge(res *Result) {
	c := res.Case
	res.Status = Fail
	switch {
	case res.Errored() && res.Output != "":
		res.Reason = fmt.Sprintf("error %s came with output %s; a refusal must yield no output",
			res.ErrKind, Bound(res.Output, 80))
	case c.Expect.Output != nil && res.Errored():
		res.Reason = fmt.Sprintf("want output %s, got %s error: %s",
			Bound(*c.Expect.Output, 120), res.ErrKind, Bound(res.ErrMsg, 200))
	case c.Expect.Output != nil && res.Output != *c.Expect.Output:
		res.Reason = fmt.Sprintf("want output %s, got output %s",
			Bound(*c.Expect.Output, 120), Bound(res.Output, 120))
	case c.Expect.Output != nil:
		res.Status = Pass
	case c.Expect.AnyOutput && res.Errored():
		res.Reason = fmt.Sprintf("want a successful render, got %s error: %s", res.ErrKind, Bound(res.ErrMsg, 200))
	case c.Expect.AnyOutput:
		res.Status = Pass
	case !res.Errored():
		res.Reason = fmt.Sprintf("want %s error, got output %s", c.Expect.Error, Bound(res.Output, 120))
	case !KindsMatch(c.Expect.Error, res.ErrKind):
		res.Reason = fmt.Sprintf("want %s error, got %s error: %s",
			c.Expect.Error, res.ErrKind, Bound(res.ErrMsg, 200))
	default:
		res.Status = Pass
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return Bound(s, 200)
}

// panicSite picks the first stack frame below the runtime's panic
// machinery and this guard, so the report points at the faulty code.
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i := 0; i+1 < len(lines); i++ {
		fn := strings.TrimSpace(lines[i])
		if fn == "" || strings.HasPrefix(fn, "goroutine ") || strings.HasPrefix(lines[i], "\t") {
			continue
		}
		if strings.HasPrefix(fn, "runtime/debug.") || strings.HasPrefix(fn, "panic(") ||
			strings.HasPrefix(fn, "runtime.") || strings.Contains(fn, "internal/casecheck.execute") {
			continue
		}
		return strings.TrimSpace(lines[i+1])
	}
	return "unknown site"
}

// Summary counts outcomes.
type Summary struct {
	Passed, Failed, Skipped int
}

// Add counts one result.
func (s *Summary) Add(r *Result) {
	switch r.Status {
	case Pass:
		s.Passed++
	case Fail:
		s.Failed++
	default:
		s.Skipped++
	}
}

// String is the summary line `jinjabox check` ends with: "N passed, M
// failed", plus ", K skipped" only when something was skipped.
func (s Summary) String() string {
	line := fmt.Sprintf("%d passed, %d failed", s.Passed, s.Failed)
	if s.Skipped > 0 {
		line += fmt.Sprintf(", %d skipped", s.Skipped)
	}
	return line
}
