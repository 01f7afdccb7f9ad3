package failure

import (
	"errors"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/jinjabox/jinjabox/method"
)

// TestFromUnavailable: a run that needs a method not installed or a
// function not registered fails with its own type, never a template's
// render error (issue 32), and Flatten keeps it as one of jinjabox's.
func TestFromUnavailable(t *testing.T) {
	for what, want := range map[string]string{"method": ErrTypeMissingMethod, "function": ErrTypeMissingFunction} {
		err := From(method.Fail("p", "function_name", &method.UnavailableError{What: what, Name: "x"}))
		var ae *temporal.ApplicationError
		if !errors.As(err, &ae) || ae.Type() != want || !ae.NonRetryable() {
			t.Fatalf("%s: %v", what, err)
		}
		if !IsJinjaboxType(ae.Type()) {
			t.Errorf("%s: %s is not among jinjabox's types", what, ae.Type())
		}
	}
}
