package method

import (
	"context"
	"errors"
	"fmt"

	"github.com/jinjabox/jinjabox/method/templating"
)

// PreviewRequest is a template to render with the Pipelex layer, as a
// pipe's template would be, without writing the pipe: sigils expand, the
// category sets escaping, whitespace and filters, tag and format follow
// the templating style, and inputs are stuffs of their concepts.
type PreviewRequest struct {
	// Template is the template source.
	Template string
	// Category is the template's category ("": llm_prompt, a PipeLLM's
	// prompt). img_gen_prompt renders as a PipeImgGen prompt; basic,
	// markdown, html and mermaid as a PipeCompose template.
	Category templating.Category
	// Style is the templating style (nil: the default).
	Style *templating.Style
	// Domain is the domain the template is read in: its concepts resolve
	// as a pipe of that domain sees them ("": the unnamed domain).
	Domain string
}

// previewCode is the code of the pipe a preview wraps its template in.
const previewCode = "jinjabox_preview"

// Preview renders req as a pipe of a library of bundles would, on inputs
// (whose concepts are resolved in req.Domain): it wraps the template in a
// pipe of its kind declaring every input, validates it as a bundle's pipe
// (an input the template does not use is no problem here) and runs it
// with the local provider. It returns the rendered template, with the
// images a prompt references.
func Preview(ctx context.Context, bundles []*Bundle, req PreviewRequest, inputs *Memory) (Render, error) {
	p := &Pipe{Description: "preview", Inputs: map[string]string{}}
	for _, n := range inputs.Names() {
		s, _ := inputs.Get(n)
		p.Inputs[n] = s.Concept
	}
	field := "prompt"
	switch cat := req.Category; cat {
	case "", templating.LLMPrompt:
		p.Type, p.Prompt, p.Output, p.TemplatingStyle = KindLLM, req.Template, ConceptText, req.Style
	case templating.ImgGenPrompt:
		p.Type, p.Prompt, p.Output, p.TemplatingStyle = KindImgGen, req.Template, ConceptImage, req.Style
	case templating.Basic, templating.Markdown, templating.HTML, templating.Mermaid:
		p.Type, field = KindCompose, "template"
		p.Template = &ComposeTemplate{Template: req.Template, Category: cat, TemplatingStyle: req.Style}
	default:
		return Render{}, fmt.Errorf("preview: category %q: want llm_prompt, img_gen_prompt, basic, markdown, html or mermaid", string(cat))
	}
	b := &Bundle{Source: "<preview>", Domain: req.Domain, Pipes: map[string]*Pipe{previewCode: p}}
	lib := NewLibrary(append(append([]*Bundle(nil), bundles...), b))
	ref := RefOf("", req.Domain, previewCode)
	var probs []error
	for _, pr := range lib.Validate(ValidateOptions{}).Errors() {
		if pr.Pipe == previewCode && pr.Domain == req.Domain && pr.Code != CodeUnusedInput {
			probs = append(probs, pr)
		}
	}
	if len(probs) > 0 {
		return Render{}, errors.Join(probs...)
	}
	res, err := (&Runner{Library: lib, Provider: LocalProvider{Simulate: true}}).RunPipe(ctx, ref, inputs)
	if err != nil {
		return Render{}, err
	}
	for _, r := range res.Renders {
		if r.Field == field {
			return r, nil
		}
	}
	return Render{}, fmt.Errorf("preview: the %s did not render", field)
}
