package method

import (
	"os"
	"reflect"
	"testing"
)

func sampleLibrary(t *testing.T) *Library {
	t.Helper()
	b, err := os.ReadFile("testdata/sample_method.json")
	if err != nil {
		t.Fatal(err)
	}
	l, err := LoadJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// A pipe reads its declared inputs and what the pipes it runs read, less
// the names it gives them: a batch's item, a condition's alias. A
// PipeFunc reads everything, and so does any controller that runs one.
func TestReads(t *testing.T) {
	l := sampleLibrary(t)
	for _, tc := range []struct {
		pipe string
		want []string
	}{
		{"support.canned_reply", []string{"brand", "ticket"}},
		{"support.route_ticket", []string{"brand", "logo", "ticket"}},
		{"support.answer_all", []string{"brand", "logo", "tickets"}},
		{"support.handle_tickets", []string{"brand", "logo", "replies", "tickets"}},
		{"support.digest", []string{"replies", "tickets"}},
		{"support.nope", nil},
	} {
		if got := l.Reads(tc.pipe); got.All || !reflect.DeepEqual(got.Names, tc.want) {
			t.Errorf("%s reads %+v, want %v", tc.pipe, got, tc.want)
		}
	}
	f := mustMethod(t, `{"main_pipe": "s", "pipes": {
		"s": {"type": "PipeSequence", "inputs": {"a": "Text"}, "steps": [{"pipe": "c"}, {"pipe": "f"}]},
		"c": {"type": "PipeCondition", "inputs": {"a": "Text"}, "expression": "a.text", "outcomes": {"x": "d"}, "default_outcome": "continue", "add_alias_from_expression_to": "route", "output": "Text?"},
		"d": {"type": "PipeCompose", "inputs": {"route": "Text", "b": "Text"}, "template": "{{ route }}{{ b }}"},
		"f": {"type": "PipeFunc", "function_name": "x"}}}`)
	if got := f.Reads("c"); got.All || !reflect.DeepEqual(got.Names, []string{"a", "b"}) {
		t.Errorf("condition reads %+v, want a and b (route is its alias)", got)
	}
	if got := f.Reads("s"); !got.All {
		t.Errorf("a sequence with a PipeFunc step reads %+v, want everything", got)
	}
	m := NewMemory(Stuff{Name: "a", Concept: "Text", Content: "1"}, Stuff{Name: "z", Concept: "Text", Content: "2"}, Stuff{Name: "b", Concept: "Text", Content: "3"})
	if got := m.Only(f.Reads("c")).Names(); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("Only keeps %v", got)
	}
	if got := m.Only(f.Reads("s")); got != m {
		t.Errorf("Only of everything is the memory itself")
	}
}

// The subset of a pipe holds its closure of pipes and the concepts they
// and the memory name, resolves every reference as the library does, and
// leaves the library alone.
func TestSubset(t *testing.T) {
	l := sampleLibrary(t)
	before := *l.pipes["support.route_ticket"].Pipe
	s := l.Subset([]string{"support.route_ticket"}, []string{"native.Text"})
	var got []string
	for _, e := range s.Pipes() {
		got = append(got, e.Ref)
	}
	if want := []string{"support.canned_reply", "support.draft_reply", "support.route_ticket"}; !reflect.DeepEqual(got, want) {
		t.Errorf("pipes %v, want %v", got, want)
	}
	if _, ok := s.Concept("support.Ticket"); !ok || len(s.Concepts()) != 1 {
		t.Errorf("concepts %v, want support.Ticket", s.Concepts())
	}
	if len(s.Bundles) != 1 || s.Bundles[0].Domain != "support" || s.Bundles[0].TemplatingStyle != l.Bundles[0].TemplatingStyle {
		t.Errorf("bundles %+v", s.Bundles)
	}
	for _, e := range s.Pipes() {
		for _, c := range PipeCalls(e.Pipe) {
			if s.Resolve(e, c) != l.Resolve(l.pipes[e.Ref], c) {
				t.Errorf("%s: %s resolves differently", e.Ref, c)
			}
		}
	}
	if after := *l.pipes["support.route_ticket"].Pipe; !reflect.DeepEqual(before, after) || s.pipes["support.route_ticket"].Pipe == l.pipes["support.route_ticket"].Pipe {
		t.Error("the subset shares or changed the library's pipe")
	}
	// a memory concept outside the pipes' closure comes along
	if s := l.Subset([]string{"support.canned_reply"}, []string{"support.Ticket[]"}); len(s.Concepts()) != 1 {
		t.Errorf("concepts %v", s.Concepts())
	}
}
