package methodfile

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/method"
)

// TestLegacyPlx loads and runs the older spelling.
func TestLegacyPlx(t *testing.T) {
	m := mustLoad(t, "testdata/legacy.plx", Options{Pipe: "make_card"})
	b := m.Bundles[0]
	if m.Main != "legacy.make_card" || b.Description != "Greeting cards, the old way" {
		t.Errorf("main pipe %q, description %q", m.Main, b.Description)
	}
	if b.Pipes["greet"].Prompt == "" || b.Concepts["Card"].Refines != b.Domain+".Greeting" || b.Concepts["Card"].Description != "A card" {
		t.Errorf("legacy keys not converted: %+v %+v", b.Pipes["greet"], b.Concepts["Card"])
	}
	mem, err := method.LoadInputs([]byte(`{"name": "Ada"}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&method.Runner{Library: m, Provider: method.LocalProvider{}}).Run(context.Background(), mem)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Requests[0].Prompt; got != "Write a greeting for Ada, no more than 10 words." {
		t.Errorf("prompt %q", got)
	}
	got := contentJSON(res.Output.Content)
	if res.Output.Concept != "legacy.Card" || !strings.HasPrefix(got, `[["text","*** [local `) || !strings.HasSuffix(got, ` ***"]]`) {
		t.Errorf("output %s %s", res.Output.Concept, got)
	}
}

// TestLegacyPlxEveryMode: a .plx file loads as a target, as a
// directory's bundle and from a library directory, and each time the
// report carries the legacy_format warning naming it (the newest Pipelex
// loads .mthds only: is_pipelex_file). In a directory the .mthds files
// decide; .plx is read only where there is none.
func TestLegacyPlxEveryMode(t *testing.T) {
	src, err := os.ReadFile("testdata/legacy.plx")
	if err != nil {
		t.Fatal(err)
	}
	user := "domain = \"user\"\ndescription = \"u\"\nmain_pipe = \"card_for\"\n[pipe.card_for]\ntype = \"PipeSequence\"\ndescription = \"s\"\ninputs = { name = \"Text\" }\noutput = \"legacy.Card\"\nsteps = [{ pipe = \"legacy.make_card\" }]\n"
	dir := t.TempDir()
	write := func(rel, data string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plxDir := filepath.Dir(write("old/cards.plx", string(src)))
	write("lib/nested/cards.plx", string(src))
	userFile := write("new/user.mthds", user)
	write("mixed/bundle.mthds", user)
	write("mixed/cards.plx", string(src))

	legacyWarnings := func(ld *Loaded) []string {
		var out []string
		for _, p := range ld.Report.Warnings() {
			if p.Code == method.CodeLegacyFormat {
				if !strings.Contains(p.Message, "rename it cards.mthds") {
					t.Errorf("notice %q does not say what to do", p.Message)
				}
				out = append(out, filepath.Base(p.File))
			}
		}
		return out
	}
	tests := []struct {
		name  string
		paths []string
		opts  Options
		main  string
		warn  int
	}{
		{"file", []string{filepath.Join(plxDir, "cards.plx")}, Options{Pipe: "make_card"}, "legacy.make_card", 1},
		{"directory of .plx", []string{plxDir}, Options{Pipe: "make_card"}, "legacy.make_card", 1},
		{"library directory", []string{userFile}, Options{LibraryDirs: []string{filepath.Join(dir, "lib")}}, "user.card_for", 1},
		// the directory's bundle.mthds is the target; its .plx loads as
		// a library file of the directory.
		{"mixed directory", []string{filepath.Join(dir, "mixed")}, Options{}, "user.card_for", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.MethodsDirs = []string{}
			ld, err := LoadLibrary(tt.paths, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := ld.Report.Err(); err != nil {
				t.Fatalf("invalid: %v", err)
			}
			if ld.Library.Main != tt.main {
				t.Errorf("main %q, want %q", ld.Library.Main, tt.main)
			}
			if got := legacyWarnings(ld); len(got) != tt.warn {
				t.Errorf("legacy warnings on %v, want %d", got, tt.warn)
			}
		})
	}
	// A .mthds file gets no notice.
	ld, err := LoadLibrary([]string{userFile}, Options{MethodsDirs: []string{}, LibraryDirs: []string{plxDir}})
	if err != nil {
		t.Fatal(err)
	}
	if got := legacyWarnings(ld); len(got) != 1 || got[0] != "cards.plx" {
		t.Errorf("legacy warnings on %v, want only cards.plx", got)
	}
}

// TestMainPipeOptional: a file without main_pipe validates (every pipe
// is checked) and has no pipe to run; the caller picks one (--pipe), by
// bare code or domain.code, as Pipelex's entry lookup does.
func TestMainPipeOptional(t *testing.T) {
	src := "domain = \"d\"\n[pipe.a]\ntype = \"PipeCompose\"\ndescription = \"a\"\noutput = \"Text\"\ntemplate = \"a\"\n[pipe.b]\ntype = \"PipeCompose\"\ndescription = \"b\"\noutput = \"Text\"\ntemplate = \"b\"\n"
	m, err := Load("t.mthds", []byte(src), Options{})
	if err != nil || m.Main != "" {
		t.Errorf("without main_pipe: main %q, %v", m.Main, err)
	}
	if _, err := (&method.Runner{Library: m, Provider: method.LocalProvider{}}).Run(context.Background(), method.NewMemory()); err == nil {
		t.Error("ran without a pipe to run")
	}
	for _, pipe := range []string{"b", "d.b"} {
		m, err := Load("t.mthds", []byte(src), Options{Pipe: pipe})
		if err != nil || m.Main != "d.b" {
			t.Errorf("--pipe %s: main %q, %v", pipe, m.Main, err)
		}
	}
	if _, err := Load("t.mthds", []byte(src), Options{Pipe: "c"}); err == nil {
		t.Error("an unknown --pipe loaded")
	}
}

// TestShapes: small files, one rule each (the rule table of
// docs/methodfiles.md).
func TestShapes(t *testing.T) {
	const head = "domain = \"d\"\ndescription = \"x\"\n"
	// pipe writes a pipe table from its lines.
	pipe := func(code string, lines ...string) string {
		return "[pipe." + code + "]\n" + strings.Join(lines, "\n") + "\n"
	}
	compose := func(code string) string {
		return pipe(code, `type = "PipeCompose"`, `description = "c"`, `output = "Text"`, `template = "x"`)
	}
	tests := []struct {
		name, src string
		problems  []string // "line pipe field code", in order; none: loads
	}{
		{"two roots, no main_pipe", head + compose("a") + compose("b"), nil},
		{"description and output required", head + pipe("p", `type = "PipeCompose"`, `template = "x"`),
			[]string{"3 p description invalid_pipe", "3 p output invalid_pipe"}},
		{"dotted structure keys", head + "main_pipe = \"p\"\n[concept.Quote]\ndescription = \"q\"\nstructure.total = { type = \"number\", description = \"t\" }\nstructure.currency = \"the currency\"\n" +
			pipe("p", `type = "PipeCompose"`, `description = "p"`, `output = "Quote"`) + "[pipe.p.construct]\ntotal = 1.5\ncurrency = \"EUR\"\n", nil},
		{"class structure", head + "[concept.Quote]\ndescription = \"q\"\nstructure = \"QuoteClass\"\n",
			[]string{"5  concept Quote invalid_concept"}},
		{"choices win over the type", head + "[concept.Q]\ndescription = \"q\"\n[concept.Q.structure]\ngrade = { type = \"number\", choices = [\"a\", \"b\"], description = \"g\" }\nlevel = { choices = [\"x\"], description = \"l\" }\n", nil},
		{"field rules", head + "[concept.Q]\ndescription = \"q\"\n[concept.Q.structure]\nuntyped = { description = \"u\" }\nd = { type = \"dict\", key_type = \"integer\", value_type = \"text\", description = \"d\" }\nc = { type = \"concept\", description = \"c\" }\nl = { type = \"list\", item_type = \"concept\", description = \"l\" }\nr = { type = \"text\", required = true, default_value = \"x\", description = \"r (a required field may have a default)\" }\n_x = { type = \"text\", description = \"x\" }\nmodel_dump = { type = \"text\", description = \"m\" }\n",
			[]string{"6  concept Q field untyped invalid_concept", "7  concept Q field d invalid_concept", "8  concept Q field c invalid_concept",
				"9  concept Q field l invalid_concept", "11  concept Q field _x template_private_name", "12  concept Q field model_dump invalid_concept"}},
		{"concept table needs a description", head + "[concept.Q]\nrefines = \"Text\"\n", []string{"3  concept Q invalid_concept"}},
		{"refines cycle", head + "[concept.A]\ndescription = \"a\"\nrefines = \"B\"\n[concept.B]\ndescription = \"b\"\nrefines = \"A\"\n",
			[]string{"3  concept A invalid_concept"}},
		{"structure cycle", head + "[concept.A]\ndescription = \"a\"\n[concept.A.structure]\nb = { type = \"concept\", concept_ref = \"B\", description = \"b\" }\n[concept.B]\ndescription = \"b\"\n[concept.B.structure]\na = { type = \"concept\", concept_ref = \"A\", description = \"a\" }\n",
			[]string{"3  concept A invalid_concept"}},
		{"suffixes", head + pipe("p", `type = "PipeCompose"`, `description = "p"`, `inputs = { a = "Text[]", b = "Text[2]", c = "Text?", d = "Text!", e = "native.Text[3]", f = "d.Number?", g = "Text[1]?" }`, `output = "Text"`,
			`template = "{{ a }}{{ b }}{% if c %}{{ c }}{% endif %}{{ d }}{{ e }}{% if f %}{{ f }}{% endif %}{% if g %}{{ g }}{% endif %}"`), nil},
		{"bad suffixes", head + pipe("p", `type = "PipeCompose"`, `description = "p"`, `inputs = { a = "Text[0]", b = "Text?!", c = "text" }`, `output = "Text!"`, `template = "{{ a }}{{ b }}{{ c }}"`),
			[]string{"6 p inputs unknown_concept", "6 p inputs unknown_concept", "6 p inputs unknown_concept", "7 p output invalid_pipe"}},
		{"native prefix only for natives", head + pipe("p", `type = "PipeCompose"`, `description = "p"`, `output = "native.Ticket"`, `template = "x"`),
			[]string{"6 p output unknown_concept"}},
		{"wrong types", head + pipe("p", `type = "PipeLLM"`, `description = "p"`, `output = "Text"`, `prompt = 3`, `system_prompt = ["a"]`),
			[]string{"7 p prompt wrong_type", "8 p system_prompt wrong_type"}},
		{"templating style forms", head + "templating_style = \"ticks\"\n" + pipe("p", `type = "PipeCompose"`, `description = "p"`, `inputs = { a = "Text" }`, `output = "Text"`,
			`templating_style = { tag_style = "square_brackets", text_format = "markdown" }`, `template = "@a"`), nil},
		{"bad templating style", head + "templating_style = \"curly\"\n" + pipe("p", `type = "PipeCompose"`, `description = "p"`, `output = "Text"`,
			`templating_style = { tag_style = "xml", text_format = "rtf" }`, `template = "x"`),
			[]string{"3  templating_style invalid_method", "8 p templating_style invalid_pipe"}},
		{"legacy and new prompt", head + pipe("p", `type = "PipeLLM"`, `description = "p"`, `output = "Text"`, `prompt = "a"`, `prompt_template = "b"`),
			[]string{"8 p prompt invalid_pipe"}},
		{"unknown model waterfall", head + pipe("p", `type = "PipeLLM"`, `description = "p"`, `output = "Text"`, `prompt = "a"`, `model = "~nowhere"`),
			[]string{"8 p model invalid_pipe"}},
		{"malformed model", head + pipe("p", `type = "PipeLLM"`, `description = "p"`, `output = "Text"`, `prompt = "a"`, `model = "$"`),
			[]string{"8 p model invalid_pipe"}},
		{"judge questions need a structured output", head + pipe("p", `type = "PipeJudge"`, `description = "p"`, `output = "YesNo"`, `prompt = "x"`) +
			"[pipe.p.questions.a]\nquestion = \"ok?\"\ncriteria = { maybe = \"m\" }\n",
			[]string{"6 p output invalid_pipe", "10 p questions.a.criteria invalid_pipe", "10 p questions.a.criteria invalid_pipe", "10 p questions.a.criteria invalid_pipe"}},
		{"judge output kind", head + pipe("p", `type = "PipeJudge"`, `description = "p"`, `output = "Rating"`, `prompt = "x"`, `question = "ok?"`),
			[]string{"6 p output invalid_pipe"}},
		{"extract output", head + pipe("p", `type = "PipeExtract"`, `description = "p"`, `inputs = { doc = "PDF" }`, `output = "Text"`),
			[]string{"7 p output invalid_pipe"}},
		{"parallel duplicate result", head + pipe("p", `type = "PipeParallel"`, `description = "p"`, `output = "Composite"`, `add_each_output = true`,
			`branches = [{ pipe = "q", result = "r" }, { pipe = "q", result = "r" }]`) + compose("q"),
			[]string{"8 p branches[1] invalid_pipe"}},
		{"parallel branch batches", head + pipe("p", `type = "PipeParallel"`, `description = "p"`, `inputs = { xs = "Text[]" }`, `output = "Composite"`,
			`branches = [{ pipe = "q", result = "r", batch_over = "xs", batch_as = "x" }]`) + pipe("q", `type = "PipeCompose"`, `description = "q"`, `inputs = { x = "Text" }`, `output = "Text"`, `template = "$x"`), nil},
		{"step keys", head + pipe("p", `type = "PipeSequence"`, `description = "p"`, `output = "Text[]"`,
			`steps = [{ pipe = "q", nb_output = 2, multiple_output = true, other = 1 }]`) + compose("q"),
			[]string{"7 p steps[0] invalid_pipe", "7 p steps[0].other unknown_key"}},
		{"signature", head + pipe("p", `description = "a contract"`, `inputs = { a = "Text" }`, `output = "Text"`), nil},
		{"signature with a body", head + pipe("p", `description = "s"`, `output = "Text"`, `template = "x"`),
			[]string{"6 p template invalid_pipe"}},
		{"signature is no type", head + pipe("p", `type = "PipeSignature"`, `description = "s"`, `output = "Text"`),
			[]string{"4 p type invalid_pipe"}},
		{"pipe key with its domain", head + "[pipe.\"d.p\"]\ntype = \"PipeCompose\"\ndescription = \"p\"\noutput = \"Text\"\ntemplate = \"x\"\n",
			[]string{"3 d.p  invalid_pipe"}},
		{"main_pipe with its domain", head + "main_pipe = \"d.p\"\n" + compose("p"),
			[]string{"3  main_pipe invalid_method"}},
		{"reserved domain", "domain = \"native.stuff\"\ndescription = \"x\"\n",
			[]string{"1  domain invalid_method"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// An empty model configuration: every $preset, @alias and
			// ~waterfall is unknown.
			_, err := Load("t.mthds", []byte(tc.src), Options{Models: &method.ModelConfig{}})
			var got []string
			for _, p := range method.Problems(err) {
				got = append(got, strings.Join([]string{itoa(p.Line), p.Pipe, p.Field, p.Code}, " "))
			}
			if strings.Join(got, "\n") != strings.Join(tc.problems, "\n") {
				t.Errorf("got\n  %s\nwant\n  %s\n(%v)", strings.Join(got, "\n  "), strings.Join(tc.problems, "\n  "), err)
			}
		})
	}
}
