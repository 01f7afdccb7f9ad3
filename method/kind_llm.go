package method

import (
	"strconv"

	"github.com/jinjabox/jinjabox/method/templating"
)

// PipeLLM: a prompt (and system prompt) rendered in the llm_prompt
// category, sent to a model; the answer is text, or an object of the
// output concept's fields.

// LLMFields are PipeLLM's own fields.
type LLMFields struct {
	// SystemPrompt overrides the domain's system prompt.
	SystemPrompt string `json:"system_prompt,omitempty"`
	// Images are paths to images (image references) sent with the prompt
	// after the images the prompt itself references.
	Images []string `json:"images,omitempty"`
}

var kindLLM = &Kind{
	Name:   KindLLM,
	Model:  true,
	Prompt: true,
	Keys:   []string{"prompt", "prompt_template", "system_prompt", "model", "model_to_structure", "structuring_method"},
	fields: func(p *Pipe) []string {
		var s set
		s.add("system_prompt", p.SystemPrompt != "")
		s.add("images", len(p.Images) > 0)
		return s
	},
	check: checkLLM,
	run:   runLLM,
}

// systemPrompt is the pipe's system prompt, or its domain's.
func (p *Pipe) systemPrompt(b *Bundle) string {
	if p.SystemPrompt != "" {
		return p.SystemPrompt
	}
	return b.SystemPrompt
}

func checkLLM(c *pipeCheck) {
	p := c.p
	if p.Prompt == "" {
		c.add("prompt", CodeInvalidPipe, "prompt is required")
	}
	u, failed := c.checkPrompts(templating.LLMPrompt,
		tmplField{field: "prompt", src: p.Prompt}, tmplField{field: "system_prompt", src: p.systemPrompt(c.e.Bundle)})
	for i, path := range p.Images {
		c.checkPath("images["+strconv.Itoa(i)+"]", path, true)
		u.addPath(path)
	}
	c.requireAllUsed(u, failed)
	// Pipelex's validate_preliminary_text_output: structuring through a
	// preliminary text needs something to structure into.
	if sm, _ := p.ModelSettings["structuring_method"].(string); sm == "preliminary_text" {
		if len(c.v.lib.Concepts().Fields(ParseConceptSpec(p.Output).Name)) == 0 {
			c.add("structuring_method", CodeInvalidPipe, "structuring_method \"preliminary_text\" needs a structured output concept, not "+strconv.Quote(p.Output))
		}
	}
}

func runLLM(x *invocation) (*Stuff, []Stuff, error) {
	p := x.p
	style := x.style(nil)
	reg := templating.NewImageRegistry()
	req := x.request(RequestLLM, ConceptText)
	sys := p.systemPrompt(x.e.Bundle)
	x.preregisterImages(reg, sys, p.Prompt)
	var err error
	if sys != "" {
		if req.SystemPrompt, err = x.render("system_prompt", templating.LLMPrompt, style, sys, true, reg); err != nil {
			return nil, nil, err
		}
	}
	if req.Prompt, err = x.render("prompt", templating.LLMPrompt, style, p.Prompt, true, reg); err != nil {
		return nil, nil, err
	}
	root := x.mem.PathRoot()
	for i, path := range p.Images {
		field := "images[" + strconv.Itoa(i) + "]"
		v, err := WalkPath(root, path)
		if err != nil {
			return nil, nil, x.fail(field, err)
		}
		if err := registerImages(reg, v); err != nil {
			return nil, nil, x.fail(field, err)
		}
	}
	req.Images = reg.Images()
	req.Fields = x.fields(req.Output)
	if err := x.decorate(&req); err != nil {
		return nil, nil, err
	}
	resp, err := x.call(req)
	if err != nil {
		return nil, nil, err
	}
	out, err := x.answer(req, resp)
	return out, nil, err
}
