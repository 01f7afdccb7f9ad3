package engine_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/value"
)

// failing is a host object whose attribute "bad" fails through
// engine.Fail, the way a method without an error result fails.
type failing struct{ err error }

func (f *failing) TypeName() string { return "failing" }
func (f *failing) Attr(c value.Ctx, name string) (value.Value, bool) {
	if name == "bad" {
		engine.Fail(f.err)
	}
	return value.Value{}, false
}

// TestEveryExitReturnsPublicError: every exported function and method
// that returns an error returns the engine's public *engine.Error (never
// the internal type the evaluator raises), with the text it had when the
// two were one type.
func TestEveryExitReturnsPublicError(t *testing.T) {
	hostErr := engine.NewError(engine.KindType, "the host refuses")
	env, err := engine.NewEnvironment(engine.Options{
		Templates: map[string]string{"broken": "{% if %}"},
		Filters: map[string]engine.Filter{
			"refuse": func(value.Ctx, value.Value, *value.Args) (value.Value, error) { return value.Value{}, hostErr },
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	good, err := env.Parse("good", "{{ 1 / x }}")
	if err != nil {
		t.Fatal(err)
	}
	lone, err := env.Parse("lone", "{{ x.y.z }}")
	if err != nil {
		t.Fatal(err)
	}
	zero := map[string]any{"x": 0}
	pd, err := env.Prepare(zero)
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	var buf bytes.Buffer
	cases := []struct {
		name string
		kind engine.ErrorKind
		text string
		run  func() error
	}{
		{"NewEnvironment", engine.KindRender, `render error: filter "f" is nil`, func() error {
			_, err := engine.NewEnvironment(engine.Options{Filters: map[string]engine.Filter{"f": nil}})
			return err
		}},
		{"NewEnvironment globals", engine.KindType, "", func() error {
			_, err := engine.NewEnvironment(engine.Options{Globals: map[string]any{"f": func() {}}})
			return err
		}},
		{"Parse", engine.KindSyntax, "", func() error { _, err := env.Parse("p", "{{ 1 +"); return err }},
		{"Check", engine.KindSyntax, "", func() error { _, err := env.Check("p", "{{ 1 +", nil); return err }},
		{"Check static", engine.KindSyntax, "", func() error { _, err := env.Check("p", "{{ 1 | nosuchfilter }}", nil); return err }},
		{"Template missing", engine.KindRender, `render error: template not found: "nope"`, func() error { _, err := env.Template("nope"); return err }},
		{"Template broken", engine.KindSyntax, "", func() error { _, err := env.Template("broken"); return err }},
		{"RenderString parse", engine.KindSyntax, "", func() error {
			_, err := env.RenderString("s", "{{", nil, engine.RenderOptions{})
			return err
		}},
		{"RenderString render", engine.KindRender, "render error in s:1:4: division by zero", func() error {
			_, err := env.RenderString("s", "{{ 1 / x }}", zero, engine.RenderOptions{})
			return err
		}},
		{"RenderString cancelled", engine.KindRender, "", func() error {
			_, err := env.RenderString("s", "x", nil, engine.RenderOptions{Context: cancelled})
			return err
		}},
		{"Render", engine.KindRender, "", func() error { _, err := good.Render(zero); return err }},
		{"RenderResult", engine.KindRender, "", func() error { _, err := good.RenderResult(zero, engine.RenderOptions{}); return err }},
		{"RenderResult budget", engine.KindBudget, "", func() error {
			_, err := good.RenderResult(zero, engine.RenderOptions{Limits: budget.Limits{WorkUnits: 1}})
			return err
		}},
		{"Execute", engine.KindRender, "", func() error { _, err := good.Execute(&buf, zero, engine.RenderOptions{}); return err }},
		{"Execute data", engine.KindType, "", func() error { _, err := good.Execute(&buf, 42, engine.RenderOptions{}); return err }},
		{"RenderPrepared", engine.KindRender, "", func() error { _, err := good.RenderPrepared(pd, engine.RenderOptions{}); return err }},
		{"RenderTo", engine.KindRender, "", func() error { _, err := good.RenderTo(&buf, pd, engine.RenderOptions{}); return err }},
		{"RenderValue expr", engine.KindUndefined, "", func() error { _, err := lone.RenderValue(nil, engine.RenderOptions{}); return err }},
		{"RenderValue text", engine.KindRender, "", func() error { _, err := good.RenderValue(zero, engine.RenderOptions{}); return err }},
		{"Prepare", engine.KindType, "", func() error { _, err := env.Prepare(map[string]any{"f": func() {}}); return err }},
		{"CheckPath", engine.KindSecurity, "", func() error { return engine.CheckPath([]string{"_x"}) }},
		{"WithPath", engine.KindType, "", func() error { _, err := pd.WithPath([]string{"x", "y"}, 1); return err }},
		{"ToValue", engine.KindType, "", func() error { _, err := engine.ToValue(make(chan int)); return err }},
		{"Catch", engine.KindBudget, "", func() error {
			m := budget.NewMeter(budget.Limits{WorkUnits: 1})
			return engine.Catch(func() {
				if err := m.Charge(10, "op"); err != nil {
					panic(err)
				}
			})
		}},
		{"host object Fail", engine.KindRender, "", func() error {
			_, err := env.RenderString("s", "{{ o.bad }}", map[string]any{"o": value.FromObject(&failing{err: errors.New("plain")})}, engine.RenderOptions{})
			return err
		}},
	}
	for _, c := range cases {
		err := c.run()
		if got := fmt.Sprintf("%T", err); got != "*engine.Error" {
			t.Errorf("%s: returned a %s (%v), want *engine.Error", c.name, got, err)
			continue
		}
		var e *engine.Error
		if !errors.As(err, &e) || e.Kind != c.kind {
			t.Errorf("%s: %v, want kind %s", c.name, err, c.kind)
		}
		if c.text != "" && err.Error() != c.text {
			t.Errorf("%s: text %q, want %q", c.name, err.Error(), c.text)
		}
	}
}

// TestHostErrorComesBack: a host's own *engine.Error, returned by a
// filter or passed to engine.Fail, is the error the render returns
// (errors.Is finds it), positioned where the render raised it.
func TestHostErrorComesBack(t *testing.T) {
	hostErr := engine.NewError(engine.KindType, "the host refuses")
	env, err := engine.NewEnvironment(engine.Options{
		Filters: map[string]engine.Filter{
			"refuse": func(value.Ctx, value.Value, *value.Args) (value.Value, error) { return value.Value{}, hostErr },
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = env.RenderString("t", "\n  {{ 1 | refuse }}", nil, engine.RenderOptions{})
	if err != hostErr || !errors.Is(err, hostErr) {
		t.Fatalf("got %#v, want the host's error", err)
	}
	if hostErr.Name != "t" || hostErr.Line != 2 || hostErr.Error() != "type error in t:2:10: the host refuses" {
		t.Fatalf("host error not positioned: %v", hostErr)
	}

	objErr := engine.NewError(engine.KindSecurity, "no")
	_, err = env.RenderString("t", "{{ o.bad }}", map[string]any{"o": value.FromObject(&failing{err: objErr})}, engine.RenderOptions{})
	if err != objErr || objErr.Kind != engine.KindSecurity || objErr.Line != 1 {
		t.Fatalf("Fail: got %#v", err)
	}
	wrapped := errors.New("inner")
	_, err = env.RenderString("t", "{{ o.bad }}", map[string]any{"o": value.FromObject(&failing{err: engine.WrapError(engine.KindUndefined, wrapped)})}, engine.RenderOptions{})
	var e *engine.Error
	if !errors.As(err, &e) || e.Kind != engine.KindUndefined || !errors.Is(err, wrapped) || e.Message != "inner" {
		t.Fatalf("WrapError through Fail: %#v", err)
	}
}
