package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMethodCommands drives validate, inputs and render --pipelex on method files and JSON
// bundles in process.
func TestMethodCommands(t *testing.T) {
	const td = "../../methodfile/testdata/"
	const real = td + "real/"
	const sig = "pipelex/tests/e2e/pipelex/pipes/additive_multi_file_library/signature_only/"
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
			`broken.mthds:3:1: domain "Broken-Domain", domain: invalid_method|broken.mthds:50:14: pipe "Broken-Domain.summarise", prompt: undeclared_input|broken.mthds:142:1: pipe "Broken-Domain.strange", type: invalid_pipe|broken.mthds:68:1: pipe "Broken-Domain.count", function_name: invalid_pipe: function "not_registered" is not registered`, "44 problem(s)"},
		// A PipeFunc's function must be registered where the bundle loads, as
		// Pipelex refuses it at load (PipeFunc.validate_function_name): this
		// process registers none, so validate refuses them unless
		// --worker-func says the workers do; exec, which runs here, refuses them
		// (jinjabox-method's TestExecCommand).
		{"validate unregistered funcs", []string{"validate", "--json", td + "kinds.mthds"}, 1, `"valid": false|"runnable": false|function \"word_stats\" is not registered`, ""},
		{"validate worker funcs", []string{"validate", "--json", "--worker-func", "word_stats", "--worker-func", "page_texts", td + "kinds.mthds"}, 0, `"valid": true|"runnable": true`, ""},
		{"validate broken json", []string{"validate", "../../method/testdata/broken_method.json"}, 1, `broken_method.json: pipe "bad_llm", prompt: undeclared_input`, "problem(s)"},
		{"validate missing", []string{"validate", td + "nope.mthds"}, 2, "", "no such file"},
		{"validate unknown pipe", []string{"validate", "--pipe", "nope", td + "extract.mthds"}, 1, `pipe "nope" is not defined`, ""},
		// Libraries, as Pipelex assembles them.
		{"library of several directories", []string{"validate", td + "library/app", "-L", td + "library/common", "-L", td + "library/billing"}, 0, "ok", ""},
		{"library without its directories", []string{"validate", td + "library/app"}, 1, `pipe "billing.invoice_letter" is not defined`, ""},
		{"directory with one bundle", []string{"validate", real + "methods/methods/cv_analyzer"}, 0, "ok", ""},
		{"directory with several bundles", []string{"validate", real + "methods/methods/due_diligence"}, 2, "", "several .mthds files (analysis.mthds, report.mthds) and no bundle.mthds: pass the file"},
		{"not a method file", []string{"validate", td + "kinds_document.txt"}, 2, "", "is not a method file"},
		{"missing method: a warning, valid", []string{"validate", real + "methods/methods/compliance_checker"}, 0,
			`warning: pipe "compliance_checking.check_compliance": missing_method|ok`, ""},
		{"installed method found walking up", []string{"validate", real + "installed_layout/project/doc_summarizer"}, 1, "PipeParallel output must be Composite", ""},
		{"signatures are not runnable", []string{"validate", real + sig + "header.mthds", "-L", real + sig}, 1, "valid, but not runnable: PipeSignature(s) without implementation: research.find_key_findings", ""},
		{"signatures allowed", []string{"validate", "--allow-signatures", real + sig + "header.mthds", "-L", real + sig}, 0, "ok (1 signatures)", ""},
		{"json", []string{"validate", "--json", real + "methods/methods/compliance_checker"}, 0, `"valid": true|"runnable": false|"code": "missing_method"|"missing_methods": [`, ""},
		{"json invalid", []string{"validate", "--json", td + "broken.mthds"}, 1, `"valid": false|"exit": 1|"line": 3`, ""},
		// validate --dry-run runs every pipe on mock inputs, as pipelex validate does.
		{"dry run finds a type error", []string{"validate", "--dry-run", "testdata/dry_run_type_error.mthds"}, 1,
			`pipe "d.total": dry_run_failed: dry run on mock inputs: pipe "d.total", template: type error`, "1 problem(s)"},
		{"dry run without it: valid", []string{"validate", "testdata/dry_run_type_error.mthds"}, 0, "ok", ""},
		{"dry run passes", []string{"validate", "--dry-run", td + "sample_method.mthds"}, 0, "ok|dry run: 6 pipe(s) ran on mock inputs, 0 skipped", ""},
		{"dry run skips what cannot run", []string{"validate", "--dry-run", "--json", real + "methods/methods/compliance_checker"}, 0,
			`"dry_run": {|"ran": [|"compliance_checking.check_compliance"`, ""},
		{"inputs", []string{"inputs", td + "sample_method.mthds"}, 0, `"tickets": {|"concept": "support.Ticket"|"subject": "subject_value"`, ""},
		{"inputs of a pipe", []string{"inputs", "--pipe", "extract", td + "extract.mthds"}, 0, `"concept": "native.Document"|"url": "https://mock.invalid/url"`, ""},
		{"inputs none", []string{"inputs", "testdata/no_inputs.mthds"}, 1, "", `no inputs required for pipe "hello"`},
		{"inputs usage", []string{"inputs"}, 2, "", "usage: jinjabox inputs"},
		{"render pipelex refuses what a pipe would", []string{"render", "--pipelex", "llm_prompt", "-t", "see @ticket now", "testdata/prompt_inputs.json"}, 1, "", "template_sigil_syntax: Inline `@ticket` is not allowed"},
		{"render pipelex html", []string{"render", "--pipelex", "html", "-t", "<b>$customer</b>", "testdata/prompt_inputs.json"}, 0, "<b>Ada</b>", ""},
		{"render pipelex bad style", []string{"render", "--pipelex", "llm_prompt", "--tag-style", "curly", "-t", "x"}, 2, "", `unknown tag style "curly"`},
		{"render pipelex no defines", []string{"render", "--pipelex", "llm_prompt", "-D", "a=b", "-t", "x"}, 2, "", "--define and --templates do not apply"},
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

