package engine

import (
	"testing"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/value"
)

// TestHostFilterReplacesDefault holds that a host filter registered under
// a default filter's name is the one a filter expression calls (the check
// binds the unwrapped default only to names the host left alone), in an
// expression, through map and in a filter block.
func TestHostFilterReplacesDefault(t *testing.T) {
	shout := func(_ value.Ctx, v value.Value, _ *value.Args) (value.Value, error) {
		return value.FromString("host:" + v.Str()), nil
	}
	env, err := NewEnvironment(Options{Filters: map[string]Filter{"upper": shout}})
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

// TestUnwrappedFilterUnitsAsWrapped holds that a default filter bound
// without its wrapper (builtins.UnwrappedFilter) spends the units of the
// wrapped filter: the same default, registered by the host under its own
// name, is bound wrapped (the host replaced it) and must cost the same,
// and so must a budget that ends at the wrapper's step.
func TestUnwrappedFilterUnitsAsWrapped(t *testing.T) {
	plain, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"upper", "truncate", "join", "length", "trim"}
	host := map[string]Filter{}
	for _, n := range names {
		if _, ok := plain.unwrapped[n]; !ok {
			t.Fatalf("%s: not bound unwrapped by default", n)
		}
		f := plain.filters[n]
		host[n] = func(c value.Ctx, v value.Value, a *value.Args) (value.Value, error) { return f(c, v, a), nil }
	}
	wrapped, err := NewEnvironment(Options{Filters: host})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if _, ok := wrapped.unwrapped[n]; ok {
			t.Fatalf("%s: bound unwrapped although the host registered it", n)
		}
	}
	src := `{{ s | upper }}|{{ s | truncate(5, True, "") }}|{{ l | join("-") }}|{{ l | length }}|{{ " x " | trim }}`
	data := map[string]any{"s": "hello world", "l": []any{"a", "b", "c"}}
	a, err := plain.RenderString("t", src, data, RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := wrapped.RenderString("t", src, data, RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Output != b.Output || a.Units != b.Units {
		t.Fatalf("unwrapped %q in %d units, wrapped %q in %d", a.Output, a.Units, b.Output, b.Units)
	}
	// every budget short of the render's units is refused alike
	for _, short := range []int64{a.Units - 1, a.Units - budget.Step} {
		_, ea := plain.RenderString("t", src, data, RenderOptions{Limits: budget.Limits{WorkUnits: short}})
		_, eb := wrapped.RenderString("t", src, data, RenderOptions{Limits: budget.Limits{WorkUnits: short}})
		if ea == nil || eb == nil || ea.Error() != eb.Error() {
			t.Fatalf("budget %d: unwrapped %v, wrapped %v", short, ea, eb)
		}
	}
}
