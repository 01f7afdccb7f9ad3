package activities_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/failure"
	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/method/templating"
)

// recorded is one request the fake server received.
type recorded struct {
	Path   string
	Header http.Header
	Body   map[string]any
	Raw    string
}

// fakeOpenAI is a local OpenAI-compatible server (httptest listens on
// 127.0.0.1) that records every request and answers through answer.
type fakeOpenAI struct {
	URL  string
	mu   sync.Mutex
	reqs []recorded
}

func newFakeOpenAI(t *testing.T, answer func(w http.ResponseWriter, r recorded)) *fakeOpenAI {
	t.Helper()
	f := &fakeOpenAI{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rec := recorded{Path: r.URL.Path, Header: r.Header.Clone(), Raw: string(b)}
		_ = json.Unmarshal(b, &rec.Body)
		f.mu.Lock()
		f.reqs = append(f.reqs, rec)
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		answer(w, rec)
	}))
	t.Cleanup(srv.Close)
	f.URL = srv.URL + "/v1"
	return f
}

func (f *fakeOpenAI) requests() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.reqs...)
}

// chatAnswer is a chat completion whose one choice says content and
// stops for finish, with a refusal when refusal is set.
func chatAnswer(content, finish, refusal string) string {
	c, _ := json.Marshal(content)
	r := "null"
	if refusal != "" {
		b, _ := json.Marshal(refusal)
		r = string(b)
	}
	return `{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"` + finish +
		`","message":{"role":"assistant","content":` + string(c) + `,"refusal":` + r + `}}],` +
		`"usage":{"prompt_tokens":11,"completion_tokens":7,"total_tokens":18}}`
}

