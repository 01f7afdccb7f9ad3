package engine

import (
	"errors"
	"strings"
	"testing"
)

// TestModulePrintsBody: an imported module prints as the output of its
// top level (Jinja's TemplateModule.__str__), as markup under autoescape.
func TestModulePrintsBody(t *testing.T) {
	tpls := map[string]string{"inc": "{{ x }}|<b>{% macro m() %}M{% endmacro %}"}
	data := map[string]any{"x": "<X>"}
	runSandboxCases(t, Options{Templates: tpls}, []sandboxCase{
		{"with-context", "{% import 'inc' as i with context %}{{ i }}|{{ i|string }}|{{ i is string }}|{{ i.m() }}", data, 0, "<X>|<b>|<X>|<b>|False|M"},
		{"without-context", "{% import 'inc' as i %}[{{ i }}]", data, 0, "[|<b>]"},
	})
	runSandboxCases(t, Options{Templates: tpls, Autoescape: true}, []sandboxCase{
		{"autoescape-markup", "{% import 'inc' as i with context %}{{ i }}", data, 0, "&lt;X&gt;|<b>"},
	})
}

// TestUnboundParamMessage: a parameter no argument filled is undefined with
// Jinja2's hint, parameter 'b' was not provided, quoted as every message
// quotes a name (errs.Quote; its message is made from
// the name when an error needs it, not at every call), in strict mode, as a
// default that reads it and when printed or tested in default mode.
func TestUnboundParamMessage(t *testing.T) {
	for _, c := range []struct{ tpl, want string }{
		{"{% macro m(a, b) %}{{ b }}{% endmacro %}{{ m(1) }}", `parameter "b" was not provided`},
		{"{% macro m(a, b=a) %}{{ b }}{% endmacro %}{{ m() }}", `parameter "a" was not provided`},
		{"{% macro m(a, b) %}{{ b.x }}{% endmacro %}{{ m(1) }}", `parameter "b" was not provided`},
	} {
		env, err := NewEnvironment(Options{StrictUndefined: true})
		if err != nil {
			t.Fatal(err)
		}
		_, err = env.RenderString("t", c.tpl, nil, RenderOptions{})
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindUndefined || !strings.Contains(e.Message, c.want) {
			t.Errorf("%s: want an undefined error with %q, got %v", c.tpl, c.want, err)
		}
	}
	runSandboxCases(t, Options{}, []sandboxCase{
		{"default-prints-empty", "{% macro m(a, b) %}[{{ b }}|{{ b is defined }}]{% endmacro %}{{ m(1) }}", nil, 0, "[|False]"},
		{"default-attr-refused", "{% macro m(a, b) %}{{ b.x }}{% endmacro %}{{ m(1) }}", nil, KindUndefined, ""},
	})
}