// TestInputsRoundTrip: the inputs file jinjabox inputs writes is one
// exec runs on, unchanged.
func TestInputsRoundTrip(t *testing.T) {
	withCompanion(t)
	const td = "../../methodfile/testdata/"
	for _, m := range []string{td + "sample_method.mthds", td + "models.mthds", "../../method/testdata/sample_method.json"} {
		in := filepath.Join(t.TempDir(), "inputs.json")
		var out, errb bytes.Buffer
		if st := run([]string{"inputs", "-o", in, m}, strings.NewReader(""), &out, &errb); st != 0 {
			t.Fatalf("%s: inputs exit %d: %s", m, st, errb.String())
		}
		out.Reset()
		errb.Reset()
		if st := run([]string{"exec", m, in}, strings.NewReader(""), &out, &errb); st != 0 {
			t.Fatalf("%s: exec exit %d: %s", m, st, errb.String())
		}
		if !strings.Contains(out.String(), `"content"`) {
			t.Errorf("%s: no output: %s", m, out.String())
		}
	}
}

// TestReadmeMethodExamples runs every command of the README's method
// block in process, from the repository root, and requires the exit
// status its comment gives ("exit N"; 0 otherwise): the examples stay
// true. /tmp/ paths go to a test directory.
func TestReadmeMethodExamples(t *testing.T) {
	withCompanion(t) // the block runs exec
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "Methods (libraries of pipes")
	if !ok {
		t.Fatal("README has no method block")
	}
	_, rest, _ = strings.Cut(rest, "```sh\n")
	block, _, _ := strings.Cut(rest, "```")
	tmp := t.TempDir() + "/"
	t.Chdir("../..")
	exitRe := regexp.MustCompile(`\bexit (\d)\b`)
	var cmds [][2]string // command, comment
	for line := range strings.SplitSeq(strings.ReplaceAll(block, "\\\n", " "), "\n") {
		cmd, comment, _ := strings.Cut(line, "#")
		if cmd = strings.TrimSpace(cmd); cmd != "" {
			cmds = append(cmds, [2]string{cmd, comment})
		} else if len(cmds) > 0 {
			cmds[len(cmds)-1][1] += comment // a comment continued on its own line
		}
	}
	if len(cmds) < 10 {
		t.Fatalf("%d commands in the README's method block", len(cmds))
	}
	for _, c := range cmds {
		args := strings.Fields(strings.ReplaceAll(c[0], "/tmp/", tmp))
		if args[0] != "bin/jinjabox" {
			t.Errorf("%q does not run bin/jinjabox", c[0])
			continue
		}
		want := 0
		if m := exitRe.FindStringSubmatch(c[1]); m != nil {
			want = int(m[1][0] - '0')
		}
		var out, errb bytes.Buffer
		if got := run(args[1:], strings.NewReader(""), &out, &errb); got != want {
			t.Errorf("%s: exit %d, want %d\nstdout %.500s\nstderr %.500s", c[0], got, want, out.String(), errb.String())
		}
	}
}
