package method

import (
	"strconv"

	"github.com/jinjabox/jinjabox/engine"
)

// PipeExtract: the pipe's one Document, PDF or Image input is read into
// pages (Page[]) by an extraction model.

// ExtractFields are PipeExtract's own fields.
type ExtractFields struct {
	MaxPageImages int  `json:"max_page_images,omitempty"`
	PageViews     bool `json:"page_views,omitempty"`
}

var kindExtract = &Kind{
	Name:  KindExtract,
	Model: true,
	Keys:  []string{"model", "max_page_images", "page_views", "page_image_captions", "page_views_dpi"},
	fields: func(p *Pipe) []string {
		var s set
		s.add("max_page_images", p.MaxPageImages != 0)
		s.add("page_views", p.PageViews)
		return s
	},
	check: checkExtract,
	run:   runExtract,
}

// extractable are the base concepts PipeExtract reads.
var extractable = map[string]bool{ConceptDocument: true, ConceptImage: true}

func checkExtract(c *pipeCheck) {
	p := c.p
	if len(p.Inputs) != 1 {
		c.add("inputs", CodeInvalidPipe, "PipeExtract takes exactly one input (a Document, PDF or Image)")
	} else {
		for _, in := range p.InputNames() {
			spec := ParseConceptSpec(p.Inputs[in])
			if spec.List || !extractable[c.base(spec.Name)] {
				c.add("inputs", CodeInvalidPipe, "input "+strconv.Quote(in)+" must be one Document, PDF or Image, not "+strconv.Quote(p.Inputs[in]))
			}
		}
	}
	if p.MaxPageImages < 0 {
		c.add("max_page_images", CodeInvalidPipe, "max_page_images must not be negative")
	}
	// Exactly the native Page[], no refinement of it and no fixed length
	// (PipeExtractBlueprint.validate_output): the operator cannot make its
	// pages any more specific than it promises.
	if p.Output != "" {
		spec := ParseConceptSpec(p.Output)
		if canonicalNative(spec.Name) != ConceptPage || !spec.List || spec.Count > 0 {
			c.add("output", CodeInvalidPipe, "PipeExtract outputs Page[] (a list of native Pages), not "+strconv.Quote(p.Output))
		}
	}
	// An image is one page: the page options of documents do not apply.
	for _, in := range p.InputNames() {
		if c.base(ParseConceptSpec(p.Inputs[in]).Name) != ConceptImage {
			continue
		}
		ms := p.ModelSettings
		for _, k := range []struct {
			name string
			set  bool
		}{{"page_views", p.PageViews}, {"page_image_captions", ms["page_image_captions"] == true},
			{"page_views_dpi", ms["page_views_dpi"] != nil}, {"max_page_images", p.MaxPageImages != 0}} {
			if k.set {
				c.add(k.name, CodeInvalidPipe, k.name+" does not apply to an Image input")
			}
		}
	}
}

// runExtract sends the pipe's one document input to the provider.
func runExtract(x *invocation) (*Stuff, []Stuff, error) {
	p := x.p
	names := p.InputNames()
	if len(names) != 1 {
		return nil, nil, x.fail("inputs", engine.NewError(engine.KindRender, "PipeExtract takes exactly one input"))
	}
	st, ok := x.mem.Get(names[0])
	if !ok {
		return nil, nil, x.fail("inputs", engine.NewError(engine.KindUndefined, "input "+strconv.Quote(names[0])+" is missing"))
	}
	doc := &DocumentRef{}
	switch c := st.Content.(type) {
	case string:
		doc.URL = c
	default:
		if u, err := WalkPath(c, "url"); err == nil {
			doc.URL, _ = u.(string)
		}
		if m, err := WalkPath(c, "mime_type"); err == nil {
			doc.MimeType, _ = m.(string)
		}
	}
	if doc.URL == "" {
		return nil, nil, x.fail("inputs", engine.NewError(engine.KindRender, "input "+strconv.Quote(names[0])+" has no url"))
	}
	if doc.MimeType == "" && x.concepts().Base(ParseConceptSpec(st.Concept).Name) == ConceptImage {
		doc.MimeType = "image/*"
	}
	req := x.request(RequestExtract, ConceptPage+"[]")
	req.Document = doc
	if err := x.decorate(&req); err != nil {
		return nil, nil, err
	}
	req.MaxPageImages, req.PageViews = p.MaxPageImages, p.PageViews
	resp, err := x.call(req)
	if err != nil {
		return nil, nil, err
	}
	out, err := x.answer(req, resp)
	return out, nil, err
}
