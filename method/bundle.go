// Package method is jinjabox's method layer, as Pipelex defines it: the
// bundle and library model (concepts, pipes, domains, installed methods),
// validation, template facts, the paths walked outside templates, working
// memory, the model-provider interface with a deterministic local
// provider, and the runner. One file per pipe kind holds that kind's
// fields, its validation and its run; the table in kinds.go lists them.
//
// Everything here is a pure function of its inputs: no goroutines, no
// clock, no I/O outside a provider, no map iteration on an output path.
// The runner's controllers (condition, sequence, batch, parallel) run
// their children through the Children seam: inline here, as child
// workflows in package workflows. The package never imports Temporal.
package method

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/jinjabox/jinjabox/method/templating"
)

// Bundle is what one method file holds: a domain's concepts and pipes.
// Bundles of one domain merge in a Library. Every template in a bundle is
// untrusted.
type Bundle struct {
	// Source names the file the bundle came from (problems name it).
	Source string `json:"source,omitempty"`
	// Domain is the bundle's snake_case domain code. Method files must
	// give one (Pipelex's rule); a JSON bundle without one is in the
	// unnamed domain, whose references carry no prefix.
	Domain      string `json:"domain,omitempty"`
	Description string `json:"description,omitempty"`
	// SystemPrompt is the domain's default system prompt: every PipeLLM
	// of the bundle without its own uses it.
	SystemPrompt string `json:"system_prompt,omitempty"`
	// MainPipe is the pipe `run` starts from when the caller names none.
	// It is optional: validation checks every pipe.
	MainPipe string `json:"main_pipe,omitempty"`
	// TemplatingStyle is the default style of tag and format.
	TemplatingStyle templating.Style `json:"templating_style,omitempty"`
	// Concepts are the bundle's concepts by code; the native concepts
	// (NativeConcepts) need no declaration.
	Concepts map[string]*Concept `json:"concepts,omitempty"`
	// Pipes by code.
	Pipes map[string]*Pipe `json:"pipes"`
}

// LoadBundle decodes a bundle from JSON. Unknown fields are errors (a
// misspelt template field must not be silently ignored). It checks only
// the JSON shape; a Library validates the meaning.
func LoadBundle(data []byte) (*Bundle, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var b Bundle
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("method: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("method: trailing data after the document")
	}
	return &b, nil
}

// LoadJSON decodes a library from JSON: a library document
// ({"bundles": [...], "main": ...}, what the Temporal layer sends) or a
// single bundle (the JSON bundle format), whose main_pipe becomes the
// library's main pipe. Unknown fields are errors.
func LoadJSON(data []byte) (*Library, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err == nil {
		if _, ok := probe["bundles"]; ok {
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.DisallowUnknownFields()
			var l Library
			if err := dec.Decode(&l); err != nil {
				return nil, fmt.Errorf("method: %w", err)
			}
			return &l, nil
		}
	}
	b, err := LoadBundle(data)
	if err != nil {
		return nil, err
	}
	l := NewLibrary([]*Bundle{b})
	l.Main = l.MainOf(b)
	return l, nil
}

// ValidateJSON loads a library from JSON and validates it: the load
// error (a JSON shape problem, reported as one invalid_method problem)
// or every validation error. It is what the Temporal layer's
// ValidateMethod activity runs.
func ValidateJSON(data []byte, opts ValidateOptions) (*Library, error) {
	l, err := LoadJSON(data)
	if err != nil {
		return nil, &Problem{Code: CodeInvalidMethod, Message: err.Error()}
	}
	return l, l.Validate(opts).Err()
}

// style returns the templating style for one of a pipe's templates: the
// bundle's, then the pipe's, then the template's own override.
func (b *Bundle) style(p *Pipe, override *templating.Style) templating.Style {
	s := b.TemplatingStyle
	for _, o := range []*templating.Style{p.TemplatingStyle, override} {
		if o == nil {
			continue
		}
		if o.TagStyle != "" {
			s.TagStyle = o.TagStyle
		}
		if o.TextFormat != "" {
			s.TextFormat = o.TextFormat
		}
	}
	return s
}
