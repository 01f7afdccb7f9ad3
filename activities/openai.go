package activities

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
	"go.temporal.io/sdk/temporal"

	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/failure"
	"github.com/jinjabox/jinjabox/method"
)

// OpenAIProvider is a client of the OpenAI API, or of any server that
// speaks it (BaseURL), on the official Go SDK
// (github.com/openai/openai-go). PipeLLM, PipeJudge, PipeSearch and
// PipeExtract call chat completions (POST {BaseURL}/chat/completions),
// the request's images as image parts of the user message and a
// structured output constrained by a JSON schema built from the output
// concept's fields; PipeImgGen calls the images API (POST
// {BaseURL}/images/generations).
//
// Temporal owns the retries: the SDK's own are off, so every attempt is
// one HTTP request that Temporal schedules, with the call's idempotency
// key (IdempotencyKey of its context) in the Idempotency-Key header, the
// same on every attempt. Network errors, 408 and 5xx are plain errors,
// retried; 429 is a retryable ProviderRateLimited application error whose
// next retry delay is the server's Retry-After (CompleteText gives it an
// attempt budget of its own); other 4xx answers are non-retryable
// ProviderErrors; an answer cut off at the token limit is a final
// ProviderTruncated, a refusal a final ProviderRefused.
type OpenAIProvider struct {
	// BaseURL is the API's base URL, e.g. https://api.openai.com/v1 (empty:
	// the SDK's, OPENAI_BASE_URL else OpenAI's).
	BaseURL string
	APIKey  string
	// Model is the chat model called when the pipe names none.
	Model string
	// ImageModel is the image model called when a PipeImgGen names none
	// (empty: the server's default).
	ImageModel string
	// Client is the HTTP client (nil: one with a 2-minute timeout).
	Client *http.Client
}

// ProviderFromEnv picks the provider from the environment:
// JINJABOX_PROVIDER=openai uses OPENAI_BASE_URL (default
// https://api.openai.com/v1), OPENAI_API_KEY, OPENAI_MODEL (default
// gpt-4o-mini) and OPENAI_IMAGE_MODEL (default: the server's); unset or
// local is the local deterministic one, reading PipeExtract documents
// from JINJABOX_FILES (a directory; unset: data: URLs only) and
// simulating image generation and search when JINJABOX_SIMULATE=1.
func ProviderFromEnv() (method.Provider, error) {
	switch p := os.Getenv("JINJABOX_PROVIDER"); p {
	case "", "local":
		lp := method.LocalProvider{Simulate: os.Getenv("JINJABOX_SIMULATE") == "1"}
		if dir := os.Getenv("JINJABOX_FILES"); dir != "" {
			lp.Files = os.DirFS(dir)
		}
		return lp, nil
	case "openai":
		o := &OpenAIProvider{BaseURL: os.Getenv("OPENAI_BASE_URL"), APIKey: os.Getenv("OPENAI_API_KEY"),
			Model: os.Getenv("OPENAI_MODEL"), ImageModel: os.Getenv("OPENAI_IMAGE_MODEL")}
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

// defaultHTTPClient bounds a request the activity's start-to-close
// timeout does not (a call made outside an activity, by jinjabox exec).
var defaultHTTPClient = &http.Client{Timeout: 2 * time.Minute}

// client is the SDK client of o. It is cheap to build (a list of
// options), so it is built per call and o's fields may change between
// calls.
func (o *OpenAIProvider) client() openai.Client {
	hc := o.Client
	if hc == nil {
		hc = defaultHTTPClient
	}
	opts := []option.RequestOption{option.WithHTTPClient(hc),
		// Temporal retries, with its backoff, attempt budget and
		// history; the SDK retrying inside an attempt would hide
		// attempts from it and multiply them.
		option.WithMaxRetries(0)}
	if o.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(o.BaseURL))
	}
	if o.APIKey != "" {
		opts = append(opts, option.WithAPIKey(o.APIKey))
	}
	return openai.NewClient(opts...)
}

// model is the chat model a request calls: the one the pipe names
// (resolved by the run's model configuration: a preset, alias or
// waterfall's first), else the provider's default.
func (o *OpenAIProvider) model(req method.CompletionRequest) string {
	if m := pipeModel(req); m != "" {
		return m
	}
	return o.Model
}

// pipeModel is the model the pipe names, "" when none. A reference left
// unresolved (no configuration: "$writing", "@large", "~safe") is no
// model name.
func pipeModel(req method.CompletionRequest) string {
	if m := req.Model; m != "" && !strings.ContainsAny(m[:1], "$@~") {
		return m
	}
	return ""
}

// CompleteText implements method.Provider.
func (o *OpenAIProvider) CompleteText(ctx context.Context, req method.CompletionRequest) (method.CompletionResponse, error) {
	c := o.client()
	var opts []option.RequestOption
	if key := IdempotencyKey(ctx); key != "" {
		opts = append(opts, option.WithHeader(IdempotencyHeader, key))
	}
	if req.Kind == method.RequestImgGen {
		return o.generateImage(ctx, c, req, opts)
	}
	params, shape := chatParams(req, o.model(req))
	cc, err := c.Chat.Completions.New(ctx, params, opts...)
	if err != nil {
		return method.CompletionResponse{}, apiFailure(ctx, err)
	}
	return chatAnswer(cc, shape)
}

