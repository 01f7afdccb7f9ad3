package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestMethodCommands drives validate and exec on method files and JSON
// bundles in process.
func TestMethodCommands(t *testing.T) {
	const td = "../../methodfile/testdata/"
	tests := []struct {
		name   string
		args   []string
		status int
		stdout string // substrings, "|"-separated
		stderr string
	}{
		{"validate mthds", []string{"validate", td + "sample_method.mthds"}, 0, "ok", ""},
		{"validate plx", []string{"validate", td + "legacy.plx"}, 0, "ok", ""},
		{"validate json", []string{"validate", "../../method/testdata/sample_method.json"}, 0, "ok", ""},
		{"validate models", []string{"validate", "--models", td + "models_config.json", td + "models.mthds"}, 0, "ok", ""},
		{"validate broken", []string{"validate", "--models", td + "models_config.json", td + "broken.mthds"}, 1,
			`broken.mthds:2:1: domain "Broken-Domain", domain: invalid_method|broken.mthds:45:14: pipe "Broken-Domain.summarise", prompt: undeclared_input|broken.mthds:135:1: pipe "Broken-Domain.strange", type: invalid_pipe`, "38 problem(s)"},
		{"validate broken json", []string{"validate", "../../method/testdata/broken_method.json"}, 1, `broken_method.json: pipe "bad_llm", prompt: undeclared_input`, "problem(s)"},
		{"validate missing", []string{"validate", td + "nope.mthds"}, 2, "", "no such file"},
		{"exec mthds", []string{"exec", td + "sample_method.mthds", td + "sample_inputs.json"}, 0, `"name": "handle_tickets"|"summary": "3 replies for 3 tickets"`, ""},
		{"exec models", []string{"exec", "--models", td + "models_config.json", td + "models.mthds", td + "models_inputs.json"}, 0, `"concept": "triage.Answer"`, ""},
		{"exec broken", []string{"exec", td + "broken.mthds", td + "sample_inputs.json"}, 1, "", "broken.mthds:5:1: method, version: unknown_key"},
		{"exec text document", []string{"exec", td + "extract.mthds", td + "extract_inputs.json"}, 0, `"text": "1: Quarterly notes / Sales rose in the North region.\n2: The South region`, ""},
		{"exec docs dir", []string{"exec", "--docs", "../../workflows", td + "extract.mthds", td + "extract_inputs.json"}, 1, "", `pipe "pages.extract": unsupported extract request: cannot read`},
		{"exec another pipe", []string{"exec", "--pipe", "extract", td + "extract.mthds", td + "extract_inputs.json"}, 0, `"name": "extract"|"concept": "Page[]"`, ""},
		{"validate unknown pipe", []string{"validate", "--pipe", "nope", td + "extract.mthds"}, 1, `pipe "nope" is not defined`, ""},
		{"usage", []string{"exec", td + "sample_method.mthds"}, 2, "", "usage: jinjabox exec"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			status := run(tc.args, strings.NewReader(""), &out, &errb)
			if status != tc.status {
				t.Fatalf("status %d, want %d\nstdout %s\nstderr %s", status, tc.status, out.String(), errb.String())
			}
			for _, want := range strings.Split(tc.stdout, "|") {
				if !strings.Contains(out.String(), want) {
					t.Errorf("stdout lacks %q:\n%s", want, out.String())
				}
			}
			for _, want := range strings.Split(tc.stderr, "|") {
				if !strings.Contains(errb.String(), want) {
					t.Errorf("stderr lacks %q:\n%s", want, errb.String())
				}
			}
		})
	}
}
