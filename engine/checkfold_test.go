package engine

import (
	"errors"
	"testing"

	"github.com/jinjabox/jinjabox/budget"
)

// The static check evaluates a constant left operand of an and/or whose
// right operand failed it (Jinja2 folds it and never compiles the right
// one). That evaluation is a template's code run at parse time: it is
// charged to the parse's meter, and an operand past the budget does not
// fold, so the check's own error stands.
func TestCheckFoldIsBudgeted(t *testing.T) {
	env, err := NewEnvironment(Options{Limits: budget.Limits{WorkUnits: 1 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	// folds: 'A' decides the or, the unknown filter is never compiled
	tmpl, err := env.Parse("t", "{{ ('a'|upper) or x|nofilter }}")
	if err != nil {
		t.Fatalf("folded operand: %v", err)
	}
	if res, err := tmpl.Render(nil); err != nil || res != "A" {
		t.Fatalf("folded operand renders %q, %v", res, err)
	}
	// 'a' * 4M is past the 1 Mi units: refused on the parse's meter, so
	// not folded, and the unknown filter is the error
	_, err = env.Parse("t", "{{ ('a' * 4000000)|upper or x|nofilter }}")
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindSyntax {
		t.Fatalf("over-budget fold: got %v, want the check's syntax error", err)
	}
}
