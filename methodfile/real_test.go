package methodfile

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/method"
)

// The real-bundle corpus: testdata/real holds real Pipelex bundles (the
// official methods library, Pipelex's own tests, the Pipelex cookbook,
// mthds-std, mthds-plugins and the two starters), each with the
// verdict Pipelex gives it and the rule that decides it in MANIFEST.json
// (docs/pipelex-rules.md cites every rule). jinjabox must give every
// bundle Pipelex's verdict (the newest Pipelex, as the manifest's
// "verdict"), for the same reason.

const realDir = "testdata/real"

// realEntry is one MANIFEST.json entry.
type realEntry struct {
	Path     string `json:"path"`
	Kind     string `json:"kind"`
	Upstream struct {
		Repo string `json:"repo"`
		Path string `json:"path"`
	} `json:"upstream"`
	Pipelex struct {
		Verdict  string   `json:"verdict"`
		Rule     string   `json:"rule"`
		Error    string   `json:"error"`
		MainPipe string   `json:"main_pipe"`
		Runnable *bool    `json:"runnable"`
		Warnings []string `json:"warnings"`
		Command  string   `json:"command"`
	} `json:"pipelex"`
}

func realEntries(t *testing.T) []realEntry {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(realDir, "MANIFEST.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Entries []realEntry `json:"entries"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	var out []realEntry
	for _, e := range m.Entries {
		if e.Kind == "bundle" {
			out = append(out, e)
		}
	}
	if len(out) < 66 {
		t.Fatalf("%d bundles in the corpus, want at least 66", len(out))
	}
	return out
}

// libDirs are the -L directories of the entry's Pipelex command, mapped
// from the upstream repository to the corpus.
func (e realEntry) libDirs() []string {
	prefix := map[string]string{
		"Pipelex/methods":                "methods",
		"Pipelex/pipelex":                "pipelex",
		"Pipelex/pipelex-cookbook":       "cookbook",
		"mthds-ai/mthds-std":             "mthds-std",
		"mthds-ai/mthds-plugins":         "mthds-plugins",
		"mthds-ai/mthds-starter-js":      "mthds-starter-js",
		"Pipelex/pipelex-starter-python": "pipelex-starter-python",
	}[e.Upstream.Repo]
	f := strings.Fields(e.Pipelex.Command)
	var out []string
	if strings.Contains(e.Path, "/additive_multi_file_library/") && !strings.Contains(e.Pipelex.Command, " -L ") && e.Pipelex.Rule != "concept-only bundle" {
		// Pipelex's test validates these directories whole
		// (validate_bundles_from_directory): each file is read in the
		// library of its directory.
		return []string{filepath.Dir(filepath.Join(realDir, e.Path))}
	}
	for i := 0; i+1 < len(f); i++ {
		if f[i] == "-L" {
			out = append(out, filepath.Join(realDir, prefix, f[i+1]))
		}
	}
	return out
}

// deciding is what the problem that makes each invalid bundle invalid
// says: the rule of the manifest, as jinjabox words it.
var deciding = map[string]string{
	"methods/methods/doc_summarizer/bundle.mthds":                                                                               "PipeParallel output must be Composite or a structured concept",
	"methods/methods/due_diligence/analysis.mthds":                                                                              "PipeParallel output must not be a list",
	"methods/methods/due_diligence/report.mthds":                                                                                `pipe "extract_all_documents" is not defined`,
	"methods/methods/rfp_qualifier/bundle.mthds":                                                                                "PipeParallel output must not be a list",
	"installed_layout/project/doc_summarizer/bundle.mthds":                                                                      "PipeParallel output must be Composite or a structured concept",
	"pipelex/tests/integration/pipelex/phase1_hierarchical_domains/invalid_fixtures/invalid_double_dot.mthds_invalid":           `domain "legal..contracts" is not snake_case`,
	"pipelex/tests/integration/pipelex/phase1_hierarchical_domains/invalid_fixtures/invalid_leading_dot.mthds_invalid":          `domain ".legal" is not snake_case`,
	"pipelex/tests/integration/pipelex/phase1_hierarchical_domains/invalid_fixtures/invalid_same_domain_pipe_ref.mthds_invalid": `pipe "my_domain.nonexistent_pipe" is not defined`,
	"pipelex/tests/integration/pipelex/phase1_hierarchical_domains/valid_fixtures/cross_domain_concept_refs.mthds":              "Inline `@clause` is not allowed",
	"pipelex/tests/integration/pipelex/phase1_hierarchical_domains/valid_fixtures/cross_domain_pipe_refs.mthds":                 "Inline `@clause` is not allowed",
	"pipelex/tests/integration/pipelex/phase1_hierarchical_domains/valid_fixtures/hierarchical_domain_deep.mthds":               "Inline `@clause` is not allowed",
	"pipelex/tests/integration/pipelex/phase1_hierarchical_domains/valid_fixtures/hierarchical_domain_nested.mthds":             "Inline `@clause` is not allowed",
	"pipelex/tests/integration/pipelex/phase1_hierarchical_domains/valid_fixtures/hierarchical_domain_single.mthds":             "Inline `@clause` is not allowed",
	"pipelex/tests/integration/pipelex/phase1_hierarchical_domains/valid_fixtures/scoring.mthds":                                "Inline `@clause` is not allowed",
	"pipelex/tests/data/fixes/native_redecl_table.mthds":                                                                        "native concept",
	"pipelex/tests/data/fixes/sequence_wrong_output.mthds":                                                                      "multiplicity",
	"pipelex/tests/data/fixes/controller_inputs_missing_table.mthds":                                                            `needs input "text"`,
	"pipelex/tests/data/fixes/strip_namespace_rename.mthds":                                                                     "carries its own domain",
	"pipelex/tests/integration/pipelex/pipes/controller/pipe_condition/pipe_condition_continue_output_type.mthds":               "must be optional",
	"cookbook/tutorial/medium/3_parallel_execution.mthds":                                                                       "PipeParallel output must be Composite or a structured concept",
	"cookbook/examples/b_basics/document_extract/extract_invoice/bundle.mthds":                                                  `input name "invoice_page.page_view" is not a plain snake_case name`,
	"cookbook/methods/qualify_bid/bundle.mthds":                                                                                 `input name "page.page_view" is not a plain snake_case name`,
	"mthds-std/methods/answer_from_documents/bundle.mthds":                                                                      "Inline `@question` is not allowed",
	"mthds-plugins/wip/bad_bundle.mthds":                                                                                        `pipe "build_scorecard" is not defined`,
}

// loadReal loads one corpus bundle as its Pipelex command does: alone,
// or with the -L directories; installed methods are found from the
// bundle's place (the corpus holds an installed layout), never from the
// machine running the test.
func loadReal(t *testing.T, e realEntry, opts Options) *Loaded {
	t.Helper()
	path := filepath.Join(realDir, e.Path)
	opts.LibraryDirs = e.libDirs()
	opts.MethodsDirs = corpusMethodsDirs(path)
	if strings.HasSuffix(path, ".mthds_invalid") {
		// Pipelex's test hands the file to validate_bundle directly.
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lib, err := Load(strings.TrimSuffix(path, "_invalid"), data, opts)
		rep := &method.Report{}
		for _, p := range method.Problems(err) {
			rep.Add(p)
		}
		return &Loaded{Library: lib, Report: rep}
	}
	ld, err := LoadLibrary([]string{path}, opts)
	if err != nil {
		t.Fatalf("%s: %v", e.Path, err)
	}
	return ld
}

// corpusMethodsDirs are the .mthds/methods directories above a bundle,
// up to the corpus root: Pipelex's walk-up, kept inside the corpus.
func corpusMethodsDirs(path string) []string {
	var out []string
	root, _ := filepath.Abs(realDir)
	abs, _ := filepath.Abs(path)
	for d := filepath.Dir(abs); strings.HasPrefix(d, root); d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, MethodsDir)); err == nil && st.IsDir() {
			out = append(out, filepath.Join(d, MethodsDir))
		}
	}
	return out
}

