package templating

import (
	"errors"
	"testing"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/errs"
)

// TestStuffArtefact: the P12 surface. The metadata names read on an
// artefact and are refused on a plain dict; an undeclared name is a
// security error, a host method too.
func TestStuffArtefact(t *testing.T) {
	a, err := NewStuffArtefact("note", "Text", "TextContent", "note_code", map[string]any{"text": "hello"})
	if err != nil {
		t.Fatal(err)
	}
	env, _ := engine.NewEnvironment(engine.Options{})
	cases := []struct{ tpl, want string }{
		{"{{ note.text }}|{{ note['text'] }}|{{ note.get('text') }}|{{ note.get('zz', 1) }}", "hello|hello|hello|1"},
		{"{{ note._stuff_name }}{{ note['_concept_code'] }}", "noteText"},
		{"{{ note.iter_keys() }}", "['text', '_stuff_name', '_content_class', '_concept_code', '_stuff_code']"},
		{"[{{ note.stuff }}]", "[]"},
		{"{{ note }}", "hello"},
	}
	for _, c := range cases {
		got, err := env.RenderString("t", c.tpl, map[string]any{"note": a}, engine.RenderOptions{})
		if err != nil || got.Output != c.want {
			t.Errorf("%s: got %q %v, want %q", c.tpl, got.Output, err, c.want)
		}
	}
	for _, bad := range []string{"{{ note._stuff }}", "{{ note['_x'] }}", "{{ note|attr('_content') }}", "{{ note.model_dump() }}", "{{ d._stuff_name }}"} {
		_, err := env.RenderString("t", bad, map[string]any{"note": a, "d": map[string]any{"_stuff_name": 1}}, engine.RenderOptions{})
		var e *engine.Error
		if !errors.As(err, &e) || e.Kind != errs.Security {
			t.Errorf("%s: want security error, got %v", bad, err)
		}
	}
}

// TestArtefactNamesDeclared: the metadata names are declared to the
// engine's literal name rule, so a template naming them parses; any other
// underscore name is still refused before rendering.
func TestArtefactNamesDeclared(t *testing.T) {
	env, _ := engine.NewEnvironment(engine.Options{})
	if _, err := env.Parse("t", "{{ x._stuff_name }}{{ x|attr('_concept_code') }}"); err != nil {
		t.Fatalf("declared metadata refused at parse: %v", err)
	}
	var e *engine.Error
	if _, err := env.Parse("t", "{{ x._stuff }}"); !errors.As(err, &e) || e.Kind != errs.Security {
		t.Fatalf("undeclared underscore name: want security error at parse, got %v", err)
	}
}
