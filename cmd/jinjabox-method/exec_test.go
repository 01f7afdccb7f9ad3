package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExecCommand drives exec on method files and JSON bundles in
// process.
func TestExecCommand(t *testing.T) {
	const td = "../../methodfile/testdata/"
	const real = td + "real/"
	tests := []struct {
		name   string
		args   []string
		status int
		stdout string // substrings, "|"-separated
		stderr string
	}{
		// A PipeFunc's function must be registered where the bundle
		// loads, as Pipelex refuses it at load: exec, which runs here,
		// refuses the functions only the workers register.
		{"exec refuses worker funcs", []string{"exec", "--worker-func", "word_stats", "--worker-func", "page_texts", td + "kinds.mthds", td + "sample_inputs.json"}, 1, "", `function "word_stats" is not registered`},
		{"exec mthds", []string{"exec", td + "sample_method.mthds", td + "sample_inputs.json"}, 0, `"name": "handle_tickets"|"summary": "3 replies for 3 tickets"`, ""},
		{"exec models", []string{"exec", "--models", td + "models_config.json", td + "models.mthds", td + "models_inputs.json"}, 0, `"concept": "triage.Answer"`, ""},
		{"exec broken", []string{"exec", td + "broken.mthds", td + "sample_inputs.json"}, 1, "", "broken.mthds:6:1: method, version: unknown_key"},
		{"exec text document", []string{"exec", td + "extract.mthds", td + "extract_inputs.json"}, 0, `"text": "1: Quarterly notes / Sales rose in the North region.\n2: The South region`, ""},
		{"exec docs dir", []string{"exec", "--docs", "../../workflows", td + "extract.mthds", td + "extract_inputs.json"}, 1, "", `pipe "pages.extract": unsupported extract request: cannot read`},
		{"exec another pipe", []string{"exec", "--pipe", "extract", td + "extract.mthds", td + "extract_inputs.json"}, 0, `"name": "extract"|"concept": "Page[]"`, ""},
		{"usage", []string{"exec", td + "sample_method.mthds"}, 2, "", "usage: jinjabox exec"},
		{"library run", []string{"exec", "-L", td + "library/common", "-L", td + "library/billing", td + "library/app", td + "library/app/inputs.json"}, 0, `"text": "Dear Ada, you owe 42."`, ""},
		{"exec needs a pipe", []string{"exec", real + "methods/methods/documents", td + "sample_inputs.json"}, 1, "", "no main_pipe; name one with --pipe"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, out, errOut := runCLI(t, tc.args...)
			if status != tc.status {
				t.Fatalf("status %d, want %d\nstdout %s\nstderr %s", status, tc.status, out, errOut)
			}
			for _, want := range strings.Split(tc.stdout, "|") {
				if !strings.Contains(out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, out)
				}
			}
			for _, want := range strings.Split(tc.stderr, "|") {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr lacks %q:\n%s", want, errOut)
				}
			}
		})
	}
}
