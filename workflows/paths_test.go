package workflows

import (
	"reflect"
	"testing"
)

// The shared hostile/paths.jsonl cases run through the same walkers in
// internal/casecheck (TestCorpusFloors in ./testsuite holds them); the
// tests here pin the walkers' own rules.

func TestParsePath(t *testing.T) {
	tests := []struct {
		path string
		kind string
	}{
		{"a", ""}, {"a.b.c", ""}, {"a.0", ""},
		{"", "syntax"}, {"a..b", "syntax"}, {".a", "syntax"}, {"a.", "syntax"},
		{"_a", "security"}, {"a.__class__", "security"}, {"a._x.b", "security"},
	}
	for _, tc := range tests {
		_, err := ParsePath(tc.path)
		if got := errKind(err).String(); (err == nil && tc.kind != "") || (err != nil && got != tc.kind) {
			t.Errorf("%q: got %v, want %q", tc.path, err, tc.kind)
		}
	}
}

func TestListToDictKeyedByDuplicates(t *testing.T) {
	root := map[string]any{"l": []any{
		map[string]any{"k": "a", "v": 1}, map[string]any{"k": "b", "v": 2}, map[string]any{"k": "a", "v": 3},
	}}
	om, err := ListToDictKeyedBy(root, "l", "k")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(om.Keys, []string{"a", "b"}) || om.Values[0].(map[string]any)["v"] != 3 {
		t.Errorf("got %v %v", om.Keys, om.Values)
	}
	if _, err := WalkList(root, "l.0.k"); errKind(err).String() != "render" {
		t.Errorf("not a list: %v", err)
	}
	if v, err := WalkPath(root, "l.1.v"); err != nil || v != 2 {
		t.Errorf("index walk: %v %v", v, err)
	}
}
