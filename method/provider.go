package method

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/method/templating"
)

// Request kinds.
const (
	RequestLLM    = "llm"
	RequestJudge  = "judge"
	RequestImgGen = "img_gen"
	RequestSearch = "search"
)

// CompletionRequest is one model call: PipeLLM, PipeJudge, PipeImgGen
// and PipeSearch all go through it. It holds rendered text only, never a
// template.
type CompletionRequest struct {
	Kind           string                `json:"kind"`
	Pipe           string                `json:"pipe"`
	SystemPrompt   string                `json:"system_prompt,omitempty"`
	Prompt         string                `json:"prompt"`
	NegativePrompt string                `json:"negative_prompt,omitempty"`
	Images         []templating.ImageRef `json:"images,omitempty"`
	// Output is the output concept spec; Fields its fields when structured.
	Output string  `json:"output,omitempty"`
	Fields []Field `json:"fields,omitempty"`
	// Judge: the choice options (sorted keys) or rating levels.
	Options []string `json:"options,omitempty"`
	Levels  []string `json:"levels,omitempty"`
	// Search.
	MaxResults int `json:"max_results,omitempty"`

	// The fields of Pipelex method files; see RequestExt.
	RequestExt
}

// CompletionResponse is a model's answer.
type CompletionResponse struct {
	// Text is the answer text (Text outputs, verdicts, search results).
	Text string `json:"text,omitempty"`
	// Object is structured output: JSON-shaped (*value.OrderedMap, or
	// []any for a list concept).
	Object any `json:"object,omitempty"`
	// ImageURL is a generated image.
	ImageURL string `json:"image_url,omitempty"`
	// Usage is the tokens the call cost, when the provider reports them
	// (nil: not reported, as by the local provider, whose answers keep
	// their encoding).
	Usage *Usage `json:"usage,omitempty"`
}

// Usage is the token usage of one model call as the provider counts it.
type Usage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	TotalTokens      int64 `json:"total_tokens"`
}

// UnmarshalJSON decodes an answer keeping the structured object's key
// order and number types (Temporal carries answers as JSON).
func (r *CompletionResponse) UnmarshalJSON(b []byte) error {
	var w struct {
		Text     string          `json:"text"`
		Object   json.RawMessage `json:"object"`
		ImageURL string          `json:"image_url"`
		Usage    *Usage          `json:"usage"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*r = CompletionResponse{Text: w.Text, ImageURL: w.ImageURL, Usage: w.Usage}
	if len(w.Object) > 0 && string(w.Object) != "null" {
		o, err := value.DecodeJSON(w.Object)
		if err != nil {
			return err
		}
		r.Object = o
	}
	return nil
}

// Provider runs model calls. Implementations do the I/O; the runner
// stays pure.
type Provider interface {
	CompleteText(ctx context.Context, req CompletionRequest) (CompletionResponse, error)
}

// LocalProvider is a deterministic offline provider: every answer is a
// pure function of the request (its SHA-256), for tests and dry runs. It
// extracts text documents for real (see extractLocal) and refuses what it
// cannot do offline (image generation, web search, PDFs, images) with an
// *UnsupportedError, unless Simulate asks for placeholders.
type LocalProvider struct {
	// Files is where document paths (relative or file://) are read from;
	// nil: only data: URLs.
	Files fs.FS
	// Simulate answers image generation and search with deterministic
	// placeholders instead of refusing (dry runs of a method's plumbing).
	Simulate bool
}

// CompleteText implements Provider.
func (p LocalProvider) CompleteText(_ context.Context, req CompletionRequest) (CompletionResponse, error) {
	switch req.Kind {
	case RequestExtract:
		return extractLocal(p.Files, req)
	case RequestImgGen, RequestSearch:
		if !p.Simulate {
			return CompletionResponse{}, &UnsupportedError{Pipe: req.Pipe, Kind: req.Kind, Reason: "the local provider has no " + map[string]string{RequestImgGen: "image generation model", RequestSearch: "web search"}[req.Kind]}
		}
	}
	b, err := json.Marshal(req) // struct fields only: a stable encoding
	if err != nil {
		return CompletionResponse{}, err
	}
	sum := sha256.Sum256(b)
	h := hex.EncodeToString(sum[:])
	n := binary.BigEndian.Uint64(sum[:8])
	switch req.Kind {
	case RequestJudge:
		switch {
		case len(req.Options) > 0:
			return CompletionResponse{Text: req.Options[n%uint64(len(req.Options))]}, nil
		case len(req.Levels) > 0:
			return CompletionResponse{Text: req.Levels[n%uint64(len(req.Levels))]}, nil
		}
		return CompletionResponse{Text: []string{"yes", "no"}[n%2]}, nil
	case RequestImgGen:
		return CompletionResponse{ImageURL: "local://image/" + h[:16] + ".png"}, nil
	case RequestSearch:
		if len(req.Fields) == 0 { // a sourced answer; a structured one is filled below
			return CompletionResponse{Text: "search results for: " + summary(req.Prompt) + " #" + h[:12]}, nil
		}
	}
	if spec := ParseConceptSpec(req.Output); spec.List && (len(req.Fields) == 0 || spec.Count > 0) {
		return localList(req, h, n, spec.Count), nil
	}
	if len(req.Fields) > 0 {
		obj := localObject(req.Fields, h, n)
		if ParseConceptSpec(req.Output).List {
			return CompletionResponse{Object: []any{obj, localObject(req.Fields, h[32:], n>>7)}}, nil
		}
		return CompletionResponse{Object: obj}, nil
	}
	text := "[local " + h[:12] + "] " + summary(req.Prompt)
	if len(req.Images) > 0 {
		text += fmt.Sprintf(" (%d images)", len(req.Images))
	}
	return CompletionResponse{Text: text}, nil
}

// localObject fills declared fields with values derived from the hash.
func localObject(fields []Field, h string, n uint64) *value.OrderedMap {
	om := &value.OrderedMap{}
	for i, f := range fields {
		var v any
		k := n >> (uint(i) % 32)
		switch f.Type {
		case "text":
			v = f.Name + " " + h[:8]
		case "integer":
			v = int64(k % 100)
		case "number":
			v = float64(k%1000) / 10
		case "boolean":
			v = k%2 == 0
		case "list":
			v = []any{}
		case ConceptImage:
			v = &value.OrderedMap{Keys: []string{"url"}, Values: []any{"local://image/" + h[:16] + ".png"}}
		default:
			v = &value.OrderedMap{}
		}
		om.Keys = append(om.Keys, f.Name)
		om.Values = append(om.Values, v)
	}
	return om
}

// summary is the first line of s, at most 80 characters.
func summary(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if utf8.RuneCountInString(s) > 80 {
		r := []rune(s)
		s = string(r[:80]) + "…"
	}
	return s
}
