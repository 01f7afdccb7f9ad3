package methodfile

import (
	"context"
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

// TestMainPipeOptional: a file without main_pipe validates (every pipe
// is checked) and has no pipe to run; the caller picks one (--pipe), by
// bare code or domain.code, as Pipelex's entry lookup does.
func TestMainPipeOptional(t *testing.T) {
	src := "domain = \"d\"\n[pipe.a]\ntype = \"PipeCompose\"\ndescription = \"a\"\ntemplate = \"a\"\n[pipe.b]\ntype = \"PipeCompose\"\ndescription = \"b\"\ntemplate = \"b\"\n"
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

// TestShapes: small files, one rule each.
func TestShapes(t *testing.T) {
	const head = "domain = \"d\"\ndescription = \"x\"\n"
	tests := []struct {
		name, src string
		problems  []string // "line pipe field code", in order; none: loads
	}{
		{"two roots", head + "[pipe.a]\ntype = \"PipeCompose\"\ndescription = \"a\"\ntemplate = \"a\"\n[pipe.b]\ntype = \"PipeCompose\"\ndescription = \"b\"\ntemplate = \"b\"\n",
			nil}, // main_pipe is optional: validation checks every pipe
		{"one root chosen", head + "[pipe.a]\ntype = \"PipeSequence\"\ndescription = \"a\"\nsteps = [{ pipe = \"b\" }]\n[pipe.b]\ntype = \"PipeCompose\"\ndescription = \"b\"\ntemplate = \"b\"\n", nil},
		{"dotted structure keys", head + "main_pipe = \"p\"\n[concept.Quote]\ndescription = \"q\"\nstructure.total = { type = \"number\" }\nstructure.currency = \"the currency\"\n[pipe.p]\ntype = \"PipeCompose\"\ndescription = \"p\"\noutput = \"Quote\"\n[pipe.p.construct]\ntotal = 1.5\ncurrency = \"EUR\"\n", nil},
		{"class structure", head + "main_pipe = \"p\"\n[concept.Quote]\ndescription = \"q\"\nstructure = \"QuoteClass\"\n[pipe.p]\ntype = \"PipeCompose\"\ndescription = \"p\"\ntemplate = \"x\"\n",
			[]string{"6  concept Quote invalid_method"}},
		{"suffixes", head + "main_pipe = \"p\"\n[pipe.p]\ntype = \"PipeCompose\"\ndescription = \"p\"\ninputs = { a = \"Text[]\", b = \"Text[2]\", c = \"Text?\", d = \"Text!\", e = \"native.Text[3]!\", f = \"d.Number[]?\" }\noutput = \"Text\"\ntemplate = \"{{ a }}{{ b }}{% if c %}{{ c }}{% endif %}{{ d }}{{ e }}{% if f %}{{ f }}{% endif %}\"\n", nil},
		{"bad suffixes", head + "main_pipe = \"p\"\n[pipe.p]\ntype = \"PipeCompose\"\ndescription = \"p\"\ninputs = { a = \"Text[0]\", b = \"Text?!\", c = \"text\" }\ntemplate = \"{{ a }}{{ b }}{{ c }}\"\n",
			[]string{"7 p inputs unknown_concept", "7 p inputs unknown_concept", "7 p inputs unknown_concept"}},
		{"native prefix only for natives", head + "main_pipe = \"p\"\n[pipe.p]\ntype = \"PipeCompose\"\ndescription = \"p\"\noutput = \"native.Ticket\"\ntemplate = \"x\"\n",
			[]string{"7 p output unknown_concept"}},
		{"wrong types", head + "main_pipe = \"p\"\n[pipe.p]\ntype = \"PipeLLM\"\ndescription = \"p\"\nprompt = 3\nsystem_prompt = [\"a\"]\n",
			[]string{"7 p prompt wrong_type", "8 p system_prompt wrong_type"}},
		{"templating style forms", head + "main_pipe = \"p\"\ntemplating_style = \"ticks\"\n[pipe.p]\ntype = \"PipeCompose\"\ndescription = \"p\"\ninputs = { a = \"Text\" }\ntemplating_style = { tag_style = \"square_brackets\", text_format = \"markdown\" }\ntemplate = \"@a\"\n", nil},
		{"bad templating style", head + "main_pipe = \"p\"\ntemplating_style = \"curly\"\n[pipe.p]\ntype = \"PipeCompose\"\ndescription = \"p\"\ntemplating_style = { tag_style = \"xml\", text_format = \"rtf\" }\ntemplate = \"x\"\n",
			[]string{"4  templating_style invalid_method", "8 p templating_style invalid_pipe"}},
		{"legacy and new prompt", head + "main_pipe = \"p\"\n[pipe.p]\ntype = \"PipeLLM\"\ndescription = \"p\"\nprompt = \"a\"\nprompt_template = \"b\"\n",
			[]string{"8 p prompt invalid_pipe"}},
		{"unknown model waterfall", head + "main_pipe = \"p\"\n[pipe.p]\ntype = \"PipeLLM\"\ndescription = \"p\"\nprompt = \"a\"\nmodel = \"~nowhere\"\n",
			[]string{"8 p model invalid_pipe"}},
		{"malformed model", head + "main_pipe = \"p\"\n[pipe.p]\ntype = \"PipeLLM\"\ndescription = \"p\"\nprompt = \"a\"\nmodel = \"$\"\n",
			[]string{"8 p model invalid_pipe"}},
		{"judge questions need a structured output", head + "main_pipe = \"p\"\n[pipe.p]\ntype = \"PipeJudge\"\ndescription = \"p\"\noutput = \"YesNo\"\nprompt = \"x\"\n[pipe.p.questions.a]\nquestion = \"ok?\"\ncriteria = { maybe = \"m\" }\n",
			[]string{"7 p output invalid_pipe", "11 p questions.a.criteria invalid_pipe"}},
		{"judge output kind", head + "main_pipe = \"p\"\n[pipe.p]\ntype = \"PipeJudge\"\ndescription = \"p\"\noutput = \"Rating\"\nquestion = \"ok?\"\n",
			[]string{"7 p output invalid_pipe"}},
		{"extract output", head + "main_pipe = \"p\"\n[pipe.p]\ntype = \"PipeExtract\"\ndescription = \"p\"\ninputs = { doc = \"PDF\" }\noutput = \"Image\"\n",
			[]string{"8 p output invalid_pipe"}},
		{"parallel duplicate result", head + "main_pipe = \"p\"\n[pipe.p]\ntype = \"PipeParallel\"\ndescription = \"p\"\nadd_each_output = true\nbranches = [{ pipe = \"q\", result = \"r\" }, { pipe = \"q\", result = \"r\" }]\n[pipe.q]\ntype = \"PipeCompose\"\ndescription = \"q\"\ntemplate = \"x\"\n",
			[]string{"8 p branches[1] invalid_pipe"}},
		{"step keys", head + "main_pipe = \"p\"\n[pipe.p]\ntype = \"PipeParallel\"\ndescription = \"p\"\nadd_each_output = true\nbranches = [{ pipe = \"q\", batch_over = \"x\" }]\n[pipe.q]\ntype = \"PipeCompose\"\ndescription = \"q\"\ntemplate = \"x\"\n",
			[]string{"8 p branches[0] invalid_pipe", "8 p branches[0].batch_over unknown_key"}},
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
