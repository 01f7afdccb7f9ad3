package engine

import (
	"testing"

	"github.com/jinjabox/jinjabox/engine/value"
)

// TestHostFilterReplacesDefault holds that a host filter registered under
// a default filter's name is the one a filter expression calls (the check
// binds the unwrapped default only to names the host left alone), in an
// expression, through map and in a filter block.
func TestHostFilterReplacesDefault(t *testing.T) {
	shout := func(_ value.Ctx, v value.Value, _ *value.Args) value.Value {
		return value.FromString("host:" + v.Str())
	}
	env, err := NewEnvironment(Options{Filters: map[string]FilterFunc{"upper": shout}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := env.RenderString("t", `{{ "a" | upper }} {{ ["b"] | map("upper") | join }} {% filter upper %}c{% endfilter %} {{ "d" | lower }}`, nil, RenderOptions{})
	if want := "host:a host:b host:c d"; err != nil || out.Output != want {
		t.Fatalf("got %q (%v), want %q", out.Output, err, want)
	}
	plain, _ := NewEnvironment(Options{})
	out, err = plain.RenderString("t", `{{ "a" | upper }}`, nil, RenderOptions{})
	if err != nil || out.Output != "A" {
		t.Fatalf("default upper: %q (%v)", out.Output, err)
	}
}
