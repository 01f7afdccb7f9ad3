package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/engine/value"
)

var errQuota = errors.New("quota of the lookup service exhausted")

// TestHostFilterErrors holds the contract of Options.Filters and
// Options.Tests: a filter or test reports failure by returning an error,
// never by panicking. An *Error keeps its kind; any other error fails the
// render as a render error that wraps it (errors.Is finds the host's
// error); a failing render yields no output.
func TestHostFilterErrors(t *testing.T) {
	env, err := NewEnvironment(Options{
		Filters: map[string]Filter{
			"lookup": func(_ value.Ctx, v value.Value, _ *value.Args) (value.Value, error) {
				if v.Str() == "x" {
					return value.Value{}, errQuota
				}
				return value.FromString("found " + v.Str()), nil
			},
			"typed": func(_ value.Ctx, v value.Value, _ *value.Args) (value.Value, error) {
				return value.Value{}, &Error{Kind: KindType, Offset: -1, Message: "typed wants a list"}
			},
		},
		Tests: map[string]Test{
			"known": func(_ value.Ctx, v value.Value, _ *value.Args) (bool, error) {
				if v.Str() == "x" {
					return false, errQuota
				}
				return v.Str() == "a", nil
			},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := env.RenderString("ok", `{{ "a" | lookup }} {{ "a" is known }} {{ "b" is known }}`, nil, RenderOptions{})
	if err != nil || res.Output != "found a True False" {
		t.Fatalf("got %q, %v", res.Output, err)
	}
	for _, src := range []string{`before {{ "x" | lookup }}`, `before {% if "x" is known %}y{% endif %}`, `{{ ["a", "x"] | map("lookup") | join }}`} {
		res, err := env.RenderString("t", src, nil, RenderOptions{})
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindRender || !errors.Is(err, errQuota) || res.Output != "" {
			t.Fatalf("%s: got %q, %#v; want a render error wrapping the host's", src, res.Output, err)
		}
		if !strings.Contains(e.Message, "quota") || e.Line != 1 {
			t.Fatalf("%s: message %q line %d", src, e.Message, e.Line)
		}
	}
	_, err = env.RenderString("t", `{{ 1 | typed }}`, nil, RenderOptions{})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindType || e.Message != "typed wants a list" {
		t.Fatalf("typed: %#v", err)
	}
}