// TestRealBundleVerdicts: every corpus bundle gets Pipelex's verdict,
// the invalid ones for the manifest's reason, and the valid ones carry
// the warnings Pipelex gives (a missing installed method, pending
// signatures).
func TestRealBundleVerdicts(t *testing.T) {
	agree := 0
	entries := realEntries(t)
	for _, e := range entries {
		t.Run(e.Path, func(t *testing.T) {
			ld := loadReal(t, e, Options{})
			errs := ld.Report.Errors()
			got := "valid"
			if len(errs) > 0 {
				got = "invalid"
			}
			if got != e.Pipelex.Verdict {
				for _, p := range ld.Report.Problems {
					t.Log(p)
				}
				t.Fatalf("jinjabox says %s, Pipelex says %s (%s)", got, e.Pipelex.Verdict, e.Pipelex.Rule)
			}
			if want := deciding[e.Path]; got == "invalid" {
				found := false
				for _, p := range errs {
					found = found || strings.Contains(p.Error(), want)
				}
				if want == "" || !found {
					for _, p := range errs {
						t.Log(p)
					}
					t.Fatalf("no problem says %q (the manifest's rule: %s)", want, e.Pipelex.Error)
				}
				agree++
				return
			}
			missing := strings.Contains(strings.Join(e.Pipelex.Warnings, " "), "No installed method found")
			if missing != (len(ld.Library.Missing) > 0) {
				t.Errorf("missing methods %v, Pipelex warns %v", ld.Library.Missing, e.Pipelex.Warnings)
			}
			if missing && len(ld.Report.Warnings()) == 0 {
				t.Error("no warning for the missing method")
			}
			if e.Pipelex.MainPipe != "" && !strings.HasSuffix(ld.Library.Main, "."+e.Pipelex.MainPipe) {
				t.Errorf("main pipe %q, want %s", ld.Library.Main, e.Pipelex.MainPipe)
			}
			pending := len(ld.Signatures()) > 0
			if wantPending := strings.Contains(strings.Join(e.Pipelex.Warnings, " "), "runnable"); pending != wantPending {
				t.Errorf("pending signatures %v, Pipelex warns %v", ld.Signatures(), e.Pipelex.Warnings)
			}
			agree++
		})
	}
	t.Logf("%d of %d real bundles get Pipelex's verdict", agree, len(entries))
	checkSummary(t, entries, agree)
}

