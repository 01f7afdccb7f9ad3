package engine

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jinjabox/jinjabox/budget"
)

// TestTemplatesFromFS holds Options.FS: a template set read from an
// fs.FS, rendered by name (Environment.Template) and reached by extends,
// include and import; Templates wins over FS for a name both hold; a
// missing name is TemplateNotFound; a file over the source limit is a
// budget error before it is parsed; names outside fs.ValidPath (.., a
// leading /) are not found, never read.
func TestTemplatesFromFS(t *testing.T) {
	fsys := fstest.MapFS{
		"base.html":        {Data: []byte(`<h1>{% block title %}base{% endblock %}</h1>{% include "parts/foot.html" %}`)},
		"page.html":        {Data: []byte(`{% extends "base.html" %}{% block title %}{{ m.shout(name) }}{% endblock %}`)},
		"parts/foot.html":  {Data: []byte(`<footer>{{ name }}</footer>`)},
		"macros.j2":        {Data: []byte(`{% macro shout(s) %}{{ s|upper }}!{% endmacro %}`)},
		"over.html":        {Data: []byte("from fs")},
		"big.html":         {Data: []byte(strings.Repeat("x", 2000))},
		"../secret":        {Data: []byte("never")},
		"parts/wrapper.j2": {Data: []byte(`{% import "macros.j2" as m %}{% include "page.html" %}`)},
	}
	env, err := NewEnvironment(Options{
		FS:        fsys,
		Templates: map[string]string{"over.html": "from map"},
		Limits:    budget.Limits{SourceBytes: 1000},
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"parts/wrapper.j2": "<h1>ADA!</h1><footer>ada</footer>",
		"over.html":        "from map",
	} {
		tpl, err := env.Template(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		res, err := tpl.RenderResult(map[string]any{"name": "ada"}, RenderOptions{})
		if err != nil || res.Output != want {
			t.Fatalf("%s: got %q, %v; want %q", name, res.Output, err, want)
		}
		again, _ := env.Template(name)
		if again != tpl {
			t.Fatalf("%s: parsed twice", name)
		}
	}
	for _, name := range []string{"missing.html", "../secret", "/base.html"} {
		_, err := env.Template(name)
		var e *Error
		if !errors.As(err, &e) || e.PyError != "TemplateNotFound" {
			t.Fatalf("%s: %v, want TemplateNotFound", name, err)
		}
	}
	_, err = env.Template("big.html")
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindBudget || !strings.Contains(e.Message, "source_bytes") {
		t.Fatalf("big.html: %v, want a source_bytes budget error", err)
	}
	res, err := env.RenderString("t", `{% include "big.html" %}`, nil, RenderOptions{})
	if !errors.As(err, &e) || e.Kind != KindBudget || res.Output != "" {
		t.Fatalf("include big.html: %q %v", res.Output, err)
	}
	// untrusted source rendered through the environment reaches the set
	// too: the set is the host's, trusted, and chosen by the host
	res, err = env.RenderString("t", `{% include "parts/foot.html" %}`, map[string]any{"name": "x"}, RenderOptions{})
	if err != nil || res.Output != "<footer>x</footer>" {
		t.Fatalf("include from string: %q %v", res.Output, err)
	}
	// the zero environment has no set
	var zero Environment
	if _, err := zero.Template("base.html"); err == nil {
		t.Fatal("zero environment found a template")
	}
}
