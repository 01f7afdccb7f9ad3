package method

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestNativeConceptsSorted(t *testing.T) {
	if !slices.IsSorted(NativeConcepts) {
		t.Fatal("NativeConcepts must stay sorted (IsNativeConcept searches it)")
	}
	for _, n := range []string{"Text", "Document", "PDF", "Page", "JSON", "YesNo", "Choice", "Rating", "SearchResult", "Anything", "Composite", "Image", "Number"} {
		if !IsNativeConcept(n) {
			t.Errorf("%s is not native", n)
		}
	}
}

func TestConceptSpecs(t *testing.T) {
	tests := []struct {
		in   string
		want ConceptSpec
		bad  bool
	}{
		{"Text", ConceptSpec{Name: "Text"}, false},
		{"Ticket[]", ConceptSpec{Name: "Ticket", List: true}, false},
		{"Ticket[5]", ConceptSpec{Name: "Ticket", List: true, Count: 5}, false},
		{"Ticket?", ConceptSpec{Name: "Ticket", Optional: true}, false},
		{"Ticket!", ConceptSpec{Name: "Ticket", Required: true}, false},
		{"Ticket[]?", ConceptSpec{Name: "Ticket", List: true, Optional: true}, false},
		{"Ticket[2]!", ConceptSpec{Name: "Ticket", List: true, Count: 2, Required: true}, false},
		{"native.Text", ConceptSpec{Name: "native.Text"}, false},
		{"support.Ticket[]", ConceptSpec{Name: "support.Ticket", List: true}, false},
		{"Ticket[0]", ConceptSpec{Name: "Ticket[0]"}, true},
		{"Ticket[x]", ConceptSpec{Name: "Ticket[x]"}, true},
		{"Ticket?!", ConceptSpec{Name: "Ticket?", Required: true}, true},
		{"ticket", ConceptSpec{Name: "ticket"}, true},
		{"Bad-Domain.Ticket", ConceptSpec{Name: "Bad-Domain.Ticket"}, true},
		{"", ConceptSpec{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got := ParseConceptSpec(tc.in)
			if got != tc.want {
				t.Errorf("ParseConceptSpec = %+v, want %+v", got, tc.want)
			}
			if err := CheckConceptSpec(tc.in); (err != nil) != tc.bad {
				t.Errorf("CheckConceptSpec = %v, want bad=%v", err, tc.bad)
			}
			if !tc.bad && got.String() != tc.in {
				t.Errorf("String = %q", got.String())
			}
		})
	}
}

func TestBaseConcept(t *testing.T) {
	concepts := map[string]*Concept{
		"Email":    {Refines: "Text"},
		"Note":     {},
		"Scan":     {Refines: "native.Image"},
		"Contract": {Refines: "PDF"},
		"Team":     {Refines: "Choice"},
		"Reply":    {Fields: []Field{{Name: "a", Type: "text"}}},
		"Loop":     {Refines: "Loop2"},
		"Loop2":    {Refines: "Loop"},
		"Prompt":   {Refines: "images.ImgGenPrompt"},
	}
	cs := NewLibrary([]*Bundle{{Concepts: concepts}}).Concepts()
	for name, want := range map[string]string{
		"Email": "Text", "Note": "Text", "Scan": "Image", "Contract": "Document", "Team": "Choice",
		"Reply": "Reply", "native.Text": "Text", "Prompt": "Text", "Unknown": "Unknown",
	} {
		if got := cs.Base(name); got != want {
			t.Errorf("Base(%s) = %s, want %s", name, got, want)
		}
	}
	_ = cs.Base("Loop") // a cycle ends
	if c := cs.class("Scan"); c != "ImageContent" {
		t.Errorf("class of an Image refinement %q", c)
	}
}

