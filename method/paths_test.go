package method

import (
	"bufio"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/jinjabox/jinjabox/engine/value"
)

// hostileDir holds the shared, read-only hostile corpus.
const hostileDir = "../../shared/hostile"

type pathCase struct {
	ID      string          `json:"id"`
	Field   string          `json:"field"`
	Path    string          `json:"path"`
	Key     string          `json:"key"`
	Context json.RawMessage `json:"context"`
	Expect  struct {
		Value json.RawMessage `json:"value"`
		Error string          `json:"error"`
	} `json:"expect"`
}

// RunPathCase walks one paths.jsonl case and returns the value (as plain
// JSON-compatible data) or the error.
func runPathCase(c pathCase) (any, error) {
	ctx, err := value.DecodeJSON(c.Context)
	if err != nil {
		return nil, err
	}
	return EvalPathCase(c.Field, c.Path, c.Key, ctx)
}

func TestHostilePaths(t *testing.T) {
	f, err := os.Open(hostileDir + "/paths.jsonl")
	if err != nil {
		t.Skip("hostile corpus not present:", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var c pathCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		n++
		t.Run(c.ID, func(t *testing.T) {
			got, err := runPathCase(c)
			if c.Expect.Error != "" {
				if err == nil {
					t.Fatalf("want %s error, got value %v", c.Expect.Error, got)
				}
				if k := errKind(err).String(); k != c.Expect.Error {
					t.Fatalf("want %s error, got %s: %v", c.Expect.Error, k, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(c.Expect.Value) == "null" || len(c.Expect.Value) == 0 {
				return
			}
			var want any
			if err := json.Unmarshal(c.Expect.Value, &want); err != nil {
				t.Fatal(err)
			}
			gotJSON, _ := json.Marshal(plainJSON(got))
			var gotPlain any
			_ = json.Unmarshal(gotJSON, &gotPlain)
			if !reflect.DeepEqual(gotPlain, want) {
				t.Errorf("got %s, want %s", gotJSON, c.Expect.Value)
			}
		})
	}
	if n == 0 {
		t.Fatal("no cases")
	}
}

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
