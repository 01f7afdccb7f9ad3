package methodfile

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/method"
)

func modelConfig(t *testing.T) *method.ModelConfig {
	t.Helper()
	data, err := os.ReadFile("testdata/models_config.json")
	if err != nil {
		t.Fatal(err)
	}
	var mc method.ModelConfig
	if err := json.Unmarshal(data, &mc); err != nil {
		t.Fatal(err)
	}
	return &mc
}

// TestModelsWithLocalProvider runs the model pipes with the local
// provider: model references resolved through the configuration, judge
// verdicts in their native shapes, the legacy prompt_template, the
// domain's system_prompt, both templating_style forms.
func TestModelsWithLocalProvider(t *testing.T) {
	mc := modelConfig(t)
	m := mustLoad(t, "testdata/models.mthds", Options{Models: mc})
	r := &method.Runner{Library: m, Provider: method.LocalProvider{}, Models: mc}
	res, err := r.Run(context.Background(), loadInputs(t, "testdata/models_inputs.json"))
	if err != nil {
		t.Fatal(err)
	}
	byPipe := map[string][]method.CompletionRequest{}
	for _, q := range res.Requests {
		byPipe[strings.TrimPrefix(q.Pipe, "triage.")] = append(byPipe[strings.TrimPrefix(q.Pipe, "triage.")], q)
	}
	cl := byPipe["classify"][0]
	if cl.Model != "local-large-1" || cl.ModelRef != "$writing-factual" || cl.SystemPrompt != "You are a careful support agent." {
		t.Errorf("classify model %q ref %q system %q", cl.Model, cl.ModelRef, cl.SystemPrompt)
	}
	if !strings.HasPrefix(cl.Prompt, "Classify this message:\nmessage: ```\nEvery payment") {
		t.Errorf("classify prompt (ticks tag style, from prompt_template) %q", cl.Prompt)
	}
	u := byPipe["is_urgent"][0]
	if u.Model != "local-judge-1" || u.Question != "Is the message urgent?" || u.Threshold != 0.7 || u.Criteria["yes"] != "It cannot wait" ||
		!strings.HasPrefix(u.Evidence, "<message>\nEvery payment") {
		t.Errorf("is_urgent request %+v", u.RequestExt)
	}
	if got := len(byPipe["judge_all"]); got != 3 {
		t.Fatalf("judge_all asked %d questions", got)
	}
	for _, q := range byPipe["judge_all"] {
		if q.Model != "local-judge-1" || len(q.Fallbacks) != 1 || q.Fallbacks[0] != "local-judge-2" {
			t.Errorf("judge_all waterfall %q %v", q.Model, q.Fallbacks)
		}
	}
	a := byPipe["answer"][0]
	if a.Model != "gpt-4o-mini" || a.ModelSettings["temperature"] != 0.2 {
		t.Errorf("answer model %q settings %v", a.Model, a.ModelSettings)
	}
	// Each judge's verdict: the triage sequence's steps run one by one,
	// each output stored under its result, as the sequence does.
	mem := loadInputs(t, "testdata/models_inputs.json")
	for _, step := range []struct{ pipe, result, re string }{
		{"classify", "classification", `.`},
		{"is_urgent", "urgent", `^\[\["yes_no",(true|false)\],\["verdict","(yes|no)"\]\]$`},
		{"route", "team", `^\[\["choice","(billing|technical)"\],\["verdict","(billing|technical)"\]\]$`},
		{"rate", "rating", `^\[\["level",[0-2]\],\["verdict","(Cosmetic|Degraded|Blocking)"\]\]$`},
		{"judge_all", "verdicts", `^\[\["urgent",\[\["yes_no",.*\]\],\["team",\[\["choice",.*\]\],\["severity",\[\["level",[01]\],.*\]\]\]$`},
	} {
		jr, err := r.RunPipe(context.Background(), step.pipe, mem)
		if err != nil {
			t.Fatalf("%s: %v", step.pipe, err)
		}
		if got := contentJSON(jr.Output.Content); !matches(step.re, got) {
			t.Errorf("%s = %s, want %s", step.pipe, got, step.re)
		}
		out := *jr.Output
		out.Name = step.result
		mem = mem.With(out)
	}
	if res.Output.Concept != "triage.Answer" || !strings.Contains(contentJSON(res.Output.Content), "Answer this message for the") {
		t.Errorf("output %s %s", res.Output.Concept, contentJSON(res.Output.Content))
	}
}

// TestModelsRefusedAndSimulated: the local provider refuses image
// generation and search with a typed error naming the pipe; Simulate
// answers them with placeholders. Answer[3] yields exactly 3 items.
func TestModelsRefusedAndSimulated(t *testing.T) {
	mc := modelConfig(t)
	m := mustLoad(t, "testdata/models.mthds", Options{Models: mc})
	tests := []struct {
		pipe, inputs string
		simulate     bool
		refused      bool
		want         string // regexp on the output content
	}{
		{"illustrate", `{"idea": {"concept": "IllustrationPrompt", "content": "a lighthouse"}}`, false, true, ""},
		{"research", `{"topic": "payments"}`, false, true, ""},
		{"illustrate", `{"idea": {"concept": "IllustrationPrompt", "content": "a lighthouse"}}`, true, false, `^\[\["url","local://image/[0-9a-f]{16}\.png"\]\]$`},
		{"research", `{"topic": "payments"}`, true, false, `search results for: Known issues about payments`},
		{"describe", `{"shot": {"concept": "triage.Screenshot", "content": {"url": "https://x/s.png"}}, "card": {"concept": "Card", "content": {"title": "T", "photo": {"url": "https://x/c.png"}}}}`, false, false, `^\[\["text","\[local [0-9a-f]{12}\] Compare \[Image 1\] with \[Image 2\], titled T, then \[Image 1\] again\. \(2 images\)"\]\]$`},
		{"suggest_answers", `{"message": "hello"}`, false, false, `^\[\[\["text","\[local [0-9a-f]{12} #1\] Suggest answers to hello"\]\],\[\["text",.*#2.*\]\],\[\["text",.*#3.*\]\]\]$`},
	}
	for _, tc := range tests {
		t.Run(tc.pipe, func(t *testing.T) {
			mem, err := method.LoadInputs([]byte(tc.inputs))
			if err != nil {
				t.Fatal(err)
			}
			r := &method.Runner{Library: m, Provider: method.LocalProvider{Simulate: tc.simulate}, Models: mc}
			res, err := r.RunPipe(context.Background(), tc.pipe, mem)
			if tc.refused {
				var ue *method.UnsupportedError
				if !errors.As(err, &ue) || ue.Pipe != "triage."+tc.pipe {
					t.Fatalf("want an UnsupportedError naming %q, got %v", tc.pipe, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := contentJSON(res.Output.Content); !matches(tc.want, got) {
				t.Errorf("output %s, want %s", got, tc.want)
			}
			if tc.pipe == "illustrate" && (res.Requests[0].AspectRatio != "landscape_16_9" || res.Requests[0].Model != "flux-local" || res.Requests[0].ModelSettings["seed"] != int64(7)) {
				t.Errorf("img gen request %+v", res.Requests[0].RequestExt)
			}
		})
	}
}
