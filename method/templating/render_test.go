package templating

import (
	"errors"
	"testing"

	"github.com/jinjabox/jinjabox/engine"
)

// These tests render through the engine (they need the parser).

func mustArtefact(t *testing.T, name, concept, class string, content any) *StuffArtefact {
	t.Helper()
	a, err := NewStuffArtefact(name, concept, class, name+"_code", content)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestRenderCategories(t *testing.T) {
	note := mustArtefact(t, "note", "Text", "TextContent", map[string]any{"text": "a <b> & c"})
	photo := mustArtefact(t, "photo", "Image", "ImageContent", map[string]any{"url": "https://x/p.png"})
	data := map[string]any{"note": note, "photo": photo, "n": 3}
	tests := []struct {
		name   string
		cat    Category
		style  Style
		sigils bool
		src    string
		want   string
		images int
		kind   engine.ErrorKind
	}{
		{"basic sigils xml", Basic, DefaultStyle, true, "@note\nand $n", "<note>\na <b> & c\n</note>\nand 3", 0, 0},
		{"basic ticks", Basic, Style{TagStyle: TagTicks}, true, "@note", "note: ```\na <b> & c\n```", 0, 0},
		{"optional sigil absent", Basic, DefaultStyle, true, "[\n@?missing\n]", "[\n\n]", 0, 0},
		// Pipelex's tag returns a plain str (render_any_tagged_for_jinja2's
		// f-string), which autoescape escapes whole: the wanted texts are
		// what Jinja2 renders with that definition
		{"html escapes the tagged text", HTML, DefaultStyle, false, "{{ note|tag }}", "&lt;note&gt;\na &lt;b&gt; &amp; c\n&lt;/note&gt;", 0, 0},
		{"html tag of markup", HTML, DefaultStyle, false, "{{ note|e|tag('n<1') }}", "&lt;n&lt;1&gt;\na &amp;lt;b&amp;gt; &amp;amp; c\n&lt;/n&lt;1&gt;", 0, 0},
		{"html untagged markup stays markup", HTML, Style{TagStyle: TagNone}, false, "{{ note|e|tag }}|{{ note|tag }}", "a &lt;b&gt; &amp; c|a &lt;b&gt; &amp; c", 0, 0},
		{"html trims blocks", HTML, DefaultStyle, false, "{% if n %}\n  x\n{% endif %}\n", "  x\n", 0, 0},
		{"html markdown", HTML, DefaultStyle, false, "{{ '# T\\n\\n<i>x</i>'|markdown }}", "<h1>T</h1>\n<p>&lt;i&gt;x&lt;/i&gt;</p>\n", 0, 0},
		{"markdown escape_script_tag", Markdown, DefaultStyle, false, "{{ '</script>'|escape_script_tag }}", `<\/script>`, 0, 0},
		{"llm with_images", LLMPrompt, DefaultStyle, false, "{{ photo|with_images }} {{ photo|with_images }} {{ photo|format }}", "[Image 1] [Image 1] [Image 1]", 1, 0},
		{"format json", Basic, DefaultStyle, false, "{{ note|format('json') }}", `"a <b> & c"`, 0, 0},
		{"expression has no tag", Expression, DefaultStyle, false, "{{ n|tag }}", "", 0, engine.KindSyntax},
		{"mermaid has no with_images", Mermaid, DefaultStyle, false, "{{ n|with_images }}", "", 0, engine.KindSyntax},
		{"basic has no markdown", Basic, DefaultStyle, false, "{{ n|markdown }}", "", 0, engine.KindSyntax},
		{"with_images impostor", LLMPrompt, DefaultStyle, false, "{{ {'render_with_images': 'x'}|with_images }}", "", 0, engine.KindRender},
		{"tag of undefined", Basic, DefaultStyle, false, "{{ nope|tag }}", "", 0, engine.KindUndefined},
		{"artefact private still refused", Basic, DefaultStyle, true, "@note._content", "", 0, engine.KindSecurity},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Render(tc.cat, tc.style, tc.name, tc.src, data, RenderConfig{Sigils: tc.sigils})
			if tc.kind != 0 {
				var e *engine.Error
				if !errors.As(err, &e) || e.Kind != tc.kind {
					t.Fatalf("want %s error, got %v (%q)", tc.kind, err, r.Text)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Text != tc.want {
				t.Errorf("got %q, want %q", r.Text, tc.want)
			}
			if len(r.Images) != tc.images {
				t.Errorf("images %v", r.Images)
			}
		})
	}
}

// TestRegistryPerRender checks image numbering restarts for each render
// and is shared when a registry is passed in.
func TestRegistryPerRender(t *testing.T) {
	a := mustArtefact(t, "a", "Image", "ImageContent", map[string]any{"url": "u1"})
	b := mustArtefact(t, "b", "Image", "ImageContent", map[string]any{"url": "u2"})
	data := map[string]any{"a": a, "b": b}
	for i := 0; i < 2; i++ {
		r, err := Render(LLMPrompt, DefaultStyle, "t", "{{ b|with_images }}", data, RenderConfig{})
		if err != nil || r.Text != "[Image 1]" {
			t.Fatalf("render %d: %q %v", i, r.Text, err)
		}
	}
	reg := NewImageRegistry()
	_, _ = Render(LLMPrompt, DefaultStyle, "sys", "{{ a|with_images }}", data, RenderConfig{Images: reg})
	r, err := Render(LLMPrompt, DefaultStyle, "prompt", "{{ b|with_images }}{{ a|with_images }}", data, RenderConfig{Images: reg})
	if err != nil || r.Text != "[Image 2][Image 1]" || len(r.Images) != 2 {
		t.Fatalf("shared registry: %q %v %v", r.Text, r.Images, err)
	}
}

// TestSetParsesOnce: a Set builds one environment per category, style
// and settings and parses a template once; renders of one parsed
// template share no state (each numbers its own images).
func TestSetParsesOnce(t *testing.T) {
	s := NewSet()
	e1, err := s.Environment(LLMPrompt, DefaultStyle, Config{})
	if err != nil {
		t.Fatal(err)
	}
	e2, _ := s.Environment(LLMPrompt, DefaultStyle, Config{})
	e3, _ := s.Environment(LLMPrompt, DefaultStyle, Config{Strict: true})
	if e1 != e2 || e1 == e3 {
		t.Error("environments are not one per category, style and settings")
	}
	t1, err := s.Parse(LLMPrompt, DefaultStyle, "p", "$a", RenderConfig{Sigils: true})
	if err != nil {
		t.Fatal(err)
	}
	t2, _ := s.Parse(LLMPrompt, DefaultStyle, "p", "$a", RenderConfig{Sigils: true})
	t3, _ := s.Parse(LLMPrompt, DefaultStyle, "p", "$a", RenderConfig{})
	if t1 != t2 || t1 == t3 {
		t.Error("a template is not parsed once per name, source and settings")
	}
	if _, err := s.Parse(Basic, DefaultStyle, "bad", "{% if %}", RenderConfig{}); err == nil {
		t.Fatal("a syntax error parsed")
	}
	if len(s.tpls) != 3 || len(s.envs) != 3 {
		t.Errorf("%d templates, %d environments", len(s.tpls), len(s.envs))
	}
	img := func(u string) map[string]any { return map[string]any{"url": u} }
	for _, u := range []string{"https://x/1.png", "https://x/2.png"} {
		data := map[string]any{"a": &ImageContent{URL: u}, "b": img(u)}
		r, err := s.Render(LLMPrompt, DefaultStyle, "p", "{{ a|with_images }}", data, RenderConfig{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Text != "[Image 1]" || len(r.Images) != 1 || r.Images[0].URL != u {
			t.Errorf("render %s: %q %+v", u, r.Text, r.Images)
		}
	}
}
