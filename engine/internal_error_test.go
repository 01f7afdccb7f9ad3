package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/value"
)

// buggyFilter stands for a bug below a render (in the engine or in a host
// filter): it indexes past the end of a slice.
func buggyFilter(c value.Ctx, v value.Value, args *value.Args) (value.Value, error) {
	var xs []int64
	return value.FromInt(xs[v.Int()]), nil
}

// A panic the engine did not raise is an internal error: one bounded
// line in the message, and the goroutine stack where it was recovered on
// the error (Error.Stack) for the host to log, never in Error() or the
// message, which a template's author may see. Errors a template causes
// carry no stack.
func TestInternalPanicKeepsStack(t *testing.T) {
	env, err := NewEnvironment(Options{Filters: map[string]Filter{"buggy": buggyFilter}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := env.RenderString("t", "a\n{{ 3 | buggy }}", nil, RenderOptions{})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindInternal {
		t.Fatalf("got %v (%T), want an internal *engine.Error", err, err)
	}
	if res.Output != "" {
		t.Errorf("internal error came with output %q", res.Output)
	}
	if !strings.Contains(e.Message, "index out of range") || strings.ContainsAny(e.Message, "\n\r") {
		t.Errorf("message %q: want the panic value on one line", e.Message)
	}
	if e.Line != 2 || e.Name != "t" {
		t.Errorf("position %s:%d, want t:2", e.Name, e.Line)
	}
	stack := string(e.Stack())
	if !strings.Contains(stack, "engine.buggyFilter") || !strings.Contains(stack, "goroutine ") {
		t.Errorf("stack does not show the panicking function:\n%s", stack)
	}
	if strings.Contains(e.Error(), "goroutine") || strings.Contains(e.Error(), "buggyFilter") {
		t.Errorf("Error() leaks the stack: %s", e.Error())
	}

	for _, src := range []string{"{{ 1 / 0 }}", "{% if %}", "{{ x.__class__ }}", "{{ 'a' * 100000 }}"} {
		_, err := env.RenderString("t", src, map[string]any{"x": 1}, RenderOptions{Limits: budget.Limits{WorkUnits: 10_000}})
		if !errors.As(err, &e) {
			t.Fatalf("%s: %v is not an *engine.Error", src, err)
		}
		if e.Kind == KindInternal || e.Stack() != nil {
			t.Errorf("%s: %s error with stack %v; only internal errors carry one", src, e.Kind, e.Stack() != nil)
		}
	}
}