func TestModelConfigResolve(t *testing.T) {
	mc := &ModelConfig{
		Presets:    map[string]string{"writing": "@large", "loop": "$loop"},
		Aliases:    map[string]string{"large": "model-l", "small": "model-s"},
		Waterfalls: map[string][]string{"safe": {"@large", "~inner", "model-x"}, "inner": {"@small"}},
	}
	tests := []struct {
		ref, model, fallbacks, err string
	}{
		{"gpt-4o", "gpt-4o", "", ""},
		{"$writing", "model-l", "", ""},
		{"@small", "model-s", "", ""},
		{"~safe", "model-l", "model-s,model-x", ""},
		{"$nope", "", "", "unknown model preset"},
		{"@nope", "", "", "unknown model alias"},
		{"~nope", "", "", "unknown model waterfall"},
		{"$loop", "", "", "deeper than 8"},
		{"@", "", "", "empty model reference"},
		{"has space", "", "", "malformed"},
	}
	for _, tc := range tests {
		t.Run(tc.ref, func(t *testing.T) {
			got, err := mc.Resolve(tc.ref)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("want %q, got %v", tc.err, err)
				}
				return
			}
			if err != nil || got.Model != tc.model || strings.Join(got.Fallbacks, ",") != tc.fallbacks {
				t.Errorf("got %+v, %v", got, err)
			}
		})
	}
}

func TestLoadInputsShapes(t *testing.T) {
	tests := []struct {
		name, src, concept, content, err string
	}{
		{"qualified", `{"d": {"concept": "native.Document", "content": {"url": "a.txt"}}}`, "Document", `{"url":"a.txt"}`, ""},
		{"domain", `{"d": {"concept": "support.Ticket[]", "content": []}}`, "support.Ticket[]", `[]`, ""}, // resolved when a run starts
		{"array", `{"l": [{"concept": "native.Text", "content": "a"}, {"concept": "Text", "content": {"text": "b"}}]}`, "Text[]", `[{"text":"a"},{"text":"b"}]`, ""},
		{"array of strings", `{"l": ["a", "b"]}`, "Text[]", `[{"text":"a"},{"text":"b"}]`, ""},
		{"mixed array", `{"l": [{"concept": "Text", "content": "a"}, {"concept": "Image", "content": "u"}]}`, "", "", "not \"Text\""},
		{"nested list item", `{"l": [{"concept": "Text[]", "content": []}]}`, "", "", "cannot be a list"},
		{"bad item key", `{"l": [{"kind": "Text"}]}`, "", "", "unknown key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem, err := LoadInputs([]byte(tc.src))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("want %q, got %v", tc.err, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			st, _ := mem.Get(mem.Names()[0])
			if st.Concept != tc.concept || contentJSON(t, &st) != tc.content {
				t.Errorf("got %s %s", st.Concept, contentJSON(t, &st))
			}
		})
	}
}

