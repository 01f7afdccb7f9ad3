package failure

import (
	"errors"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/method"
)

func flat(t *testing.T, err error) (*temporal.ApplicationError, Details) {
	t.Helper()
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || !ae.NonRetryable() || ae.Unwrap() != nil {
		t.Fatalf("want a flat final application error, got %v", err)
	}
	var d Details
	details(ae, &d)
	return ae, d
}

// Flatten keeps the innermost typed error, its position and the path,
// and types the errors that carry no application error.
func TestFlatten(t *testing.T) {
	// a template error of the runner, then its caller's level
	inner := Flatten(method.Fail("one", "template", engine.NewError(engine.KindUndefined, "x is undefined")), "one")
	outer := Flatten(WithItem(inner, 3), "all")
	ae, d := flat(t, outer)
	if ae.Type() != ErrTypeUndefined || d.Pipe != "one" || d.Field != "template" || d.Item != 3 || strings.Join(d.Path, ">") != "all>one" {
		t.Fatalf("%s %+v", ae.Type(), d)
	}
	// a model call that failed for good, wrapped by the runner: the pipe
	// and field come from the RunError, and the message says where
	provider := temporal.NewNonRetryableApplicationError("model call failed on every attempt", ErrTypeProvider, errors.New("HTTP 503"))
	ae, d = flat(t, Flatten(method.Fail("ask", "provider", provider), "ask"))
	if ae.Type() != ErrTypeProvider || d.Pipe != "ask" || d.Field != "provider" || d.Kind != "provider" ||
		!strings.HasPrefix(ae.Message(), `pipe "ask", provider: model call failed on every attempt: HTTP 503`) {
		t.Fatalf("%s %q %+v", ae.Type(), ae.Message(), d)
	}
	// no application error inside: typed
	ae, _ = flat(t, Flatten(temporal.NewCanceledError(), "p"))
	if ae.Type() != ErrTypeCanceled {
		t.Fatalf("type %s", ae.Type())
	}
	// details of another shape pass as they are
	ae, _ = flat(t, Flatten(temporal.NewNonRetryableApplicationError("invalid method", ErrTypeInvalidMethod, nil, []string{"a", "b"}), ""))
	var problems []string
	if ae.Details(&problems) != nil || len(problems) != 2 {
		t.Fatalf("problems %v", problems)
	}
	// a limit error
	ae, d = flat(t, Flatten(Limit(LimitPayloadBytes, "big", "", -1, 2000000, 1572864, "the result is too large"), "big"))
	if ae.Type() != ErrTypeLimit || d.Limit != LimitPayloadBytes || d.Observed != 2000000 || d.Max != 1572864 || d.Pipe != "big" {
		t.Fatalf("%s %+v", ae.Type(), d)
	}
	if Flatten(nil, "p") != nil {
		t.Fatal("nil flattens to an error")
	}
}

// A model call's typed failures (rate-limited for good, truncated,
// refused) keep their type and a kind of their own through Flatten, as
// jinjabox's types.
func TestFlattenModelCallTypes(t *testing.T) {
	for typ, kind := range map[string]string{ErrTypeRateLimited: "rate_limited", ErrTypeTruncated: "truncated", ErrTypeRefused: "refused"} {
		err := temporal.NewNonRetryableApplicationError("provider: no", typ, nil)
		ae, d := flat(t, Flatten(method.Fail("ask", "provider", err), "ask"))
		if ae.Type() != typ || d.Kind != kind || d.Pipe != "ask" || !IsJinjaboxType(typ) {
			t.Errorf("%s: %s %+v", typ, ae.Type(), d)
		}
	}
}