// realSummary is MANIFEST.json's summary: the corpus as it is now.
type realSummary struct {
	Bundles           int `json:"bundles"`
	Manifests         int `json:"manifests"`
	PipelexValid      int `json:"pipelex_valid"`
	PipelexInvalid    int `json:"pipelex_invalid"`
	JinjaboxAgrees    int `json:"jinjabox_agrees"`
	JinjaboxDisagrees int `json:"jinjabox_disagrees"`
}

// checkSummary fails when a figure of the manifest's summary is not the
// one this run computes, so the summary cannot go stale (it once
// described jinjabox at 9368a4a long after; that is now
// history_at_9368a4a).
func checkSummary(t *testing.T, bundles []realEntry, agree int) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(realDir, "MANIFEST.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Entries []struct {
			Kind string `json:"kind"`
		} `json:"entries"`
		Summary realSummary `json:"summary"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	got := realSummary{Bundles: len(bundles), JinjaboxAgrees: agree, JinjaboxDisagrees: len(bundles) - agree}
	for _, e := range m.Entries {
		if e.Kind == "manifest" {
			got.Manifests++
		}
	}
	for _, e := range bundles {
		switch e.Pipelex.Verdict {
		case "valid":
			got.PipelexValid++
		case "invalid":
			got.PipelexInvalid++
		}
	}
	if got != m.Summary {
		t.Errorf("MANIFEST.json summary %+v, this run computes %+v: update the summary", m.Summary, got)
	}
}

// TestRealBundlesRun runs every bundle Pipelex calls runnable, from its
// main pipe (or the one pipe its file defines), with the local provider
// (placeholders for image generation and search) on inputs made from
// the pipe's declared inputs.
func TestRealBundlesRun(t *testing.T) {
	ran := 0
	for _, e := range realEntries(t) {
		if e.Pipelex.Runnable == nil || !*e.Pipelex.Runnable {
			continue
		}
		t.Run(e.Path, func(t *testing.T) {
			ld := loadReal(t, e, Options{})
			if err := ld.Report.Err(); err != nil {
				t.Fatal(err)
			}
			entry := ld.Library.Main
			if entry == "" {
				b := ld.Targets[0]
				for _, code := range sortedCodes(b.Pipes) {
					entry = method.RefOf("", b.Domain, code)
					break
				}
			}
			runReal(t, ld.Library, entry)
			ran++
		})
	}
	if ran == 0 {
		t.Fatal("no runnable bundle ran")
	}
}

// TestRealBundlesRunEveryPipe runs, in every valid bundle Pipelex does
// not call runnable (no main_pipe, a method not installed, pending
// signatures), each pipe of the bundle's own that can run: not skipped
// for a missing method, not a PipeSignature, not reaching one. So every
// valid bundle of the corpus that has a runnable pipe is run.
func TestRealBundlesRunEveryPipe(t *testing.T) {
	ran, bundles := 0, 0
	for _, e := range realEntries(t) {
		if e.Pipelex.Verdict != "valid" || (e.Pipelex.Runnable != nil && *e.Pipelex.Runnable) {
			continue
		}
		t.Run(e.Path, func(t *testing.T) {
			ld := loadReal(t, e, Options{})
			if err := ld.Report.Err(); err != nil {
				t.Fatal(err)
			}
			cannot := ld.cannotRun()
			b := ld.Targets[0]
			n := 0
			for _, code := range sortedCodes(b.Pipes) {
				ref := method.RefOf("", b.Domain, code)
				if ld.reaches(ref, cannot) {
					continue
				}
				t.Run(code, func(t *testing.T) {
					runReal(t, ld.Library, ref)
					n++
				})
			}
			if n > 0 {
				bundles++
			}
			ran += n
			t.Logf("%d of %d pipes ran", n, len(b.Pipes))
		})
	}
	t.Logf("%d pipes of %d bundles Pipelex does not call runnable ran", ran, bundles)
	if ran == 0 {
		t.Fatal("no pipe ran")
	}
}

// runReal runs one pipe of a corpus library both ways (runBothWays) with
// the local provider on inputs made from its declared inputs, and skips
// the test when the local provider cannot serve it (none does today).
func runReal(t *testing.T, lib *method.Library, entry string) {
	t.Helper()
	pe, ok := lib.Pipe(entry)
	if !ok {
		t.Fatalf("no pipe %q", entry)
	}
	mem := sampleInputs(lib, pe)
	docs := t.TempDir()
	if err := os.WriteFile(filepath.Join(docs, "document.txt"), []byte("Page one of the sample document.\fPage two: the end."), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &method.Runner{Library: lib, Provider: method.LocalProvider{Files: os.DirFS(docs), Simulate: true}, Funcs: realFuncs}
	res, err := runBothWays(t, r, entry, mem)
	if err != nil {
		var ue *method.UnsupportedError
		if errors.As(err, &ue) {
			t.Skipf("the local provider cannot serve %s: %v", entry, err)
		}
		t.Fatalf("%s: %v", entry, err)
	}
	if res.Output == nil && pe.Pipe.Output != "" && !method.ParseConceptSpec(pe.Pipe.Output).Optional {
		t.Fatalf("%s: no output", entry)
	}
	b, _ := json.Marshal(res.Output)
	t.Logf("%s: %d requests, output %.200s", entry, len(res.Requests), b)
}

// realFuncs are the PipeFunc functions the corpus names (none today).
var realFuncs = method.NewFuncRegistry()

// sampleInputs makes run inputs from a pipe's declared inputs: text for
// text-like concepts, a text document, an image URL, an object with
// every field of a structured concept, two items for a list.
func sampleInputs(lib *method.Library, e *method.PipeEntry) *method.Memory {
	mem := method.NewMemory()
	cs := lib.Concepts()
	for _, name := range e.Pipe.InputNames() {
		spec := method.ParseConceptSpec(e.Pipe.Inputs[name])
		one := func(i int) any { return sampleContent(cs, spec.Name, name, i, 0) }
		var content any
		if spec.List {
			n := spec.Count
			if n == 0 {
				n = 2
			}
			items := make([]any, n)
			for i := range items {
				items[i] = one(i)
			}
			content = items
		} else {
			content = one(0)
		}
		mem = mem.With(method.Stuff{Name: name, Concept: e.Pipe.Inputs[name], Content: content})
	}
	return mem
}

func sampleContent(cs method.Concepts, concept, name string, i, depth int) any {
	switch cs.Base(concept) {
	case method.ConceptText, method.ConceptHTML:
		return "sample " + name + " " + itoa(i+1)
	case method.ConceptDocument:
		return &value.OrderedMap{Keys: []string{"url", "mime_type"}, Values: []any{"document.txt", "text/plain"}}
	case method.ConceptImage:
		return &value.OrderedMap{Keys: []string{"url"}, Values: []any{"https://example.com/" + name + ".png"}}
	case method.ConceptNumber:
		return int64(i + 1)
	case method.ConceptYesNo:
		return true
	case method.ConceptPage: // what PipeExtract gives (method/concept.go)
		text := &value.OrderedMap{Keys: []string{"text"}, Values: []any{"sample page " + itoa(i+1)}}
		return &value.OrderedMap{Keys: []string{"text_and_images"}, Values: []any{
			&value.OrderedMap{Keys: []string{"text", "images"}, Values: []any{text, []any{}}}}}
	}
	fields := cs.Fields(concept)
	if len(fields) == 0 || depth > 3 {
		return "sample " + name
	}
	om := &value.OrderedMap{}
	for _, f := range fields {
		var v any
		switch f.Type {
		case "integer":
			v = int64(i + 1)
		case "number":
			v = float64(i) + 0.5
		case "boolean":
			v = i%2 == 0
		case "list":
			v = []any{"a", "b"}
		case "dict", "object":
			v = &value.OrderedMap{}
		case "date":
			v = "2026-01-0" + itoa(i+1)
		case "concept":
			v = sampleContent(cs, f.ConceptRef, f.Name, i, depth+1)
		case "text", "":
			v = f.Name + " " + itoa(i+1)
			if len(f.Choices) > 0 {
				v = f.Choices[0]
			}
		default:
			v = sampleContent(cs, f.Type, f.Name, i, depth+1)
		}
		om.Keys = append(om.Keys, f.Name)
		om.Values = append(om.Values, v)
	}
	return om
}
