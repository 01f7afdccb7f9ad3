package workflows

import (
	"encoding/json"
	"os"
	"testing"
)

func loadTestMethod(t *testing.T, name string) *Method {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := LoadMethod(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestLoadSample(t *testing.T) {
	m := loadTestMethod(t, "sample_method.json")
	if m.MainPipe != "handle_tickets" || len(m.Pipes) != 6 {
		t.Fatalf("loaded %q with %d pipes", m.MainPipe, len(m.Pipes))
	}
	if got := m.Pipes["canned_reply"].Template; got == nil || got.Category != "markdown" || got.ExtraContext["signature"] != "Support team" {
		t.Errorf("template: %+v", got)
	}
	c := m.Pipes["digest"].Construct
	var names []string
	for _, f := range c.Fields {
		names = append(names, f.Name)
	}
	if len(names) != 4 || names[0] != "title" || names[3] != "meta" {
		t.Errorf("construct order %v", names)
	}
	if c.Fields[1].Method != FieldFrom || c.Fields[1].KeyedBy != "subject" || c.Fields[2].Method != FieldTemplate || c.Fields[3].Method != FieldNested {
		t.Errorf("construct methods %+v", c.Fields)
	}
	if _, err := json.Marshal(m); err != nil {
		t.Errorf("marshal: %v", err)
	}
}

func TestLoadMethodErrors(t *testing.T) {
	tests := map[string]string{
		"unknown field":      `{"main_pipe": "a", "pipes": {"a": {"type": "PipeLLM", "promt": "x"}}}`,
		"from and template":  `{"main_pipe": "a", "pipes": {"a": {"type": "PipeCompose", "construct": {"x": {"from": "a", "template": "b"}}}}}`,
		"from extra key":     `{"main_pipe": "a", "pipes": {"a": {"type": "PipeCompose", "construct": {"x": {"from": "a", "other": 1}}}}}`,
		"empty construct":    `{"main_pipe": "a", "pipes": {"a": {"type": "PipeCompose", "construct": {}}}}`,
		"keyed without from": `{"main_pipe": "a", "pipes": {"a": {"type": "PipeCompose", "construct": {"x": {"list_to_dict_keyed_by": "k"}}}}}`,
		"trailing":           `{"main_pipe": "a", "pipes": {}} {}`,
	}
	for name, src := range tests {
		if _, err := LoadMethod([]byte(src)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestConceptSpec(t *testing.T) {
	tests := []struct {
		in   string
		want ConceptSpec
	}{
		{"Text", ConceptSpec{Name: "Text"}},
		{"Ticket[]", ConceptSpec{Name: "Ticket", List: true}},
		{"Text?", ConceptSpec{Name: "Text", Optional: true}},
		{"Image[]?", ConceptSpec{Name: "Image", List: true, Optional: true}},
	}
	for _, tc := range tests {
		if got := ParseConceptSpec(tc.in); got != tc.want || got.String() != tc.in {
			t.Errorf("%q: %+v", tc.in, got)
		}
	}
}

func TestLoadInputs(t *testing.T) {
	b, err := os.ReadFile("testdata/sample_inputs.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := LoadInputs(b)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Names(); len(got) != 3 || got[0] != "brand" || got[2] != "tickets" {
		t.Errorf("names %v", got)
	}
	v, err := WalkPath(m.PathRoot(), "brand.text")
	if err != nil || v != "Acme" {
		t.Errorf("brand.text = %v %v", v, err)
	}
	if _, err := LoadInputs([]byte(`{"_x": "s"}`)); err == nil {
		t.Error("private input name accepted")
	}
	data, err := m.TemplateData()
	if err != nil {
		t.Fatal(err)
	}
	if l, ok := data["tickets"].([]any); !ok || len(l) != 3 {
		t.Errorf("tickets data %T", data["tickets"])
	}
}

func TestMemoryIsPersistent(t *testing.T) {
	a := NewMemory(Stuff{Name: "x", Concept: "Text", Content: "1"})
	b := a.With(Stuff{Name: "y", Concept: "Text", Content: "2"})
	c := b.With(Stuff{Name: "x", Concept: "Text", Content: "3"})
	if _, ok := a.Get("y"); ok {
		t.Error("With changed the receiver")
	}
	if s, _ := b.Get("x"); s.Content != "1" {
		t.Error("replacement leaked")
	}
	if n := c.Names(); len(n) != 2 || n[0] != "x" {
		t.Errorf("order %v", n)
	}
}
