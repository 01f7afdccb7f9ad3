package method

import (
	"regexp"
	"strconv"
	"strings"

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

// Pipelex's aspect ratios (img_gen_job_components.AspectRatio).
var aspectRatios = map[string]bool{
	"square": true, "landscape_4_3": true, "landscape_3_2": true, "landscape_16_9": true, "landscape_21_9": true,
	"landscape_4_1": true, "landscape_8_1": true,
	"portrait_3_4": true, "portrait_2_3": true, "portrait_9_16": true, "portrait_9_21": true,
	"portrait_1_4": true, "portrait_1_8": true,
}

// sizeTiers are Pipelex's portable size classes (SizeTier); a size is a
// tier or an exact "WxH".
var sizeTiers = map[string]bool{"0.5k": true, "1k": true, "2k": true, "4k": true}

// exactSize matches Pipelex's _EXACT_SIZE_PATTERN.
var exactSize = regexp.MustCompile(`^[1-9][0-9]*x[1-9][0-9]*$`)

func checkImgGen(c *pipeCheck) {
	p := c.p
	if p.Prompt == "" {
		c.add("prompt", CodeInvalidPipe, "prompt is required")
	}
	u, failed := c.checkPrompts(templating.ImgGenPrompt,
		tmplField{field: "prompt", src: p.Prompt}, tmplField{field: "negative_prompt", src: p.NegativePrompt})
	c.requireAllUsed(u, failed)
	if p.AspectRatio != "" && !aspectRatios[p.AspectRatio] {
		c.add("aspect_ratio", CodeInvalidPipe, "unknown aspect ratio "+strconv.Quote(p.AspectRatio))
	}
	switch {
	case p.Size == "" || sizeTiers[p.Size]:
	case exactSize.MatchString(p.Size):
		// validate_size_vs_aspect_ratio: an exact size implies its ratio.
		if p.AspectRatio != "" {
			c.add("size", CodeInvalidPipe, "an exact size ("+p.Size+") implies its aspect ratio: drop aspect_ratio, or use a size tier (0.5k, 1k, 2k, 4k)")
		}
	default:
		c.add("size", CodeInvalidPipe, "size is a tier (0.5k, 1k, 2k, 4k) or an exact size like 2048x1152, not "+strconv.Quote(p.Size))
	}
	c.imgGenSettings()
}

// imgGenSettings checks the image-generation settings Pipelex validates
// (ImgGenJobParams): a transparent background needs the PNG output
// format, a seed is a non-negative integer or "auto", a safety
// tolerance is 1 to 6.
func (c *pipeCheck) imgGenSettings() {
	ms := c.p.ModelSettings
	if bg, _ := ms["background"].(string); bg == "transparent" {
		if f, _ := ms["output_format"].(string); !strings.EqualFold(f, "png") {
			c.add("background", CodeInvalidPipe, "a transparent background needs output_format = \"png\"")
		}
	}
	if seed, ok := ms["seed"]; ok {
		switch v := seed.(type) {
		case int64:
			if v < 0 {
				c.add("seed", CodeInvalidPipe, "seed must not be negative")
			}
		case string:
			if v != "auto" {
				c.add("seed", CodeInvalidPipe, "seed is an integer or \"auto\", not "+strconv.Quote(v))
			}
		default:
			c.add("seed", CodeInvalidPipe, "seed is an integer or \"auto\"")
		}
	}
	if st, ok := ms["safety_tolerance"]; ok {
		if v, isInt := st.(int64); !isInt || v < 1 || v > 6 {
			c.add("safety_tolerance", CodeInvalidPipe, "safety_tolerance is an integer from 1 to 6")
		}
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
