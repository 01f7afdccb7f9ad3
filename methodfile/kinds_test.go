package methodfile

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/method"
)

// testFuncs are the Go functions the test methods call (PipeFunc): what
// an application registers on its worker.
func testFuncs(t *testing.T) *method.FuncRegistry {
	t.Helper()
	reg := method.NewFuncRegistry()
	pagesText := func(call method.FuncCall) []string {
		var out []string
		for _, p := range call.Inputs["pages"].Content.([]any) {
			v, err := method.WalkPath(p, "text_and_images.text.text")
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
	must(reg.Register("word_stats", func(_ context.Context, call method.FuncCall) (any, error) {
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
	must(reg.Register("page_texts", func(_ context.Context, call method.FuncCall) (any, error) {
		return pagesText(call), nil
	}))
	must(reg.Register("shout", func(_ context.Context, call method.FuncCall) (any, error) {
		return nil, errors.New("no voice left")
	}))
	return reg
}

func loadInputs(t *testing.T, path string) *method.Memory {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	mem, err := method.LoadInputs(data)
	if err != nil {
		t.Fatal(err)
	}
	return mem
}

func mustLoad(t *testing.T, path string, opts Options) *method.Library {
	t.Helper()
	m, err := LoadFileWith(path, opts)
	if err != nil {
		for _, p := range method.Problems(err) {
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
	m := mustLoad(t, "testdata/kinds.mthds", Options{})
	r := &method.Runner{Library: m, Provider: method.LocalProvider{Files: os.DirFS("testdata")}, Funcs: reg}
	// every child on its library subset and memory gives the same output
	res, err := runBothWays(t, r, m.Main, loadInputs(t, "testdata/kinds_inputs.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := `[["title","Report on Quarterly notes by Ada"],["words",26],["level","medium"],` +
		`["reviews","- Short section: Quarterly notes\n- A long section (17 words):\n- Short section: End.\n"],` +
		`["meta",[["version",1],["draft",false],["tags",["a","b"]],["cover",""]]]]`
	if got := contentJSON(res.Output.Content); got != want {
		t.Errorf("output\n got %s\nwant %s", got, want)
	}
	if res.Output.Concept != "kinds.Report" {
		t.Errorf("concept %q", res.Output.Concept)
	}
	if len(res.Requests) != 1 || res.Requests[0].Kind != method.RequestExtract {
		t.Errorf("requests %+v", res.Requests)
	}
	// The parallel step alone: its combined output, and each branch's
	// output added to its caller's memory (add_each_output).
	pages, err := r.RunPipe(context.Background(), "read_document", loadInputs(t, "testdata/kinds_inputs.json"))
	if err != nil {
		t.Fatal(err)
	}
	pg := *pages.Output
	pg.Name = "pages"
	an, err := r.RunPipe(context.Background(), "analyse", method.NewMemory(pg))
	if err != nil {
		t.Fatal(err)
	}
	if om, ok := an.Output.Content.(*value.OrderedMap); !ok || strings.Join(om.Keys, ",") != "stats,sections,heading" {
		t.Errorf("combined output %s", contentJSON(an.Output.Content))
	}
	var added []string
	for _, a := range an.Added {
		added = append(added, a.Name)
	}
	if strings.Join(added, ",") != "stats,sections,heading" {
		t.Errorf("added %v", added)
	}
}

// TestKindsRunErrors: run-time refusals name the pipe and field.
func TestKindsRunErrors(t *testing.T) {
	reg := testFuncs(t)
	m := mustLoad(t, "testdata/kinds.mthds", Options{})
	tests := []struct {
		name, inputs, pipe, field, detail string
	}{
		{"required document missing", `{"author": "Ada"}`, "kinds.report", "inputs", "required input \"document\""},
		{"pdf refused", `{"document": {"concept": "native.PDF", "content": {"url": "x.pdf", "mime_type": "application/pdf"}}}`, "kinds.read_document", "provider", "text documents only"},
		{"network refused", `{"document": {"concept": "Document", "content": {"url": "https://example.com/a.txt"}}}`, "kinds.read_document", "provider", "no network"},
		{"escape refused", `{"document": {"concept": "Document", "content": {"url": "../../go.mod", "mime_type": "text/plain"}}}`, "kinds.read_document", "provider", "leaves the documents directory"},
		{"page count", `{"document": {"concept": "Document", "content": {"url": "data:text/plain,one%0Cpage%20two"}}}`, "kinds.heading", "inputs", "has 2 items"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem, err := method.LoadInputs([]byte(tc.inputs))
			if err != nil {
				t.Fatal(err)
			}
			r := &method.Runner{Library: m, Provider: method.LocalProvider{Files: os.DirFS("testdata")}, Funcs: reg}
			_, err = runBothWays(t, r, m.Main, mem)
			var re *method.RunError
			if !errors.As(err, &re) || re.Pipe != tc.pipe || re.Field != tc.field || !strings.Contains(err.Error(), tc.detail) {
				t.Fatalf("want a RunError at %s/%s with %q, got %v", tc.pipe, tc.field, tc.detail, err)
			}
			if tc.field == "provider" {
				var ue *method.UnsupportedError
				if !errors.As(err, &ue) || ue.Pipe != tc.pipe {
					t.Errorf("want an UnsupportedError naming %q, got %v", tc.pipe, err)
				}
			}
		})
	}
}