// answerShape is how a chat answer becomes a CompletionResponse.
type answerShape int

const (
	shapeText   answerShape = iota // the text
	shapeObject                    // a JSON object of the output concept's fields
	shapeList                      // {"items": [...]}: a list output concept
	shapeChoice                    // {"answer": one of the options}: a judge's verdict
)

// chatParams turns a request into a chat completion request: a system
// message, a user message of the prompt followed by the request's images
// as image parts (the [Image n] tokens of the prompt number them in that
// order), and a response format: a JSON schema for a structured output
// or a judge's choice, text otherwise.
func chatParams(req method.CompletionRequest, model string) (openai.ChatCompletionNewParams, answerShape) {
	var msgs []openai.ChatCompletionMessageParamUnion
	if req.SystemPrompt != "" {
		msgs = append(msgs, openai.SystemMessage(req.SystemPrompt))
	}
	var b strings.Builder
	b.WriteString(req.Prompt)
	choices := req.Options
	if len(choices) == 0 {
		choices = req.Levels
	}
	if len(choices) > 0 {
		// kept beside the enum schema: a server that ignores
		// response_format still reads what to answer
		b.WriteString("\nAnswer with exactly one of: " + strings.Join(choices, ", "))
	}
	if len(req.Images) == 0 {
		msgs = append(msgs, openai.UserMessage(b.String()))
	} else {
		parts := []openai.ChatCompletionContentPartUnionParam{openai.TextContentPart(b.String())}
		for _, im := range req.Images {
			// data: and https: URLs both go as they are: the API takes
			// either as an image_url
			parts = append(parts, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: im.URL}))
		}
		msgs = append(msgs, openai.UserMessage(parts))
	}
	p := openai.ChatCompletionNewParams{Model: shared.ChatModel(model), Messages: msgs}
	shape := shapeText
	var schema *value.OrderedMap
	strict := true
	switch {
	case len(req.Fields) > 0:
		schema, strict = objectSchema(req.Fields)
		shape = shapeObject
		if spec := method.ParseConceptSpec(req.Output); spec.List {
			items := obj("type", "array", "items", schema)
			if spec.Count > 0 {
				items.Keys = append(items.Keys, "minItems", "maxItems")
				items.Values = append(items.Values, spec.Count, spec.Count)
			}
			schema = closedObject([]string{"items"}, []any{items})
			shape = shapeList
		}
	case len(choices) > 0:
		schema = closedObject([]string{"answer"}, []any{obj("type", "string", "enum", choices)})
		shape = shapeChoice
	}
	if schema != nil {
		p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
				Name: schemaName(req), Strict: openai.Bool(strict), Schema: schema}}}
	}
	return p, shape
}

// chatAnswer turns a chat completion into a response, or into a typed
// failure when the model did not answer in full.
func chatAnswer(cc *openai.ChatCompletion, shape answerShape) (method.CompletionResponse, error) {
	if cc == nil || len(cc.Choices) == 0 {
		return method.CompletionResponse{}, temporal.NewNonRetryableApplicationError("provider: malformed answer: no choices", failure.ErrTypeProvider, nil)
	}
	ch := cc.Choices[0]
	if r := ch.Message.Refusal; r != "" {
		return method.CompletionResponse{}, temporal.NewNonRetryableApplicationError("provider: the model refused: "+clip(r), failure.ErrTypeRefused, nil)
	}
	switch ch.FinishReason {
	case "length":
		return method.CompletionResponse{}, temporal.NewNonRetryableApplicationError(
			"provider: the answer was cut off at the token limit (finish_reason length)", failure.ErrTypeTruncated, nil)
	case "content_filter":
		return method.CompletionResponse{}, temporal.NewNonRetryableApplicationError(
			"provider: the answer was withheld by the content filter (finish_reason content_filter)", failure.ErrTypeRefused, nil)
	}
	var resp method.CompletionResponse
	if cc.JSON.Usage.Valid() {
		resp.Usage = &method.Usage{PromptTokens: cc.Usage.PromptTokens, CompletionTokens: cc.Usage.CompletionTokens, TotalTokens: cc.Usage.TotalTokens}
	}
	text := ch.Message.Content
	if shape == shapeText {
		resp.Text = text
		return resp, nil
	}
	v, err := value.DecodeJSON([]byte(text))
	if err != nil {
		return method.CompletionResponse{}, temporal.NewNonRetryableApplicationError("provider: structured answer is not JSON", failure.ErrTypeProvider, err)
	}
	om, _ := v.(*value.OrderedMap)
	switch shape {
	case shapeObject:
		if om == nil {
			return method.CompletionResponse{}, temporal.NewNonRetryableApplicationError("provider: structured answer is not a JSON object", failure.ErrTypeProvider, nil)
		}
		resp.Object = om
	case shapeList:
		items, ok := field(om, "items").([]any)
		if !ok {
			return method.CompletionResponse{}, temporal.NewNonRetryableApplicationError(`provider: list answer has no "items" array`, failure.ErrTypeProvider, nil)
		}
		resp.Object = items
	case shapeChoice:
		s, ok := field(om, "answer").(string)
		if !ok {
			return method.CompletionResponse{}, temporal.NewNonRetryableApplicationError(`provider: judge answer has no "answer" string`, failure.ErrTypeProvider, nil)
		}
		resp.Text = s
	}
	return resp, nil
}