// reply answers with a status and a body.
func reply(status int, body string) func(http.ResponseWriter, recorded) {
	return func(w http.ResponseWriter, _ recorded) {
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// at is the value at a path of map keys and list indexes in a decoded
// JSON request body (nil: none).
func at(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// appError is the application error err is, with its type.
func appError(err error) (*temporal.ApplicationError, bool) {
	var ae *temporal.ApplicationError
	return ae, errors.As(err, &ae)
}

// TestOpenAIProvider runs the client against a local OpenAI-compatible
// server, one scenario a row: what the server answers, what was sent and
// what the caller gets. Every request carries the idempotency key, and
// the server sees exactly one request a call: the SDK does not retry.
func TestOpenAIProvider(t *testing.T) {
	for _, tc := range []struct {
		name   string
		req    method.CompletionRequest
		answer func(http.ResponseWriter, recorded)
		check  func(t *testing.T, got method.CompletionResponse, err error, r recorded)
	}{
		{
			name:   "text",
			req:    method.CompletionRequest{Kind: method.RequestLLM, SystemPrompt: "be brief", Prompt: "hi"},
			answer: reply(200, chatAnswer("Hello!", "stop", "")),
			check: func(t *testing.T, got method.CompletionResponse, err error, r recorded) {
				if err != nil || got.Text != "Hello!" {
					t.Fatalf("got %+v, %v", got, err)
				}
				if r.Path != "/v1/chat/completions" || r.Body["model"] != "m" || r.Header.Get("Authorization") != "Bearer k" {
					t.Fatalf("request %s %v %v", r.Path, r.Body, r.Header)
				}
				if jsonOf(r.Body["messages"]) != `[{"content":"be brief","role":"system"},{"content":"hi","role":"user"}]` {
					t.Fatalf("messages %s", jsonOf(r.Body["messages"]))
				}
				if r.Body["response_format"] != nil {
					t.Fatalf("a text answer asked for a format: %v", r.Body["response_format"])
				}
			},
		},
		{
			name:   "usage",
			req:    method.CompletionRequest{Kind: method.RequestLLM, Prompt: "hi"},
			answer: reply(200, chatAnswer("ok", "stop", "")),
			check: func(t *testing.T, got method.CompletionResponse, err error, _ recorded) {
				if err != nil || got.Usage == nil || *got.Usage != (method.Usage{PromptTokens: 11, CompletionTokens: 7, TotalTokens: 18}) {
					t.Fatalf("got %+v (usage %+v), %v", got, got.Usage, err)
				}
			},
		},
		{
			name:   "the pipe's model",
			req:    method.CompletionRequest{Kind: method.RequestLLM, Prompt: "hi", RequestExt: method.RequestExt{Model: "model-l"}},
			answer: reply(200, chatAnswer("ok", "stop", "")),
			check: func(t *testing.T, _ method.CompletionResponse, err error, r recorded) {
				if err != nil || r.Body["model"] != "model-l" {
					t.Fatalf("model %v, %v", r.Body["model"], err)
				}
			},
		},
		{
			name: "structured by a JSON schema",
			req: method.CompletionRequest{Kind: method.RequestLLM, Prompt: "card", Output: "shop.Card", Fields: []method.Field{
				{Name: "zeta", Type: "text", Required: true, Description: "last"},
				{Name: "alpha", Type: "integer", Required: true},
				{Name: "mood", Type: "text", Choices: []string{"glad", "sad"}},
				{Name: "when", Type: "date"},
				{Name: "tags", Type: "list", ItemType: "text", Required: true},
				{Name: "photo", Type: "Image", Required: true},
			}},
			answer: reply(200, chatAnswer(`{"zeta":"z","alpha":1,"mood":null,"when":"2026-12-05","tags":["a"],"photo":{"url":"https://x/p.png"}}`, "stop", "")),
			check: func(t *testing.T, got method.CompletionResponse, err error, r recorded) {
				if err != nil {
					t.Fatal(err)
				}
				// the answer's key order is kept
				if b := jsonOf(got.Object); b != `{"zeta":"z","alpha":1,"mood":null,"when":"2026-12-05","tags":["a"],"photo":{"url":"https://x/p.png"}}` {
					t.Fatalf("object %s", b)
				}
				rf := jsonOf(r.Body["response_format"])
				want := `{"json_schema":{"name":"shop_Card","schema":{"additionalProperties":false,"properties":{` +
					`"alpha":{"type":"integer"},` +
					`"mood":{"enum":["glad","sad",null],"type":["string","null"]},` +
					`"photo":{"additionalProperties":false,"properties":{"url":{"type":"string"}},"required":["url"],"type":"object"},` +
					`"tags":{"items":{"type":"string"},"type":"array"},` +
					`"when":{"format":"date","type":["string","null"]},` +
					`"zeta":{"description":"last","type":"string"}},` +
					`"required":["zeta","alpha","mood","when","tags","photo"],"type":"object"},"strict":true},"type":"json_schema"}`
				if rf != want {
					t.Fatalf("response_format\n got %s\nwant %s", rf, want)
				}
				// the schema is sent in the fields' order (the model writes
				// properties in that order)
				if i, j := strings.Index(r.Raw, `"zeta":{`), strings.Index(r.Raw, `"alpha":{`); i < 0 || j < i {
					t.Fatalf("properties out of order: %s", r.Raw)
				}
			},
		},
		{
			name: "a nested concept is sent non-strict",
			req: method.CompletionRequest{Kind: method.RequestLLM, Prompt: "p", Output: "Order",
				Fields: []method.Field{{Name: "buyer", Type: "concept", ConceptRef: "Person", Required: true}}},
			answer: reply(200, chatAnswer(`{"buyer":{"name":"Ann"}}`, "stop", "")),
			check: func(t *testing.T, got method.CompletionResponse, err error, r recorded) {
				if err != nil || jsonOf(got.Object) != `{"buyer":{"name":"Ann"}}` {
					t.Fatalf("got %s, %v", jsonOf(got.Object), err)
				}
				if s := at(r.Body, "response_format", "json_schema", "strict"); s != false {
					t.Fatalf("strict %v, want false: %s", s, jsonOf(r.Body["response_format"]))
				}
			},
		},
		{
			name: "a list output concept is wrapped in items",
			req: method.CompletionRequest{Kind: method.RequestLLM, Prompt: "p", Output: "Card[2]",
				Fields: []method.Field{{Name: "n", Type: "integer", Required: true}}},
			answer: reply(200, chatAnswer(`{"items":[{"n":1},{"n":2}]}`, "stop", "")),
			check: func(t *testing.T, got method.CompletionResponse, err error, r recorded) {
				if err != nil || jsonOf(got.Object) != `[{"n":1},{"n":2}]` {
					t.Fatalf("got %s, %v", jsonOf(got.Object), err)
				}
				items := at(r.Body, "response_format", "json_schema", "schema", "properties", "items")
				if jsonOf(items) != `{"items":{"additionalProperties":false,"properties":{"n":{"type":"integer"}},"required":["n"],"type":"object"},"maxItems":2,"minItems":2,"type":"array"}` {
					t.Fatalf("items schema %s", jsonOf(items))
				}
			},
		},
		{
			name:   "a judge's choice by an enum",
			req:    method.CompletionRequest{Kind: method.RequestJudge, Prompt: "which?", Options: []string{"a", "b"}},
			answer: reply(200, chatAnswer(`{"answer":"b"}`, "stop", "")),
			check: func(t *testing.T, got method.CompletionResponse, err error, r recorded) {
				if err != nil || got.Text != "b" {
					t.Fatalf("got %+v, %v", got, err)
				}
				if s := jsonOf(at(r.Body, "response_format", "json_schema", "schema", "properties", "answer")); s != `{"enum":["a","b"],"type":"string"}` {
					t.Fatalf("answer schema %s", s)
				}
				if c, _ := at(r.Body, "messages", 0, "content").(string); !strings.HasSuffix(c, "Answer with exactly one of: a, b") {
					t.Fatalf("prompt %q", c)
				}
			},
		},
		{
			name: "images as image parts",
			req: method.CompletionRequest{Kind: method.RequestLLM, Prompt: "Compare [Image 1] with [Image 2]", Images: []templating.ImageRef{
				{URL: "https://img.example/a.png"}, {URL: "data:image/png;base64,iVBORw0KGgo="}}},
			answer: reply(200, chatAnswer("same", "stop", "")),
			check: func(t *testing.T, got method.CompletionResponse, err error, r recorded) {
				if err != nil || got.Text != "same" {
					t.Fatalf("got %+v, %v", got, err)
				}
				want := `[{"text":"Compare [Image 1] with [Image 2]","type":"text"},` +
					`{"image_url":{"url":"https://img.example/a.png"},"type":"image_url"},` +
					`{"image_url":{"url":"data:image/png;base64,iVBORw0KGgo="},"type":"image_url"}]`
				if c := jsonOf(at(r.Body, "messages", 0, "content")); c != want {
					t.Fatalf("content\n got %s\nwant %s", c, want)
				}
			},
		},
		{
			name: "image generation answered by URL",
			req: method.CompletionRequest{Kind: method.RequestImgGen, Prompt: "a cat", NegativePrompt: "dogs",
				RequestExt: method.RequestExt{Model: "img-1", Size: "1024x1024"}},
			answer: reply(200, `{"created":1,"data":[{"url":"https://img.example/cat.png"}]}`),
			check: func(t *testing.T, got method.CompletionResponse, err error, r recorded) {
				if err != nil || got.ImageURL != "https://img.example/cat.png" {
					t.Fatalf("got %+v, %v", got, err)
				}
				if r.Path != "/v1/images/generations" || r.Body["prompt"] != "a cat\nAvoid: dogs" || r.Body["model"] != "img-1" || r.Body["size"] != "1024x1024" {
					t.Fatalf("request %s %v", r.Path, r.Body)
				}
			},
		},
		{
			name:   "image generation answered in base64",
			req:    method.CompletionRequest{Kind: method.RequestImgGen, Prompt: "a cat"},
			answer: reply(200, `{"created":1,"output_format":"webp","data":[{"b64_json":"UklGRg=="}],"usage":{"input_tokens":5,"output_tokens":100,"total_tokens":105,"input_tokens_details":{"image_tokens":0,"text_tokens":5}}}`),
			check: func(t *testing.T, got method.CompletionResponse, err error, r recorded) {
				if err != nil || got.ImageURL != "data:image/webp;base64,UklGRg==" {
					t.Fatalf("got %+v, %v", got, err)
				}
				if got.Usage == nil || got.Usage.TotalTokens != 105 {
					t.Fatalf("usage %+v", got.Usage)
				}
				// no pipe model and no ImageModel: the server's default
				if _, ok := r.Body["model"]; ok {
					t.Fatalf("model sent: %v", r.Body)
				}
			},
		},
		{
			name: "429 with Retry-After is rate-limited, retried after it",
			req:  method.CompletionRequest{Kind: method.RequestLLM, Prompt: "x"},
			answer: func(w http.ResponseWriter, _ recorded) {
				w.Header().Set("Retry-After", "7")
				w.WriteHeader(http.StatusTooManyRequests)
				_, _ = io.WriteString(w, `{"error":{"message":"slow down","type":"requests","code":"rate_limit_exceeded"}}`)
			},
			check: func(t *testing.T, _ method.CompletionResponse, err error, _ recorded) {
				ae, ok := appError(err)
				if !ok || ae.Type() != failure.ErrTypeRateLimited || ae.NonRetryable() || ae.NextRetryDelay() != 7*time.Second {
					t.Fatalf("got %v (application error %v)", err, ok)
				}
				if !strings.Contains(err.Error(), "slow down") {
					t.Fatalf("message %q", err)
				}
			},
		},
		{
			name:   "429 without Retry-After takes the policy's backoff",
			req:    method.CompletionRequest{Kind: method.RequestLLM, Prompt: "x"},
			answer: reply(http.StatusTooManyRequests, `{"error":{"message":"slow down"}}`),
			check: func(t *testing.T, _ method.CompletionResponse, err error, _ recorded) {
				if ae, ok := appError(err); !ok || ae.Type() != failure.ErrTypeRateLimited || ae.NonRetryable() || ae.NextRetryDelay() != 0 {
					t.Fatalf("got %v", err)
				}
			},
		},
		{
			name:   "429 for a spent quota is final",
			req:    method.CompletionRequest{Kind: method.RequestLLM, Prompt: "x"},
			answer: reply(http.StatusTooManyRequests, `{"error":{"message":"quota","type":"insufficient_quota","code":"insufficient_quota"}}`),
			check: func(t *testing.T, _ method.CompletionResponse, err error, _ recorded) {
				if ae, ok := appError(err); !ok || ae.Type() != failure.ErrTypeProvider || !ae.NonRetryable() {
					t.Fatalf("got %v", err)
				}
			},
		},
		{
			name:   "500 is transient",
			req:    method.CompletionRequest{Kind: method.RequestLLM, Prompt: "x"},
			answer: reply(http.StatusInternalServerError, `{"error":{"message":"oops"}}`),
			check: func(t *testing.T, _ method.CompletionResponse, err error, _ recorded) {
				if _, ok := appError(err); err == nil || ok || !strings.Contains(err.Error(), "500") {
					t.Fatalf("got %v, want a plain error", err)
				}
			},
		},
		{
			name:   "400 is a final ProviderError",
			req:    method.CompletionRequest{Kind: method.RequestLLM, Prompt: "x"},
			answer: reply(http.StatusBadRequest, `{"error":{"message":"bad model","type":"invalid_request_error"}}`),
			check: func(t *testing.T, _ method.CompletionResponse, err error, _ recorded) {
				if ae, ok := appError(err); !ok || ae.Type() != failure.ErrTypeProvider || !ae.NonRetryable() || !strings.Contains(err.Error(), "bad model") {
					t.Fatalf("got %v", err)
				}
			},
		},
		{
			name:   "a content policy rejection is refused",
			req:    method.CompletionRequest{Kind: method.RequestImgGen, Prompt: "x"},
			answer: reply(http.StatusBadRequest, `{"error":{"message":"no","type":"image_generation_user_error","code":"content_policy_violation"}}`),
			check: func(t *testing.T, _ method.CompletionResponse, err error, _ recorded) {
				if ae, ok := appError(err); !ok || ae.Type() != failure.ErrTypeRefused || !ae.NonRetryable() {
					t.Fatalf("got %v", err)
				}
			},
		},
		{
			name:   "finish_reason length is truncated",
			req:    method.CompletionRequest{Kind: method.RequestLLM, Prompt: "x", Output: "Card", Fields: []method.Field{{Name: "a", Type: "text"}}},
			answer: reply(200, chatAnswer(`{"a":"unfini`, "length", "")),
			check: func(t *testing.T, _ method.CompletionResponse, err error, _ recorded) {
				if ae, ok := appError(err); !ok || ae.Type() != failure.ErrTypeTruncated || !ae.NonRetryable() {
					t.Fatalf("got %v", err)
				}
			},
		},
		{
			name:   "a refusal is refused",
			req:    method.CompletionRequest{Kind: method.RequestLLM, Prompt: "x"},
			answer: reply(200, chatAnswer("", "stop", "I can't help with that.")),
			check: func(t *testing.T, _ method.CompletionResponse, err error, _ recorded) {
				if ae, ok := appError(err); !ok || ae.Type() != failure.ErrTypeRefused || !ae.NonRetryable() || !strings.Contains(err.Error(), "can't help") {
					t.Fatalf("got %v", err)
				}
			},
		},
		{
			name:   "finish_reason content_filter is refused",
			req:    method.CompletionRequest{Kind: method.RequestLLM, Prompt: "x"},
			answer: reply(200, chatAnswer("", "content_filter", "")),
			check: func(t *testing.T, _ method.CompletionResponse, err error, _ recorded) {
				if ae, ok := appError(err); !ok || ae.Type() != failure.ErrTypeRefused || !ae.NonRetryable() {
					t.Fatalf("got %v", err)
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeOpenAI(t, tc.answer)
			p := &activities.OpenAIProvider{BaseURL: f.URL, APIKey: "k", Model: "m"}
			got, err := p.CompleteText(activities.WithIdempotencyKey(t.Context(), "key-1"), tc.req)
			reqs := f.requests()
			// one request a call: the SDK's own retries are off
			if len(reqs) != 1 {
				t.Fatalf("the server saw %d requests, want 1", len(reqs))
			}
			if k := reqs[0].Header.Get(activities.IdempotencyHeader); k != "key-1" {
				t.Fatalf("Idempotency-Key %q", k)
			}
			tc.check(t, got, err, reqs[0])
		})
	}
}

// A server that is down is transient: a plain error, retried.
func TestOpenAIProviderDown(t *testing.T) {
	p := &activities.OpenAIProvider{BaseURL: "http://127.0.0.1:1/v1", Model: "m"}
	_, err := p.CompleteText(t.Context(), method.CompletionRequest{Prompt: "x"})
	if _, ok := appError(err); err == nil || ok || !strings.Contains(err.Error(), "provider") {
		t.Errorf("connection refused: %v", err)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		h    map[string]string
		want time.Duration
	}{
		{map[string]string{"Retry-After": "7"}, 7 * time.Second},
		{map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond},
		{map[string]string{"Retry-After": "Sat, 05 Dec 2026 12:00:30 GMT"}, 30 * time.Second},
		{map[string]string{"Retry-After": "Sat, 05 Dec 2026 11:00:00 GMT"}, 0}, // past
		{map[string]string{"Retry-After": "-3"}, 0},
		{map[string]string{"Retry-After": "soon"}, 0},
		{map[string]string{"retry-after-ms": "250", "Retry-After": "1"}, 250 * time.Millisecond},
		{nil, 0},
	} {
		h := http.Header{}
		for k, v := range tc.h {
			h.Set(k, v)
		}
		if got := activities.RetryAfter(h, now); got != tc.want {
			t.Errorf("%v: %v, want %v", tc.h, got, tc.want)
		}
	}
}

func TestProviderFromEnv(t *testing.T) {
	t.Setenv("JINJABOX_PROVIDER", "")
	t.Setenv("JINJABOX_FILES", "")
	t.Setenv("JINJABOX_SIMULATE", "")
	if p, err := activities.ProviderFromEnv(); err != nil || p != (method.LocalProvider{}) {
		t.Fatalf("default: %v %v", p, err)
	}
	t.Setenv("JINJABOX_PROVIDER", "openai")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
	t.Setenv("OPENAI_IMAGE_MODEL", "img")
	p, err := activities.ProviderFromEnv()
	if o, ok := p.(*activities.OpenAIProvider); err != nil || !ok || o.BaseURL != "http://127.0.0.1:9/v1" || o.Model == "" || o.ImageModel != "img" {
		t.Fatalf("openai: %#v %v", p, err)
	}
	t.Setenv("JINJABOX_PROVIDER", "other")
	if _, err := activities.ProviderFromEnv(); err == nil {
		t.Fatal("want an error for an unknown provider")
	}
}

// Without an idempotency key in the context no such header is sent.
func TestOpenAIProviderNoIdempotencyKey(t *testing.T) {
	f := newFakeOpenAI(t, reply(200, chatAnswer("ok", "stop", "")))
	p := &activities.OpenAIProvider{BaseURL: f.URL, Model: "m"}
	if _, err := p.CompleteText(t.Context(), method.CompletionRequest{Kind: method.RequestLLM, Prompt: "hi"}); err != nil {
		t.Fatal(err)
	}
	if r := f.requests(); len(r) != 1 || r[0].Header.Values(activities.IdempotencyHeader) != nil {
		t.Fatalf("requests %+v", r)
	}
}
