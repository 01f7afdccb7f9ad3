package activities_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/failure"
	"github.com/jinjabox/jinjabox/method"
)

// fakeOpenAI speaks the chat-completions protocol: it answers with
// status and content, and records the last request body.
func fakeOpenAI(t *testing.T, status int, content string, last *map[string]any) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer k" {
			http.Error(w, "bad path or key", http.StatusUnauthorized)
			return
		}
		b, _ := io.ReadAll(r.Body)
		if last != nil {
			_ = json.Unmarshal(b, last)
		}
		if status != http.StatusOK {
			http.Error(w, `{"error":"nope"}`, status)
			return
		}
		c, _ := json.Marshal(content)
		_, _ = io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":`+string(c)+`}}]}`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestOpenAIProviderText(t *testing.T) {
	var body map[string]any
	srv := fakeOpenAI(t, http.StatusOK, "Hello!", &body)
	p := &activities.OpenAIProvider{BaseURL: srv.URL + "/v1", APIKey: "k", Model: "m"}
	got, err := p.CompleteText(t.Context(), method.CompletionRequest{Kind: method.RequestLLM, SystemPrompt: "be brief", Prompt: "hi"})
	if err != nil || got.Text != "Hello!" {
		t.Fatalf("got %+v, %v", got, err)
	}
	msgs, _ := body["messages"].([]any)
	if body["model"] != "m" || len(msgs) != 2 {
		t.Fatalf("request %v", body)
	}
}

// A structured output asks for a JSON object and keeps its key order.
func TestOpenAIProviderStructured(t *testing.T) {
	var body map[string]any
	srv := fakeOpenAI(t, http.StatusOK, `{"zeta":"z","alpha":1}`, &body)
	p := &activities.OpenAIProvider{BaseURL: srv.URL + "/v1", APIKey: "k", Model: "m"}
	got, err := p.CompleteText(t.Context(), method.CompletionRequest{Kind: method.RequestLLM, Prompt: "card",
		Output: "Card", Fields: []method.Field{{Name: "zeta", Type: "text"}, {Name: "alpha", Type: "integer"}}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got.Object)
	if string(b) != `{"zeta":"z","alpha":1}` || body["response_format"] == nil {
		t.Fatalf("object %s, request %v", b, body)
	}
}

// 429 and 5xx stay retryable (plain errors); other 4xx are
// non-retryable ProviderErrors.
func TestOpenAIProviderErrors(t *testing.T) {
	for _, tc := range []struct {
		status    int
		retryable bool
	}{{http.StatusTooManyRequests, true}, {http.StatusBadGateway, true}, {http.StatusBadRequest, false}} {
		srv := fakeOpenAI(t, tc.status, "", nil)
		p := &activities.OpenAIProvider{BaseURL: srv.URL + "/v1", APIKey: "k", Model: "m"}
		_, err := p.CompleteText(t.Context(), method.CompletionRequest{Kind: method.RequestLLM, Prompt: "x"})
		var ae *temporal.ApplicationError
		isApp := errors.As(err, &ae)
		if err == nil || isApp == tc.retryable || (isApp && (ae.Type() != failure.ErrTypeProvider || !ae.NonRetryable())) {
			t.Errorf("HTTP %d: %v (application error %v)", tc.status, err, isApp)
		}
	}
	// A server that is down is transient too.
	p := &activities.OpenAIProvider{BaseURL: "http://127.0.0.1:1/v1", Model: "m"}
	_, err := p.CompleteText(t.Context(), method.CompletionRequest{Prompt: "x"})
	var ae *temporal.ApplicationError
	if err == nil || errors.As(err, &ae) || !strings.Contains(err.Error(), "provider") {
		t.Errorf("connection refused: %v", err)
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
	p, err := activities.ProviderFromEnv()
	if o, ok := p.(*activities.OpenAIProvider); err != nil || !ok || o.BaseURL != "http://127.0.0.1:9/v1" || o.Model == "" {
		t.Fatalf("openai: %#v %v", p, err)
	}
	t.Setenv("JINJABOX_PROVIDER", "other")
	if _, err := activities.ProviderFromEnv(); err == nil {
		t.Fatal("want an error for an unknown provider")
	}
}

// The request carries the context's idempotency key in the
// Idempotency-Key header, and no such header without one.
func TestOpenAIProviderIdempotencyKey(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Header.Get(activities.IdempotencyHeader))
		_, _ = io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":"ok"}}]}`)
	}))
	defer srv.Close()
	p := &activities.OpenAIProvider{BaseURL: srv.URL, Model: "m"}
	req := method.CompletionRequest{Kind: method.RequestLLM, Prompt: "hi"}
	if _, err := p.CompleteText(activities.WithIdempotencyKey(t.Context(), "k-123"), req); err != nil {
		t.Fatal(err)
	}
	if _, err := p.CompleteText(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != "k-123" || got[1] != "" {
		t.Fatalf("Idempotency-Key headers %q, want [k-123 \"\"]", got)
	}
}