// field is m's value at k (nil: none, or m is nil).
func field(m *value.OrderedMap, k string) any {
	if m == nil {
		return nil
	}
	for i, key := range m.Keys {
		if key == k {
			return m.Values[i]
		}
	}
	return nil
}

// imageSize is a size the images API takes as it is.
var imageSize = regexp.MustCompile(`^(auto|[0-9]+x[0-9]+)$`)

// generateImage runs a PipeImgGen through the images API. The negative
// prompt is folded into the prompt, as the API has no field for it. The
// image is the URL the server answers, or a data: URL of the base64
// image it answers instead (GPT image models always answer base64).
func (o *OpenAIProvider) generateImage(ctx context.Context, c openai.Client, req method.CompletionRequest, opts []option.RequestOption) (method.CompletionResponse, error) {
	prompt := req.Prompt
	if req.NegativePrompt != "" {
		prompt += "\nAvoid: " + req.NegativePrompt
	}
	p := openai.ImageGenerateParams{Prompt: prompt, Model: pipeModel(req)}
	if p.Model == "" {
		p.Model = o.ImageModel
	}
	if imageSize.MatchString(req.Size) {
		p.Size = openai.ImageGenerateParamsSize(req.Size)
	}
	res, err := c.Images.Generate(ctx, p, opts...)
	if err != nil {
		return method.CompletionResponse{}, apiFailure(ctx, err)
	}
	if res == nil || len(res.Data) == 0 {
		return method.CompletionResponse{}, temporal.NewNonRetryableApplicationError("provider: malformed answer: no image", failure.ErrTypeProvider, nil)
	}
	var resp method.CompletionResponse
	if res.JSON.Usage.Valid() {
		resp.Usage = &method.Usage{PromptTokens: res.Usage.InputTokens, CompletionTokens: res.Usage.OutputTokens, TotalTokens: res.Usage.TotalTokens}
	}
	switch im := res.Data[0]; {
	case im.URL != "":
		resp.ImageURL = im.URL
	case im.B64JSON != "":
		format := string(res.OutputFormat)
		if format == "" {
			format = "png"
		}
		resp.ImageURL = "data:image/" + format + ";base64," + im.B64JSON
	default:
		return method.CompletionResponse{}, temporal.NewNonRetryableApplicationError("provider: malformed answer: an image with neither url nor b64_json", failure.ErrTypeProvider, nil)
	}
	return resp, nil
}

// apiFailure types a failed request for Temporal. A cancelled or timed
// out context returns its error, which Temporal handles as it handles
// the activity's. A request that got no answer (network) is transient.
// The server's answer decides the rest: 429 is rate-limited (retryable
// after its Retry-After, unless the account's quota is spent), 408 and
// 5xx transient, a content policy rejection refused, other 4xx final.
func apiFailure(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var ae *openai.Error
	if !errors.As(err, &ae) {
		return fmt.Errorf("provider: %w", err) // transient: retried
	}
	msg := "provider: " + ae.Error()
	if ae.Message != "" {
		msg += ": " + clip(ae.Message)
	}
	switch {
	case ae.StatusCode == http.StatusTooManyRequests && ae.Code != "insufficient_quota" && ae.Type != "insufficient_quota":
		var h http.Header
		if ae.Response != nil {
			h = ae.Response.Header
		}
		return temporal.NewApplicationErrorWithOptions(msg, failure.ErrTypeRateLimited,
			temporal.ApplicationErrorOptions{NextRetryDelay: RetryAfter(h, time.Now())})
	case ae.StatusCode == http.StatusRequestTimeout || ae.StatusCode >= 500:
		return errors.New(msg) // transient: retried
	case ae.Code == "content_policy_violation" || ae.Code == "moderation_blocked":
		return temporal.NewNonRetryableApplicationError(msg, failure.ErrTypeRefused, nil)
	}
	return temporal.NewNonRetryableApplicationError(msg, failure.ErrTypeProvider, nil)
}

// RetryAfter is the delay a server asks for before the next request, 0
// when it asks for none: the retry-after-ms header (OpenAI's, in
// milliseconds), else Retry-After in seconds or as an HTTP date (RFC 9110
// 10.2.3), relative to now.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	if ms, err := strconv.ParseFloat(h.Get("retry-after-ms"), 64); err == nil && ms > 0 && ms < 1e12 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s > 0 && s < 1e9 {
			return time.Duration(s * float64(time.Second))
		}
		return 0
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// clip bounds a server's message quoted in an error.
func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 300 {
		return strings.ToValidUTF8(s[:300], "") + "..."
	}
	return s
}
