package method

import (
	"fmt"
	"strings"

	"github.com/jinjabox/jinjabox/engine/value"
)

// Mock inputs: the example values Pipelex writes into an inputs template
// (`pipelex build inputs`) and feeds a dry run. They follow
// ConceptRepresentationGenerator (pipelex/core/concepts/
// concept_representation_generator.py): a text field is "<name>_value"
// (a url field, or one ending in _url, "https://mock.invalid/<name>"), an
// integer 0, a number 0.0, a boolean false, a date "2026-01-01", a
// datetime "2026-01-01T12:00:00", a time "12:00:00", a list one item, a
// dict {"<name>_key": "<name>_value"}, a nested concept its own fields,
// recursively. Every field is written, optional ones too
// (include_optional=True). Two choices where Pipelex is not followed: a
// field with choices takes its first (Pipelex picks one at random), and
// a native concept's content carries the fields its shape needs (text,
// url, number, ...), not every optional field of the Python class.

// mockListItems is the length of a mock list of any length: Pipelex's
// dry-run nb_list_items (3 in its configuration).
const mockListItems = 3

// mockCount is the length of a mock list of the spec.
func mockCount(spec ConceptSpec) int {
	if spec.Count > 0 {
		return spec.Count
	}
	return mockListItems
}

// mockSpec is the example content of a concept spec: a list of
// mockCount items for a list spec, else one.
func (cs Concepts) mockSpec(spec ConceptSpec) any {
	if !spec.List {
		return cs.MockContent(spec.Name)
	}
	items := make([]any, mockCount(spec))
	for i := range items {
		items[i] = cs.MockContent(spec.Name)
	}
	return items
}

// mockDepth bounds the expansion of concepts that contain themselves;
// Pydantic would refuse such a class, a declared structure may still
// name itself.
const mockDepth = 8

// MockContent is the example content of a concept (its bare or
// qualified name, no multiplicity).
func (cs Concepts) MockContent(concept string) any {
	return cs.mockContent(concept, 0)
}

func (cs Concepts) mockContent(concept string, depth int) any {
	switch base := cs.Base(concept); base {
	case ConceptText, ConceptHTML:
		return orderedOf("text", "text_value")
	case ConceptImage:
		return orderedOf("url", "https://mock.invalid/url")
	case ConceptDocument:
		return &value.OrderedMap{Keys: []string{"url", "mime_type"}, Values: []any{"https://mock.invalid/url", "application/pdf"}}
	case ConceptNumber:
		return orderedOf("number", int64(1)) // NumberContent's int | float: 1
	case ConceptYesNo:
		return orderedOf("yes_no", false)
	case ConceptDate:
		return orderedOf("date", "2026-01-01T12:00:00")
	case ConceptJSON:
		return orderedOf("json_obj", &value.OrderedMap{Keys: []string{"json_obj_key"}, Values: []any{"json_obj_value"}})
	case ConceptTextAndImages:
		return &value.OrderedMap{Keys: []string{"text", "images"}, Values: []any{orderedOf("text", "text_value"), []any{orderedOf("url", "https://mock.invalid/url")}}}
	case ConceptPage:
		tai := cs.mockContent(ConceptTextAndImages, depth+1)
		return &value.OrderedMap{Keys: []string{"text_and_images", "page_view"}, Values: []any{tai, orderedOf("url", "https://mock.invalid/url")}}
	case ConceptChoice:
		return orderedOf("choice", "choice_value")
	case ConceptRating:
		return orderedOf("level", int64(0))
	case ConceptSearchResult:
		return &value.OrderedMap{Keys: []string{"answer", "sources"}, Values: []any{"answer_value", []any{orderedOf("url", "https://mock.invalid/url")}}}
	case ConceptAnything, ConceptDynamic, ConceptComposite:
		return &value.OrderedMap{}
	}
	om := &value.OrderedMap{}
	if depth >= mockDepth {
		return om
	}
	for _, f := range cs.Fields(concept) {
		om.Keys = append(om.Keys, f.Name)
		om.Values = append(om.Values, cs.mockField(f, depth))
	}
	return om
}

// mockField is one field's example value.
func (cs Concepts) mockField(f Field, depth int) any {
	switch f.Type {
	case "list":
		item := Field{Name: f.Name + "_item", Type: f.ItemType, ConceptRef: f.ConceptRef}
		if item.Type == "" {
			item.Type = "text"
		}
		return []any{cs.mockField(item, depth)}
	case "concept":
		return cs.mockContent(f.ConceptRef, depth+1)
	}
	return cs.mockScalar(f, depth)
}

func (cs Concepts) mockScalar(f Field, depth int) any {
	switch f.Type {
	case "text", "":
		switch {
		case len(f.Choices) > 0:
			return f.Choices[0]
		case f.Name == "url" || strings.HasSuffix(f.Name, "_url"):
			return "https://mock.invalid/" + f.Name
		}
		return f.Name + "_value"
	case "integer":
		return int64(0)
	case "number":
		return float64(0)
	case "boolean":
		return false
	case "date":
		return "2026-01-01"
	case "datetime":
		return "2026-01-01T12:00:00"
	case "time":
		return "12:00:00"
	case "dict", "object":
		return &value.OrderedMap{Keys: []string{f.Name + "_key"}, Values: []any{f.Name + "_value"}}
	}
	return cs.mockContent(f.Type, depth+1) // a concept named as the type
}

// conceptRef is a concept's reference as an inputs file names it:
// "native.Text" for a native, "domain.Code" otherwise (Pipelex's
// concept_ref).
func conceptRef(name string) string {
	name = canonicalNative(name)
	if IsNativeConcept(name) {
		return NativePrefix + name
	}
	return name
}

// InputsTemplate is the inputs file of a pipe with example values:
// each declared input as {"concept": ..., "content": ...}, a list input's
// content a list of three items, or of its count (Pipelex's `build inputs --explicit`, which
// jinjabox's LoadInputs reads back). ref names the pipe as EntryPipe
// does. A pipe without inputs is an error, as Pipelex's
// NoInputsRequiredError.
func (l *Library) InputsTemplate(ref string) (*value.OrderedMap, error) {
	e, err := l.EntryPipe(ref)
	if err != nil {
		return nil, err
	}
	if len(e.Pipe.Inputs) == 0 {
		return nil, fmt.Errorf("no inputs required for pipe %q", e.Code)
	}
	om := &value.OrderedMap{}
	for _, name := range e.Pipe.InputNames() {
		spec := ParseConceptSpec(l.canonSpec(e.refScope(), e.Pipe.Inputs[name]))
		om.Keys = append(om.Keys, name)
		om.Values = append(om.Values, &value.OrderedMap{Keys: []string{"concept", "content"}, Values: []any{conceptRef(spec.Name), l.concepts.mockSpec(spec)}})
	}
	return om, nil
}

// MockInputs are a pipe's inputs with example values (InputsTemplate as
// run memory): what a dry run feeds each pipe.
func (l *Library) MockInputs(ref string) (*Memory, error) {
	e, err := l.EntryPipe(ref)
	if err != nil {
		return nil, err
	}
	m := NewMemory()
	for _, name := range e.Pipe.InputNames() {
		spec := ParseConceptSpec(l.canonSpec(e.refScope(), e.Pipe.Inputs[name]))
		m = m.With(Stuff{Name: name, Concept: ConceptSpec{Name: spec.Name, List: spec.List, Count: spec.Count}.String(), Content: l.concepts.mockSpec(spec)})
	}
	return m, nil
}
