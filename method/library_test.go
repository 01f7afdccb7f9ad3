package method

import (
	"strings"
	"testing"
)

// bundleOf decodes a JSON bundle for library tests.
func bundleOf(t *testing.T, src string) *Bundle {
	t.Helper()
	b, err := LoadBundle([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// problemsOf lists a library's problems as "severity code message".
func problemsOf(l *Library) []string {
	var out []string
	for _, p := range l.Validate(ValidateOptions{}).Problems {
		out = append(out, p.Severity.String()+" "+p.Code+" "+p.Message)
	}
	return out
}

// TestLibraryDomains: bundles of one domain merge; a bare reference
// names its own domain only, a qualified one any loaded domain; concept
// references become canonical.
func TestLibraryDomains(t *testing.T) {
	a := bundleOf(t, `{"domain": "legal", "concepts": {"Clause": {"description": "c"}}, "pipes": {
		"extract": {"type": "PipeLLM", "inputs": {"doc": "Text"}, "output": "Clause", "prompt": "$doc"}}}`)
	b := bundleOf(t, `{"domain": "legal", "pipes": {
		"review": {"type": "PipeSequence", "inputs": {"doc": "Text"}, "output": "Clause", "steps": [{"pipe": "extract"}]}}}`)
	c := bundleOf(t, `{"domain": "app", "pipes": {
		"run": {"type": "PipeSequence", "inputs": {"doc": "Text"}, "output": "legal.Clause", "steps": [{"pipe": "legal.review"}]},
		"bare": {"type": "PipeSequence", "inputs": {"doc": "Text"}, "output": "Text", "steps": [{"pipe": "review"}]}}}`)
	l := NewLibrary([]*Bundle{a, b, c})
	got := problemsOf(l)
	if len(got) != 1 || !strings.Contains(got[0], `pipe "review" is not defined`) {
		t.Fatalf("problems %q", got)
	}
	if b.Pipes["review"].Output != "legal.Clause" || c.Pipes["run"].Output != "legal.Clause" || a.Pipes["extract"].Inputs["doc"] != "Text" {
		t.Errorf("concept references not canonical: %q %q %q", b.Pipes["review"].Output, c.Pipes["run"].Output, a.Pipes["extract"].Inputs["doc"])
	}
	if e, err := l.EntryPipe("run"); err != nil || e.Ref != "app.run" {
		t.Errorf("entry run: %v %v", e, err)
	}
	a2 := bundleOf(t, `{"domain": "other", "pipes": {"run": {"type": "PipeCompose", "output": "Text", "template": "x"}}}`)
	l2 := NewLibrary([]*Bundle{c, a2})
	if _, err := l2.EntryPipe("run"); err == nil || !strings.Contains(err.Error(), "ambiguous") {
		t.Errorf("an ambiguous entry: %v", err)
	}
	if e, err := l2.EntryPipe("other.run"); err != nil || e.Domain != "other" {
		t.Errorf("a qualified entry: %v %v", e, err)
	}
}

// TestLibraryDuplicatesAndSignatures: a pipe or concept defined twice in
// one domain is a problem; a signature and its definition reconcile when
// their contracts match by concept identity.
func TestLibraryDuplicatesAndSignatures(t *testing.T) {
	one := `{"domain": "d", "concepts": {"K": {"description": "k"}}, "pipes": {"p": {"type": "PipeCompose", "output": "Text", "template": "x"}}}`
	got := problemsOf(NewLibrary([]*Bundle{bundleOf(t, one), bundleOf(t, one)}))
	if len(got) != 2 || !strings.Contains(got[0], "also defined") || !strings.Contains(got[1], "also defined") {
		t.Errorf("duplicates: %q", got)
	}
	header := bundleOf(t, `{"domain": "r", "concepts": {"K": {"description": "k"}}, "pipes": {"f": {"inputs": {"doc": "Text"}, "output": "K"}}}`)
	def := bundleOf(t, `{"domain": "r", "pipes": {"f": {"type": "PipeLLM", "inputs": {"doc": "native.Text"}, "output": "r.K", "prompt": "$doc"}}}`)
	l := NewLibrary([]*Bundle{header, def})
	if got := problemsOf(l); len(got) != 0 {
		t.Errorf("reconciled: %q", got)
	}
	if e, _ := l.Pipe("r.f"); e.Pipe.Type != KindLLM {
		t.Errorf("the definition does not replace the signature: %+v", e.Pipe)
	}
	bad := bundleOf(t, `{"domain": "r", "pipes": {"f": {"type": "PipeLLM", "inputs": {"doc": "Number"}, "output": "r.K", "prompt": "$doc"}}}`)
	if got := problemsOf(NewLibrary([]*Bundle{bundleOf(t, `{"domain": "r", "concepts": {"K": {"description": "k"}}, "pipes": {"f": {"inputs": {"doc": "Text"}, "output": "K"}}}`), bad})); len(got) != 1 || !strings.Contains(got[0], "differ from its signature") {
		t.Errorf("a mismatched definition: %q", got)
	}
}

// TestLibraryInstalledMethods: an address reference resolves among the
// installed methods (case-insensitively), an unexported pipe is refused,
// and a missing method is a warning that skips the pipes needing it.
func TestLibraryInstalledMethods(t *testing.T) {
	own := bundleOf(t, `{"domain": "app", "pipes": {
		"use": {"type": "PipeSequence", "inputs": {"doc": "Text"}, "output": "Text", "steps": [{"pipe": "github.com/Org/repo/docs->docs.read"}]},
		"hidden": {"type": "PipeSequence", "inputs": {"doc": "Text"}, "output": "Text", "steps": [{"pipe": "github.com/org/repo/docs->docs.internal"}]},
		"caller": {"type": "PipeSequence", "inputs": {"doc": "Text"}, "output": "Text", "steps": [{"pipe": "away"}]},
		"away": {"type": "PipeSequence", "inputs": {"doc": "Text"}, "output": "Text", "steps": [{"pipe": "github.com/org/missing/x->x.y"}]}}}`)
	dep := bundleOf(t, `{"domain": "docs", "pipes": {
		"read": {"type": "PipeCompose", "inputs": {"doc": "Text"}, "output": "Text", "template": "$doc"},
		"internal": {"type": "PipeCompose", "inputs": {"doc": "Text"}, "output": "Text", "template": "$doc"}}}`)
	l := NewLibrary([]*Bundle{own}, &InstalledMethod{Address: "github.com/org/repo/docs", Bundles: []*Bundle{dep}, Exports: []string{"docs.read"}})
	l.Missing = []string{"github.com/org/missing/x"}
	r := l.Validate(ValidateOptions{})
	var errs, warns []string
	for _, p := range r.Errors() {
		errs = append(errs, p.Pipe+": "+p.Message)
	}
	for _, p := range r.Warnings() {
		warns = append(warns, p.Pipe+": "+p.Message)
	}
	if len(errs) != 1 || !strings.Contains(errs[0], `hidden: pipe "github.com/org/repo/docs->docs.internal" is not exported`) {
		t.Errorf("errors %q", errs)
	}
	if len(warns) != 2 || !strings.HasPrefix(warns[0], "away: skipped") || !strings.HasPrefix(warns[1], "caller: skipped: it runs") {
		t.Errorf("warnings %q", warns)
	}
	if got := l.Resolve(&PipeEntry{Domain: "app"}, "github.com/Org/Repo/docs->docs.read"); got != "github.com/org/repo/docs->docs.read" {
		t.Errorf("resolved %q", got)
	}
}
