package method

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/value"
)

func mustMethod(t *testing.T, src string) *Library {
	t.Helper()
	m, err := LoadJSON([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustInputs(t *testing.T, src string) *Memory {
	t.Helper()
	m, err := LoadInputs([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// contentJSON renders stuff content as compact JSON for comparisons.
func contentJSON(t *testing.T, s *Stuff) string {
	t.Helper()
	if s == nil {
		return "<absent>"
	}
	return marshal(jsonable(s.Content))
}

// marshal is json.Marshal without HTML escaping, so expectations read
// as the text the pipes produced.
func marshal(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "<" + err.Error() + ">"
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// jsonable converts ordered maps to a form encoding/json keeps in order.
func jsonable(x any) any {
	switch t := x.(type) {
	case *value.OrderedMap:
		var sb strings.Builder
		sb.WriteByte('{')
		for i, k := range t.Keys {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(marshal(k))
			sb.WriteByte(':')
			sb.WriteString(marshal(jsonable(t.Values[i])))
		}
		sb.WriteByte('}')
		return json.RawMessage(sb.String())
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = jsonable(e)
		}
		return out
	}
	return x
}

func TestRunPipeKinds(t *testing.T) {
	tests := []struct {
		name, method, inputs string
		want                 string // output content JSON, or "<absent>"
		errKind              string // expected engine error kind inside the RunError
		check                func(t *testing.T, r *Result)
	}{
		{
			name:   "llm prompt with images and sigils",
			method: `{"main_pipe": "p", "pipes": {"p": {"type": "PipeLLM", "inputs": {"note": "Text", "photo": "Image", "scan": "Image"}, "system_prompt": "See {{ photo|with_images }}", "prompt": "@note\n{{ photo|with_images }} and {{ scan|with_images }}", "images": ["scan", "photo"]}}}`,
			inputs: `{"note": "hello", "photo": {"concept": "Image", "content": "https://x/p.png"}, "scan": {"concept": "Image", "content": {"url": "https://x/s.png"}}}`,
			check: func(t *testing.T, r *Result) {
				req := r.Requests[0]
				if req.SystemPrompt != "See [Image 1]" || req.Prompt != "<note>\nhello\n</note>\n[Image 1] and [Image 2]" {
					t.Errorf("prompts %q / %q", req.SystemPrompt, req.Prompt)
				}
				if len(req.Images) != 2 || req.Images[0].URL != "https://x/p.png" || req.Images[1].URL != "https://x/s.png" {
					t.Errorf("images %+v", req.Images)
				}
				if !strings.HasPrefix(r.Output.Content.(*value.OrderedMap).Values[0].(string), "[local ") {
					t.Errorf("output %v", r.Output.Content)
				}
			},
		},
		{
			name:   "llm image field of a structured input",
			method: `{"main_pipe": "p", "concepts": {"Card": {"fields": [{"name": "title", "type": "text"}, {"name": "photo", "type": "Image"}]}}, "pipes": {"p": {"type": "PipeLLM", "inputs": {"card": "Card"}, "prompt": "{{ card.title }}: {{ card.photo|with_images }} {{ card.photo.url }}"}}}`,
			inputs: `{"card": {"concept": "Card", "content": {"title": "T", "photo": {"url": "https://x/c.png"}}}}`,
			check: func(t *testing.T, r *Result) {
				if got := r.Requests[0].Prompt; got != "T: [Image 1] https://x/c.png" || len(r.Requests[0].Images) != 1 {
					t.Errorf("prompt %q images %v", got, r.Requests[0].Images)
				}
			},
		},
		{
			name:   "llm structured output",
			method: `{"main_pipe": "p", "concepts": {"Reply": {"fields": [{"name": "subject", "type": "text"}, {"name": "score", "type": "integer"}]}}, "pipes": {"p": {"type": "PipeLLM", "inputs": {"a": "Text"}, "output": "Reply", "prompt": "$a"}}}`,
			inputs: `{"a": "x"}`,
			check: func(t *testing.T, r *Result) {
				om := r.Output.Content.(*value.OrderedMap)
				if !reflect.DeepEqual(om.Keys, []string{"subject", "score"}) || r.Requests[0].Prompt != "x" {
					t.Errorf("content %v, prompt %q", om, r.Requests[0].Prompt)
				}
			},
		},
		{
			name:   "compose html autoescapes",
			method: `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCompose", "inputs": {"a": "Text"}, "template": {"category": "html", "template": "<p>{{ a.text }}</p>\n{% if a %}\n{{ '**b**'|markdown }}\n{% endif %}\n"}}}}`,
			inputs: `{"a": "<i>"}`,
			want:   `{"text":"<p>&lt;i&gt;</p>\n<p><strong>b</strong></p>\n\n"}`,
		},
		{
			name:   "compose basic with extra context",
			method: `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCompose", "inputs": {"a": "Text"}, "template": {"template": "$a/{{ k }}", "extra_context": {"k": 1, "a": "shadowed"}}}}}`,
			inputs: `{"a": "x"}`,
			want:   `{"text":"x/1"}`,
		},
		{
			name:   "construct",
			method: `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCompose", "inputs": {"o": "Anything"}, "construct": {"fixed": [1, "a"], "name": {"from": "o.customer.name"}, "lines": {"from": "o.lines", "list_to_dict_keyed_by": "sku"}, "t": {"template": "@o.customer.name"}, "n": {"deep": {"from": "o.lines.1.qty"}}}}}}`,
			inputs: `{"o": {"concept": "Anything", "content": {"customer": {"name": "Ada"}, "lines": [{"sku": "A1", "qty": 1}, {"sku": "B2", "qty": 2}]}}}`,
			want:   `{"fixed":[1,"a"],"name":"Ada","lines":{"A1":{"sku":"A1","qty":1},"B2":{"sku":"B2","qty":2}},"t":"<o.customer.name>\nAda\n</o.customer.name>","n":{"deep":2}}`,
		},
		{
			name:    "construct private path refused at walk",
			method:  `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCompose", "inputs": {"o": "Anything"}, "construct": {"x": {"from": "o._id"}}}}}`,
			inputs:  `{"o": {"concept": "Anything", "content": {"_id": 1}}}`,
			errKind: "security",
		},
		{
			name:   "condition routes and aliases",
			method: `{"main_pipe": "c", "pipes": {"c": {"type": "PipeCondition", "inputs": {"n": "Number"}, "expression": "'big' if n.text > 2 else 'small'", "outcomes": {"big": "b"}, "default_outcome": "s", "add_alias_from_expression_to": "route"}, "b": {"type": "PipeCompose", "inputs": {"route": "Text"}, "template": "B {{ route }}"}, "s": {"type": "PipeCompose", "inputs": {"route": "Text"}, "template": "S {{ route }}"}}}`,
			inputs: `{"n": {"concept": "Number", "content": 5}}`,
			want:   `{"text":"B big"}`,
		},
		{
			name:   "condition continue",
			method: `{"main_pipe": "c", "pipes": {"c": {"type": "PipeCondition", "expression": "'x'", "outcomes": {"x": "continue"}, "default_outcome": "fail", "output": "Text?"}}}`,
			inputs: `{}`,
			want:   "<absent>",
		},
		{
			name:    "condition fail",
			method:  `{"main_pipe": "c", "pipes": {"c": {"type": "PipeCondition", "expression": "'y'", "outcomes": {"x": "continue"}, "default_outcome": "fail"}}}`,
			inputs:  `{}`,
			errKind: "render",
		},
		{
			name:    "condition none is an error",
			method:  `{"main_pipe": "c", "pipes": {"c": {"type": "PipeCondition", "expression": "none", "outcomes": {"None": "c"}, "default_outcome": "c"}}}`,
			inputs:  `{}`,
			errKind: "render",
		},
		{
			name:   "batch keeps order and compacts absent",
			method: `{"main_pipe": "b", "pipes": {"b": {"type": "PipeBatch", "inputs": {"l": "Text[]"}, "branch_pipe_code": "c", "input_list_name": "l", "input_item_name": "it"}, "c": {"type": "PipeCondition", "inputs": {"it": "Text"}, "expression": "it.text", "outcomes": {"skip": "continue"}, "default_outcome": "up", "output": "Text?"}, "up": {"type": "PipeCompose", "inputs": {"it": "Text"}, "template": "{{ it.text|upper }}"}}}`,
			inputs: `{"l": {"concept": "Text[]", "content": ["a", "skip", "c"]}}`,
			want:   `[{"text":"A"},{"text":"C"}]`,
		},
		{
			name:    "batch first failure by index",
			method:  `{"main_pipe": "b", "pipes": {"b": {"type": "PipeBatch", "inputs": {"l": "Anything"}, "branch_pipe_code": "c", "input_list_name": "l", "input_item_name": "it"}, "c": {"type": "PipeCompose", "inputs": {"it": "Number"}, "template": "{{ 1 // it.text }}"}}}`,
			inputs:  `{"l": {"concept": "Number[]", "content": [1, 0, 0]}}`,
			errKind: "render",
			check: func(t *testing.T, r *Result) {
				if len(r.Renders) != 1 {
					t.Errorf("ran %d items before failing", len(r.Renders))
				}
			},
		},
		{
			name:    "batch list not a list",
			method:  `{"main_pipe": "b", "pipes": {"b": {"type": "PipeBatch", "inputs": {"l": "Text"}, "branch_pipe_code": "b", "input_list_name": "l", "input_item_name": "it"}}}`,
			inputs:  `{"l": "x"}`,
			errKind: "render",
		},
		{
			name:   "sequence with batch step",
			method: `{"main_pipe": "s", "pipes": {"s": {"type": "PipeSequence", "inputs": {"l": "Text[]"}, "steps": [{"pipe": "up", "batch_over": "l", "batch_as": "it", "result": "ups"}, {"pipe": "join", "result": "joined"}]}, "up": {"type": "PipeCompose", "inputs": {"it": "Text"}, "template": "{{ it.text|upper }}"}, "join": {"type": "PipeCompose", "inputs": {"ups": "Text[]"}, "template": "{% for u in ups %}{{ u.text }}{% endfor %}"}}}`,
			inputs: `{"l": {"concept": "Text[]", "content": ["a", "b"]}}`,
			want:   `{"text":"AB"}`,
			check: func(t *testing.T, r *Result) {
				if r.Output.Name != "s" || r.Output.Code != "joined" || len(r.Added) != 0 {
					t.Errorf("output %+v, added %v", r.Output, r.Added)
				}
			},
		},
		{
			name:   "judge choice",
			method: `{"main_pipe": "j", "pipes": {"j": {"type": "PipeJudge", "inputs": {"a": "Text"}, "question": "Is $a good?", "options": {"good": "G", "bad": "B"}}}}`,
			inputs: `{"a": "x"}`,
			check: func(t *testing.T, r *Result) {
				v := r.Output.Content.(*value.OrderedMap).Values[0]
				if v != "good" && v != "bad" {
					t.Errorf("verdict %v", v)
				}
				if r.Requests[0].Prompt != "Is x good?" {
					t.Errorf("question %q", r.Requests[0].Prompt)
				}
			},
		},
		{
			name:   "imggen",
			method: `{"main_pipe": "g", "pipes": {"g": {"type": "PipeImgGen", "inputs": {"a": "Text"}, "prompt": "A cat in $a", "negative_prompt": "blurry"}}}`,
			inputs: `{"a": "Paris"}`,
			check: func(t *testing.T, r *Result) {
				if r.Output.Concept != "Image" || !strings.HasPrefix(contentJSON(t, r.Output), `{"url":"local://image/`) {
					t.Errorf("output %s", contentJSON(t, r.Output))
				}
			},
		},
		{
			name:   "search",
			method: `{"main_pipe": "s", "pipes": {"s": {"type": "PipeSearch", "inputs": {"q": "Text"}, "prompt": "news on $q", "max_results": 2}}}`,
			inputs: `{"q": "Go"}`,
			check: func(t *testing.T, r *Result) {
				if !strings.Contains(contentJSON(t, r.Output), "search results for: news on Go") {
					t.Errorf("output %s", contentJSON(t, r.Output))
				}
			},
		},
		{
			name:    "cyclic pipes stop",
			method:  `{"main_pipe": "s", "pipes": {"s": {"type": "PipeSequence", "steps": [{"pipe": "s"}]}}}`,
			inputs:  `{}`,
			errKind: "budget",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lib := mustMethod(t, tc.method)
			// The runner runs validated libraries: a child sees only the
			// stuffs its pipe declares (Library.Reads).
			for _, pr := range Problems(lib.Validate(ValidateOptions{}).Err()) {
				if pr.Code == CodeUndeclaredInput {
					t.Fatalf("the test's method reads an undeclared input: %v", pr)
				}
			}
			r := &Runner{Library: lib, Provider: LocalProvider{Simulate: true}}
			res, err := r.Run(context.Background(), mustInputs(t, tc.inputs))
			if tc.errKind != "" {
				var re *RunError
				var ee *engine.Error
				if !errors.As(err, &re) || !errors.As(err, &ee) || ee.Kind.String() != tc.errKind {
					t.Fatalf("want %s error in a RunError, got %v", tc.errKind, err)
				}
				if tc.check != nil {
					tc.check(t, res)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != "" {
				if got := contentJSON(t, res.Output); got != tc.want {
					t.Errorf("output %s\nwant   %s", got, tc.want)
				}
			}
			if tc.check != nil {
				tc.check(t, res)
			}
		})
	}
}

// TestSampleEndToEnd validates and runs testdata/sample_method.json with
// the local provider, twice, and checks the routing and determinism.
func TestSampleEndToEnd(t *testing.T) {
	m := loadTestMethod(t, "sample_method.json")
	if err := m.Validate(ValidateOptions{}).Err(); err != nil {
		t.Fatal(err)
	}
	in, err := os.ReadFile("testdata/sample_inputs.json")
	if err != nil {
		t.Fatal(err)
	}
	run := func() (*Result, string) {
		mem, err := LoadInputs(in)
		if err != nil {
			t.Fatal(err)
		}
		res, err := (&Runner{Library: m, Provider: LocalProvider{}}).Run(context.Background(), mem)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(struct {
			Output  any
			Renders []Render
			Reqs    []CompletionRequest
		}{jsonable(res.Output.Content), res.Renders, res.Requests})
		return res, string(b)
	}
	res, first := run()
	if _, second := run(); first != second {
		t.Fatal("two runs differ")
	}
	// Tickets 1 and 3 are urgent (LLM), ticket 2 routine (compose).
	if len(res.Requests) != 2 {
		t.Fatalf("%d provider calls, want 2", len(res.Requests))
	}
	req := res.Requests[0]
	if !strings.Contains(req.Prompt, "<ticket>\nsubject: Server down") || !strings.Contains(req.Prompt, "support@example.com") || !strings.Contains(req.Prompt, "priority 4") {
		t.Errorf("prompt %q", req.Prompt)
	}
	if req.SystemPrompt != "You answer support tickets for Acme. Our logo: [Image 1]" || len(req.Images) != 1 {
		t.Errorf("system prompt %q, images %v", req.SystemPrompt, req.Images)
	}
	mem, err := LoadInputs(in)
	if err != nil {
		t.Fatal(err)
	}
	batch, err := (&Runner{Library: m, Provider: LocalProvider{}}).RunPipe(context.Background(), "answer_all", mem)
	if err != nil {
		t.Fatal(err)
	}
	replies := batch.Output
	items := replies.Content.([]any)
	if len(items) != 3 || replies.Concept != "Text[]" {
		t.Fatalf("replies %v", replies)
	}
	canned := items[1].(*value.OrderedMap).Values[0].(string)
	if canned != "Dear customer,\nAcme Support team" {
		t.Errorf("canned reply %q", canned)
	}
	digest := contentJSON(t, res.Output)
	for _, want := range []string{`"title":"Ticket digest"`, `"by_subject":{"Server down":`, `"summary":"3 replies for 3 tickets"`, `"meta":{"source":"support","first_reply":"[local `} {
		if !strings.Contains(digest, want) {
			t.Errorf("digest lacks %s: %s", want, digest)
		}
	}
	t.Log(digest)
}

// TestRunnerParsesOnce: a runner parses each template of the library
// once, however many items a batch renders it for.
func TestRunnerParsesOnce(t *testing.T) {
	r := &Runner{Library: mustMethod(t, `{"main_pipe": "b", "pipes": {
		"b": {"type": "PipeBatch", "inputs": {"l": "Text[]"}, "output": "Text[]", "branch_pipe_code": "c", "input_list_name": "l", "input_item_name": "it"},
		"c": {"type": "PipeCompose", "inputs": {"it": "Text"}, "output": "Text", "template": "{{ it.text|upper }}"}}}`), Provider: LocalProvider{}}
	res, err := r.Run(context.Background(), mustInputs(t, `{"l": {"concept": "Text[]", "content": ["a", "b", "c", "d"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Renders) != 4 {
		t.Fatalf("%d renders", len(res.Renders))
	}
	if n := r.templates().Parsed(); n != 1 {
		t.Errorf("%d parses for one template rendered 4 times", n)
	}
}
