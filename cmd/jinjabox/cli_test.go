package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenderDataFormats: one page from the same data as JSON, YAML and
// TOML (by extension, by --format, on stdin) renders the same.
func TestRenderDataFormats(t *testing.T) {
	tpl := "testdata/cli/page.j2"
	yml, err := os.ReadFile("testdata/cli/data.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		stdin string
		args  []string
	}{
		{"", []string{"render", tpl, "testdata/cli/data.json"}},
		{"", []string{"render", tpl, "testdata/cli/data.yaml"}},
		{"", []string{"render", tpl, "testdata/cli/data.toml"}},
		{string(yml), []string{"render", "--format", "yaml", tpl, "-"}},
	} {
		code, out, errOut := runCLI(t, tc.stdin, tc.args...)
		if code != 0 || out != "Ada:21:3\n" {
			t.Errorf("%v: code %d, stdout %q, stderr %q", tc.args, code, out, errOut)
		}
	}
	// YAML keeps its key order (as yaml.safe_load's dict does)
	code, out, errOut := runCLI(t, "d:\n  z: 1\n  a: 2\n", "render", "--format", "yaml", "-t", "{% for k in d %}{{ k }}{% endfor %}", "-")
	if code != 0 || out != "za\n" {
		t.Errorf("yaml order: %d %q %q", code, out, errOut)
	}
	// an alias bomb is refused, not expanded
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
	if code, _, errOut := runCLI(t, bomb, "render", "--format", "yaml", "-t", "x", "-"); code != 2 || !strings.Contains(errOut, "entries") {
		t.Errorf("alias bomb: %d %q", code, errOut)
	}
}

// TestRenderDefinesAndTemplateString: -t renders a string; -D sets a
// string, -D KEY:=JSON a JSON value, after the data file.
func TestRenderDefinesAndTemplateString(t *testing.T) {
	code, out, errOut := runCLI(t, "", "render", "-t", "{{ name }} {{ n + 1 }} {{ l | length }}", "-D", "name=World", "--define", "n:=41", "-D", "l:=[1,2]")
	if code != 0 || out != "World 42 2\n" {
		t.Errorf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, _ = runCLI(t, "", "render", "-t", "{{ name }}", "testdata/cli/data.json", "-D", "name=Bob")
	if code != 0 || out != "Bob\n" {
		t.Errorf("a define overrides the data file: %d %q", code, out)
	}
	if code, _, errOut := runCLI(t, "", "render", "-t", "x", "-D", "n:=[1"); code != 2 || !strings.Contains(errOut, "--define n:=[1") {
		t.Errorf("bad JSON define: %d %q", code, errOut)
	}
}

// TestRenderOutputFile: -o writes the output only when the render
// succeeds; a refused render leaves the file as it was.
func TestRenderOutputFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	if code, out, _ := runCLI(t, "", "render", "-t", "ok", "-o", path); code != 0 || out != "" {
		t.Fatalf("code %d stdout %q", code, out)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "ok\n" {
		t.Fatalf("file %q %v", b, err)
	}
	if code, _, _ := runCLI(t, "", "render", "-t", "{{ 1 / 0 }}", "--output", path); code != 1 {
		t.Fatalf("a failing render: code %d", code)
	}
	if b, _ := os.ReadFile(path); string(b) != "ok\n" {
		t.Errorf("a failed render changed the file: %q", b)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

// TestRenderTemplatesHint: extends of a file next to the template, with
// no --templates, says where templates come from.
func TestRenderTemplatesHint(t *testing.T) {
	code, _, errOut := runCLI(t, "", "render", "testdata/cli/child.j2")
	if code != 1 || !strings.Contains(errOut, "template not found") || !strings.Contains(errOut, "hint: include, import and extends read the trusted templates of --templates DIR") {
		t.Errorf("code %d, stderr %q", code, errOut)
	}
}

// TestCheckJSONNotEscaped: check --json prints <, > and & as themselves.
func TestCheckJSONNotEscaped(t *testing.T) {
	f := writeFile(t, "c.jsonl", `{"id": "t/lt", "template": "{{ '<a&b>' }}", "context": {}, "options": {}, "expect": {"output": "<a&b>"}}`+"\n")
	code, out, _ := runCLI(t, "", "check", "--json", f)
	if code != 0 || !strings.Contains(out, `"output":"<a&b>"`) || strings.Contains(out, `\u003c`) {
		t.Errorf("code %d, stdout %q", code, out)
	}
}