func TestLocalExtract(t *testing.T) {
	files := fstest.MapFS{
		"doc.txt":  {Data: []byte("page one\r\nline two\fpage two\n")},
		"doc.md":   {Data: []byte("# Title\n")},
		"scan.pdf": {Data: []byte("%PDF-1.7")},
		"bin.txt":  {Data: []byte{0xff, 0xfe}},
	}
	tests := []struct {
		name   string
		doc    DocumentRef
		output string
		want   string // content JSON, or an error substring after "!"
	}{
		{"pages", DocumentRef{URL: "doc.txt"}, "Page[]", `[{"text_and_images":{"text":{"text":"page one\nline two"},"images":[]}},{"text_and_images":{"text":{"text":"page two"},"images":[]}}]`},
		{"file url", DocumentRef{URL: "file:///doc.md"}, "Page[]", `[{"text_and_images":{"text":{"text":"# Title"},"images":[]}}]`},
		{"as text", DocumentRef{URL: "doc.txt"}, "Text", `{"text":"page one\nline two\n\npage two"}`},
		{"data url", DocumentRef{URL: "data:text/plain;base64,aGVsbG8="}, "Page[]", `[{"text_and_images":{"text":{"text":"hello"},"images":[]}}]`},
		{"pdf", DocumentRef{URL: "scan.pdf"}, "Page[]", "!text documents only"},
		{"declared pdf", DocumentRef{URL: "doc.txt", MimeType: "application/pdf"}, "Page[]", "!text documents only"},
		{"not utf-8", DocumentRef{URL: "bin.txt"}, "Page[]", "!not UTF-8"},
		{"escape", DocumentRef{URL: "../doc.txt"}, "Page[]", "!leaves the documents directory"},
		{"network", DocumentRef{URL: "https://example.com/doc.txt"}, "Page[]", "!no network"},
		{"missing", DocumentRef{URL: "nope.txt"}, "Page[]", "!cannot read"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := NewLibrary([]*Bundle{{Pipes: map[string]*Pipe{"x": {Type: KindExtract, Inputs: map[string]string{"doc": "Document"}, Output: tc.output}}}})
			m.Main = "x"
			doc := map[string]any{"url": tc.doc.URL}
			if tc.doc.MimeType != "" {
				doc["mime_type"] = tc.doc.MimeType
			}
			res, err := (&Runner{Library: m, Provider: LocalProvider{Files: files}}).Run(context.Background(), NewMemory(Stuff{Name: "doc", Concept: "Document", Content: doc}))
			if strings.HasPrefix(tc.want, "!") {
				var ue *UnsupportedError
				if !errors.As(err, &ue) || ue.Pipe != "x" || !strings.Contains(err.Error(), tc.want[1:]) {
					t.Fatalf("want an UnsupportedError with %q, got %v", tc.want[1:], err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := contentJSON(t, res.Output); got != tc.want {
				t.Errorf("got %s", got)
			}
		})
	}
}

// TestParallelAndFunc: branches see the pipe's memory, not each other's
// results; results land in memory with add_each_output; a function error
// names the pipe and the function.
func TestParallelAndFunc(t *testing.T) {
	reg := NewFuncRegistry()
	if err := reg.Register("upper", func(_ context.Context, c FuncCall) (any, error) {
		s, _ := WalkPath(c.Inputs["a"].Content, "text")
		return strings.ToUpper(s.(string)), nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := reg.Register("upper", nil); err == nil {
		t.Error("registered twice")
	}
	_ = reg.Register("boom", func(context.Context, FuncCall) (any, error) { return nil, errors.New("bang") })
	_ = reg.Register("chan", func(context.Context, FuncCall) (any, error) { return make(chan int), nil })
	m := mustMethod(t, `{"main_pipe": "s", "pipes": {
		"s": {"type": "PipeSequence", "inputs": {"a": "Text"}, "steps": [{"pipe": "par"}, {"pipe": "join", "result": "j"}]},
		"par": {"type": "PipeParallel", "inputs": {"a": "Text"}, "add_each_output": true, "branches": [{"pipe": "up", "result": "u"}, {"pipe": "peek", "result": "p"}]},
		"up": {"type": "PipeFunc", "inputs": {"a": "Text"}, "output": "Text", "function_name": "upper"},
		"peek": {"type": "PipeCompose", "inputs": {"u": "Text?"}, "template": "{{ u is defined }}"},
		"join": {"type": "PipeCompose", "inputs": {"u": "Text", "p": "Text"}, "template": "{{ u }}/{{ p }}"},
		"boom": {"type": "PipeFunc", "function_name": "boom"},
		"chan": {"type": "PipeFunc", "function_name": "chan"}}}`)
	if err := m.Validate(ValidateOptions{}).Err(); err != nil {
		t.Fatal(err)
	}
	// Whether a function is registered is a run-time question (Pipelex).
	if _, err := (&Runner{Library: m, Provider: LocalProvider{}}).Run(context.Background(), mustInputs(t, `{"a": "hi"}`)); err == nil || !strings.Contains(err.Error(), "function \"upper\" is not registered") {
		t.Errorf("default registry: %v", err)
	} else if ue := (*UnavailableError)(nil); !errors.As(err, &ue) || ue.What != "function" {
		t.Errorf("not typed as an unavailable function: %#v", err)
	}
	r := &Runner{Library: m, Provider: LocalProvider{}, Funcs: reg}
	res, err := r.Run(context.Background(), mustInputs(t, `{"a": "hi"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := contentJSON(t, res.Output); got != `{"text":"HI/False"}` {
		t.Errorf("output %s", got)
	}
	for _, pipe := range []string{"boom", "chan"} {
		_, err = r.RunPipe(context.Background(), pipe, NewMemory())
		var fe *FuncError
		var re *RunError
		if !errors.As(err, &fe) || !errors.As(err, &re) || re.Pipe != pipe || fe.Func != pipe {
			t.Errorf("%s: %v", pipe, err)
		}
	}
}
