package methodfile

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/workflows"
)

// testFuncs are the Go functions the test methods call (PipeFunc): what
// an application registers on its worker.
func testFuncs(t *testing.T) *workflows.FuncRegistry {
	t.Helper()
	reg := workflows.NewFuncRegistry()
	pagesText := func(call workflows.FuncCall) []string {
		var out []string
		for _, p := range call.Inputs["pages"].Content.([]any) {
			v, err := workflows.WalkPath(p, "text_and_images.text.text")
			if err != nil {
				continue
			}
			out = append(out, v.(string))
		}
		return out
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(reg.Register("word_stats", func(_ context.Context, call workflows.FuncCall) (any, error) {
		text := strings.Join(pagesText(call), "\n")
		words := strings.Fields(text)
		longest := ""
		for _, w := range words {
			if len(w) > len(longest) {
				longest = w
			}
		}
		lines := strings.Count(text, "\n") + 1
		level := "short"
		if len(words) > 20 {
			level = "medium"
		}
		return map[string]any{"words": int64(len(words)), "lines": int64(lines), "longest": longest, "level": level, "long": len(words) > 100}, nil
	}))
	must(reg.Register("page_texts", func(_ context.Context, call workflows.FuncCall) (any, error) {
		return pagesText(call), nil
	}))
	must(reg.Register("shout", func(_ context.Context, call workflows.FuncCall) (any, error) {
		return nil, errors.New("no voice left")
	}))
	return reg
}

func loadInputs(t *testing.T, path string) *workflows.Memory {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	mem, err := workflows.LoadInputs(data)
	if err != nil {
		t.Fatal(err)
	}
	return mem
}

func mustLoad(t *testing.T, path string, opts Options) *workflows.Method {
	t.Helper()
	m, err := LoadFileWith(path, opts)
	if err != nil {
		for _, p := range Problems(err) {
			t.Error(p)
		}
		t.Fatal(err)
	}
	return m
}

func contentJSON(c any) string {
	b, _ := json.Marshal(plainOf(c))
	return string(b)
}

// TestKindsEndToEnd runs the model-free method: PipeExtract reads a text
// document for real, PipeParallel, PipeFunc, PipeBatch, PipeCondition
// (continue and fail outcomes), PipeSequence with a batch step, and both
// PipeCompose modes.
func TestKindsEndToEnd(t *testing.T) {
	reg := testFuncs(t)
	m := mustLoad(t, "testdata/kinds.mthds", Options{Funcs: reg})
	r := &workflows.Runner{Method: m, Provider: workflows.LocalProvider{Files: os.DirFS("testdata")}, Funcs: reg}
	res, err := r.Run(context.Background(), loadInputs(t, "testdata/kinds_inputs.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := `[["title","Report on Quarterly notes by Ada"],["words",26],["level","medium"],` +
		`["reviews","- Short section: Quarterly notes\n- A long section (17 words):\n- Short section: End.\n"],` +
		`["meta",[["version",1],["draft",false],["tags",["a","b"]],["cover",""]]]]`
	if got := contentJSON(res.Output.Content); got != want {
		t.Errorf("output\n got %s\nwant %s", got, want)
	}
	if res.Output.Concept != "Report" {
		t.Errorf("concept %q", res.Output.Concept)
	}
	if len(res.Requests) != 1 || res.Requests[0].Kind != workflows.RequestExtract {
		t.Errorf("requests %+v", res.Requests)
	}
	for _, name := range []string{"pages", "stats", "sections", "heading", "analysis", "reviews", "picked", "verdict", "report"} {
		if _, ok := res.Memory.Get(name); !ok {
			t.Errorf("memory lacks %q (has %v)", name, res.Memory.Names())
		}
	}
	an, _ := res.Memory.Get("analysis")
	if om, ok := an.Content.(*value.OrderedMap); !ok || strings.Join(om.Keys, ",") != "stats,sections,heading" {
		t.Errorf("combined output %s", contentJSON(an.Content))
	}
}

// TestKindsRunErrors: run-time refusals name the pipe and field.
func TestKindsRunErrors(t *testing.T) {
	reg := testFuncs(t)
	m := mustLoad(t, "testdata/kinds.mthds", Options{Funcs: reg})
	tests := []struct {
		name, inputs, pipe, field, detail string
	}{
		{"required document missing", `{"author": "Ada"}`, "report", "inputs", "required input \"document\""},
		{"pdf refused", `{"document": {"concept": "native.PDF", "content": {"url": "x.pdf", "mime_type": "application/pdf"}}}`, "read_document", "provider", "text documents only"},
		{"network refused", `{"document": {"concept": "Document", "content": {"url": "https://example.com/a.txt"}}}`, "read_document", "provider", "no network"},
		{"escape refused", `{"document": {"concept": "Document", "content": {"url": "../../go.mod", "mime_type": "text/plain"}}}`, "read_document", "provider", "leaves the documents directory"},
		{"page count", `{"document": {"concept": "Document", "content": {"url": "data:text/plain,one%0Cpage%20two"}}}`, "heading", "inputs", "has 2 items"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem, err := workflows.LoadInputs([]byte(tc.inputs))
			if err != nil {
				t.Fatal(err)
			}
			r := &workflows.Runner{Method: m, Provider: workflows.LocalProvider{Files: os.DirFS("testdata")}, Funcs: reg}
			_, err = r.Run(context.Background(), mem)
			var re *workflows.RunError
			if !errors.As(err, &re) || re.Pipe != tc.pipe || re.Field != tc.field || !strings.Contains(err.Error(), tc.detail) {
				t.Fatalf("want a RunError at %s/%s with %q, got %v", tc.pipe, tc.field, tc.detail, err)
			}
			if tc.field == "provider" {
				var ue *workflows.UnsupportedError
				if !errors.As(err, &ue) || ue.Pipe != tc.pipe {
					t.Errorf("want an UnsupportedError naming %q, got %v", tc.pipe, err)
				}
			}
		})
	}
}
