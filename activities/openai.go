package activities

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/failure"
	"github.com/jinjabox/jinjabox/method"
)

// OpenAIProvider is an OpenAI-compatible chat-completions client
// (POST {BaseURL}/chat/completions). Each request carries the call's
// idempotency key (IdempotencyKey of its context) in the Idempotency-Key
// header, the same on every attempt. Network errors, 408, 429 and 5xx are
// returned as plain errors so Temporal retries them; other 4xx answers
// are non-retryable ProviderError application errors.
type OpenAIProvider struct {
	BaseURL string
	APIKey  string
	Model   string
	// Client is the HTTP client (nil: one with a 2-minute timeout).
	Client *http.Client
}

// maxAnswer bounds a provider answer read into memory.
const maxAnswer = 4 << 20

// ProviderFromEnv picks the provider from the environment:
// JINJABOX_PROVIDER=openai uses OPENAI_BASE_URL (default
// https://api.openai.com/v1), OPENAI_API_KEY and OPENAI_MODEL (default
// gpt-4o-mini); unset or local is the local deterministic one, reading
// PipeExtract documents from JINJABOX_FILES (a directory; unset: data:
// URLs only) and simulating image generation and search when
// JINJABOX_SIMULATE=1.
func ProviderFromEnv() (method.Provider, error) {
	switch p := os.Getenv("JINJABOX_PROVIDER"); p {
	case "", "local":
		lp := method.LocalProvider{Simulate: os.Getenv("JINJABOX_SIMULATE") == "1"}
		if dir := os.Getenv("JINJABOX_FILES"); dir != "" {
			lp.Files = os.DirFS(dir)
		}
		return lp, nil
	case "openai":
		o := &OpenAIProvider{BaseURL: os.Getenv("OPENAI_BASE_URL"), APIKey: os.Getenv("OPENAI_API_KEY"), Model: os.Getenv("OPENAI_MODEL")}
		if o.BaseURL == "" {
			o.BaseURL = "https://api.openai.com/v1"
		}
		if o.Model == "" {
			o.Model = "gpt-4o-mini"
		}
		return o, nil
	default:
		return nil, fmt.Errorf("JINJABOX_PROVIDER=%q: want local or openai", p)
	}
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model          string            `json:"model"`
	Messages       []chatMessage     `json:"messages"`
	ResponseFormat map[string]string `json:"response_format,omitempty"`
}

type chatResponse struct {
	Choices []struct {
		Message chatMessage `json:"message"`
	} `json:"choices"`
}

// prompt turns a request into chat messages: images are listed by URL
// (the [Image n] tokens in the prompt refer to them), judge options and
// levels are spelled out, and a structured output asks for JSON with the
// declared fields.
func prompt(req method.CompletionRequest) ([]chatMessage, bool) {
	var msgs []chatMessage
	if req.SystemPrompt != "" {
		msgs = append(msgs, chatMessage{Role: "system", Content: req.SystemPrompt})
	}
	var b strings.Builder
	b.WriteString(req.Prompt)
	for i, im := range req.Images {
		fmt.Fprintf(&b, "\n[Image %d]: %s", i+1, im.URL)
	}
	if len(req.Options) > 0 {
		b.WriteString("\nAnswer with exactly one of: " + strings.Join(req.Options, ", "))
	}
	if len(req.Levels) > 0 {
		b.WriteString("\nAnswer with exactly one of: " + strings.Join(req.Levels, ", "))
	}
	structured := len(req.Fields) > 0
	if structured {
		b.WriteString("\nAnswer with a JSON object with the fields:")
		for _, f := range req.Fields {
			b.WriteString(" " + f.Name + " (" + f.Type + ")")
		}
	}
	if req.Kind == method.RequestImgGen && req.NegativePrompt != "" {
		b.WriteString("\nAvoid: " + req.NegativePrompt)
	}
	msgs = append(msgs, chatMessage{Role: "user", Content: b.String()})
	return msgs, structured
}

// model is the model a request calls: the one the pipe names (resolved
// by the run's model configuration: a preset, alias or waterfall's
// first), else the provider's default. A reference left unresolved (no
// configuration: "$writing", "@large", "~safe") is no model name.
func (o *OpenAIProvider) model(req method.CompletionRequest) string {
	if m := req.Model; m != "" && !strings.ContainsAny(m[:1], "$@~") {
		return m
	}
	return o.Model
}

// CompleteText implements method.Provider.
func (o *OpenAIProvider) CompleteText(ctx context.Context, req method.CompletionRequest) (method.CompletionResponse, error) {
	msgs, structured := prompt(req)
	body := chatRequest{Model: o.model(req), Messages: msgs}
	if structured {
		body.ResponseFormat = map[string]string{"type": "json_object"}
	}
	b, err := json.Marshal(body)
	if err != nil {
		return method.CompletionResponse{}, err
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(o.BaseURL, "/")+"/chat/completions", bytes.NewReader(b))
	if err != nil {
		return method.CompletionResponse{}, temporal.NewNonRetryableApplicationError(err.Error(), failure.ErrTypeProvider, nil)
	}
	hreq.Header.Set("Content-Type", "application/json")
	if o.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+o.APIKey)
	}
	if key := IdempotencyKey(ctx); key != "" {
		hreq.Header.Set(IdempotencyHeader, key)
	}
	client := o.Client
	if client == nil {
		client = &http.Client{Timeout: 2 * time.Minute}
	}
	resp, err := client.Do(hreq)
	if err != nil {
		return method.CompletionResponse{}, fmt.Errorf("provider: %w", err) // transient: retried
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return method.CompletionResponse{}, fmt.Errorf("provider: reading the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		msg := "provider: HTTP " + strconv.Itoa(resp.StatusCode) + ": " + strings.TrimSpace(string(data[:min(len(data), 300)]))
		if resp.StatusCode == http.StatusRequestTimeout || resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			return method.CompletionResponse{}, errors.New(msg)
		}
		return method.CompletionResponse{}, temporal.NewNonRetryableApplicationError(msg, failure.ErrTypeProvider, nil)
	}
	var cr chatResponse
	if err := json.Unmarshal(data, &cr); err != nil || len(cr.Choices) == 0 {
		return method.CompletionResponse{}, temporal.NewNonRetryableApplicationError("provider: malformed answer", failure.ErrTypeProvider, err)
	}
	text := cr.Choices[0].Message.Content
	switch {
	case req.Kind == method.RequestImgGen:
		return method.CompletionResponse{ImageURL: strings.TrimSpace(text)}, nil
	case structured:
		obj, err := value.DecodeJSON([]byte(text))
		if err != nil {
			return method.CompletionResponse{}, temporal.NewNonRetryableApplicationError("provider: structured answer is not JSON", failure.ErrTypeProvider, err)
		}
		return method.CompletionResponse{Object: obj}, nil
	}
	return method.CompletionResponse{Text: text}, nil
}
