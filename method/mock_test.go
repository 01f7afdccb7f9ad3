package method

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// mockLibrary is a library of one JSON bundle, which must be valid.
func mockLibrary(t *testing.T, src string) *Library {
	t.Helper()
	b, err := LoadBundle([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	lib := NewLibrary([]*Bundle{b})
	if err := lib.Validate(ValidateOptions{}).Err(); err != nil {
		t.Fatal(err)
	}
	return lib
}

// TestInputsTemplate: every field type gets the example value Pipelex's
// ConceptRepresentationGenerator gives it, nested concepts expand, a list
// input has three items (nb_list_items) or its count, natives carry their
// content field, and the file reads back as run inputs.
func TestInputsTemplate(t *testing.T) {
	lib := mockLibrary(t, `{"domain": "d", "main_pipe": "p",
	"concepts": {
		"Deal": {"fields": [
			{"name": "title", "type": "text"},
			{"name": "site_url", "type": "text"},
			{"name": "stage", "type": "text", "choices": ["lead", "won"]},
			{"name": "count", "type": "integer"},
			{"name": "amount", "type": "number"},
			{"name": "open", "type": "boolean"},
			{"name": "day", "type": "date"},
			{"name": "at", "type": "datetime"},
			{"name": "tags", "type": "list", "item_type": "text"},
			{"name": "meta", "type": "dict"},
			{"name": "owner", "type": "concept", "concept_ref": "Person"},
			{"name": "team", "type": "list", "item_type": "concept", "concept_ref": "Person"}]},
		"Person": {"fields": [{"name": "name", "type": "text"}]}},
	"pipes": {"p": {"type": "PipeCompose", "inputs": {"deal": "Deal", "notes": "Text[]", "pics": "Image[2]", "n": "Number"},
		"template": "{{ deal.title }}{{ notes }}{{ pics }}{{ n }}"}}}`)
	om, err := lib.InputsTemplate("p")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(om)
	want := `{"deal":{"concept":"d.Deal","content":{"title":"title_value","site_url":"https://mock.invalid/site_url","stage":"lead","count":0,"amount":0,"open":false,"day":"2026-01-01","at":"2026-01-01T12:00:00","tags":["tags_item_value"],"meta":{"meta_key":"meta_value"},"owner":{"name":"name_value"},"team":[{"name":"name_value"}]}},` +
		`"n":{"concept":"native.Number","content":{"number":1}},` +
		`"notes":{"concept":"native.Text","content":[{"text":"text_value"},{"text":"text_value"},{"text":"text_value"}]},` +
		`"pics":{"concept":"native.Image","content":[{"url":"https://mock.invalid/url"},{"url":"https://mock.invalid/url"}]}}`
	if string(got) != want {
		t.Errorf("template\n got %s\nwant %s", got, want)
	}
	mem, err := LoadInputs(got)
	if err != nil {
		t.Fatal(err)
	}
	for name, concept := range map[string]string{"deal": "d.Deal", "notes": "Text[]", "pics": "Image[]", "n": "Number"} {
		if s, ok := mem.Get(name); !ok || s.Concept != concept {
			t.Errorf("read back %s as %+v, want concept %s", name, s, concept)
		}
	}
	if _, err := (&Runner{Library: lib, Provider: LocalProvider{}}).RunPipe(context.Background(), "p", mem); err != nil {
		t.Errorf("the template's inputs do not run: %v", err)
	}
	if _, err := mockLibrary(t, `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCompose", "template": "x"}}}`).InputsTemplate("p"); err == nil || !strings.Contains(err.Error(), "no inputs required") {
		t.Errorf("a pipe without inputs: %v", err)
	}
}

// TestDryRunCondition: a PipeCondition's dry run runs every outcome pipe
// instead of evaluating its expression (Pipelex's
// PipeCondition._dry_run_controller_pipe), so a broken branch the mock
// data would never select is still found, and a fail outcome the mock
// data selects does not fail the dry run.
func TestDryRunCondition(t *testing.T) {
	src := func(branch string) string {
		return `{"main_pipe": "c", "pipes": {
		"c": {"type": "PipeCondition", "inputs": {"a": "Text"}, "output": "Text", "expression": "a.text == 'never'", "outcomes": {"True": "rare"}, "default_outcome": "fail"},
		"rare": {"type": "PipeCompose", "inputs": {"a": "Text"}, "template": "` + branch + `"}}}`
	}
	if err := mockLibrary(t, src("{{ a.text }}")).DryRunPipe(context.Background(), "c", DryRunOptions{}); err != nil {
		t.Errorf("sound condition: %v", err)
	}
	err := mockLibrary(t, src("{{ a.text + 1 }}")).DryRunPipe(context.Background(), "c", DryRunOptions{})
	if err == nil || !strings.Contains(err.Error(), `pipe "rare"`) {
		t.Errorf("a broken branch the data never selects: %v", err)
	}
}
