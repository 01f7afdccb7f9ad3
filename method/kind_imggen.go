package method

import (
	"strconv"

	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/method/templating"
)

// PipeImgGen: a prompt (and negative prompt) rendered in the
// img_gen_prompt category, sent to an image model; the output is an
// Image {"url": ...}.

// ImgGenFields are PipeImgGen's own fields.
type ImgGenFields struct {
	NegativePrompt string `json:"negative_prompt,omitempty"`
	AspectRatio    string `json:"aspect_ratio,omitempty"`
	Size           string `json:"size,omitempty"`
}

var kindImgGen = &Kind{
	Name:   KindImgGen,
	Model:  true,
	Prompt: true,
	Keys: []string{"prompt", "negative_prompt", "model", "aspect_ratio", "size", "nb_output", "seed", "output_format",
		"background", "quality", "is_raw", "safety_tolerance", "is_moderated"},
	fields: func(p *Pipe) []string {
		var s set
		s.add("negative_prompt", p.NegativePrompt != "")
		s.add("aspect_ratio", p.AspectRatio != "")
		s.add("size", p.Size != "")
		return s
	},
	check: checkImgGen,
	run:   runImgGen,
}

// Pipelex's aspect ratios for PipeImgGen.
var aspectRatios = map[string]bool{
	"square": true, "landscape_4_3": true, "landscape_3_2": true, "landscape_16_9": true, "landscape_21_9": true,
	"portrait_3_4": true, "portrait_2_3": true, "portrait_9_16": true, "portrait_9_21": true,
}

func checkImgGen(c *pipeCheck) {
	p := c.p
	if p.Prompt == "" {
		c.add("prompt", CodeInvalidPipe, "prompt is required")
	}
	for _, f := range []tmplField{{field: "prompt", src: p.Prompt}, {field: "negative_prompt", src: p.NegativePrompt}} {
		if f.src != "" {
			f.cat, f.sigils = templating.ImgGenPrompt, true
			c.checkTemplate(f)
		}
	}
	if p.AspectRatio != "" && p.Size != "" {
		c.add("size", CodeInvalidPipe, "size and aspect_ratio are mutually exclusive")
	}
	if p.AspectRatio != "" && !aspectRatios[p.AspectRatio] {
		c.add("aspect_ratio", CodeInvalidPipe, "unknown aspect ratio "+strconv.Quote(p.AspectRatio))
	}
}

func runImgGen(x *invocation) (*Stuff, []Stuff, error) {
	p := x.p
	style := x.style(nil)
	reg := templating.NewImageRegistry()
	req := x.request(RequestImgGen, ConceptImage)
	x.preregisterImages(reg, p.Prompt, p.NegativePrompt)
	var err error
	if req.Prompt, err = x.render("prompt", templating.ImgGenPrompt, style, p.Prompt, true, reg); err != nil {
		return nil, nil, err
	}
	if p.NegativePrompt != "" {
		if req.NegativePrompt, err = x.render("negative_prompt", templating.ImgGenPrompt, style, p.NegativePrompt, true, reg); err != nil {
			return nil, nil, err
		}
	}
	req.Images = reg.Images()
	if err := x.decorate(&req); err != nil {
		return nil, nil, err
	}
	req.AspectRatio, req.Size = p.AspectRatio, p.Size
	resp, err := x.call(req)
	if err != nil {
		return nil, nil, err
	}
	return x.stuff(req.Output, &value.OrderedMap{Keys: []string{"url"}, Values: []any{resp.ImageURL}}), nil, nil
}
