package engine

import "testing"

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
