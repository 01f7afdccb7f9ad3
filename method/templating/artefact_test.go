package templating

import (
	"errors"
	"testing"

	"github.com/jinjabox/jinjabox/engine"
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
		if !errors.As(err, &e) || e.Kind != engine.KindSecurity {
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
	if _, err := env.Parse("t", "{{ x._stuff }}"); !errors.As(err, &e) || e.Kind != engine.KindSecurity {
		t.Fatalf("undeclared underscore name: want security error at parse, got %v", err)
	}
}

// TestStuffArtefactEveryPath holds P12 for the artefact on every lookup
// path: its metadata names read by dot, bracket, |attr, attribute paths
// and format fields, and are refused on a plain dict; a method of
// Pipelex's StuffArtefact (or its pydantic base) that the surface does not
// declare is security by any path; a content field beats a host method.
func TestStuffArtefactEveryPath(t *testing.T) {
	note, err := NewStuffArtefact("note", "Text", "TextContent", "note_code", map[string]any{"text": "hello", "items": 3})
	if err != nil {
		t.Fatal(err)
	}
	data := map[string]any{"note": note, "k": "_stuff_name", "d": map[string]any{"_stuff_name": 1}}
	env, _ := engine.NewEnvironment(engine.Options{})
	for _, c := range []struct {
		name, tpl string
		data      map[string]any
		kind      engine.ErrorKind
		want      string
	}{
		{"dot", "{{ note._stuff_name }}", data, 0, "note"},
		{"attr-filter", "{{ note|attr('_content_class') }}", data, 0, "TextContent"},
		{"map-attribute", "{{ [note]|map(attribute='_stuff_name')|list }}", data, 0, "['note']"},
		{"map-attribute-runtime", "{{ [note]|map(attribute=k)|list }}", data, 0, "['note']"},
		{"sort-attribute", "{{ [note, note]|sort(attribute='_content_class')|length }}", data, 0, "2"},
		{"groupby", "{{ [note]|groupby('_concept_code')|map('first')|list }}", data, 0, "['Text']"},
		{"selectattr", "{{ [note]|selectattr('_stuff_code', 'eq', 'note_code')|list|length }}", data, 0, "1"},
		{"format-attr", "{{ '{0._stuff_name}'.format(note) }}", data, 0, "note"},
		{"format-item", "{{ '{0[_stuff_code]}'.format(note) }}", data, 0, "note_code"},
		{"format-map", "{{ '{_concept_code}'.format_map(note) }}", data, 0, "Text"},
		{"content-field-beats-host-method", "{{ note.items }}", data, 0, "3"},
		{"plain-unknown-undefined", "[{{ note.stuff }}]", data, 0, "[]"},
		{"map-attribute-on-dict", "{{ [d]|map(attribute='_stuff_name')|list }}", data, engine.KindSecurity, ""},
		{"map-attribute-runtime-on-dict", "{{ [d]|map(attribute=k)|list }}", data, engine.KindSecurity, ""},
		{"format-attr-on-dict", "{{ '{0._stuff_name}'.format(d) }}", data, engine.KindSecurity, ""},
		{"dot-on-undefined", "{{ nope._stuff_name }}", data, engine.KindSecurity, ""},
		{"undeclared-method-dot", "{{ note.render_with_images }}", data, engine.KindSecurity, ""},
		{"undeclared-method-bracket", "{{ note['rendered_for_template_async'] }}", data, engine.KindSecurity, ""},
		{"undeclared-method-attr-filter", "{{ note|attr('render_for_tag_async') }}", data, engine.KindSecurity, ""},
		{"undeclared-method-path", "{{ [note]|map(attribute='default_tag_name')|list }}", data, engine.KindSecurity, ""},
		{"undeclared-method-format", "{{ '{0.model_dump}'.format(note) }}", data, engine.KindSecurity, ""},
		{"undeclared-underscore", "{{ [note]|map(attribute='_stuff')|list }}", data, engine.KindSecurity, ""},
	} {
		res, err := env.RenderString(c.name, c.tpl, c.data, engine.RenderOptions{})
		var e *engine.Error
		switch {
		case c.kind == 0 && (err != nil || res.Output != c.want):
			t.Errorf("%s: want %q, got %q %v", c.name, c.want, res.Output, err)
		case c.kind != 0 && (!errors.As(err, &e) || e.Kind != c.kind):
			t.Errorf("%s: want %v error, got %q %v", c.name, c.kind, res.Output, err)
		}
	}
}
