package method

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/method/templating"
)

// What the operators (the kinds that call a provider or compute an
// output themselves) share at run time.

// checkRequiredInputs enforces the "!" suffix (the input must be in
// memory and not empty: an empty list or empty text counts as missing)
// and the "[N]" suffix (a present list input has exactly N items).
func (x *invocation) checkRequiredInputs() error {
	p := x.p
	for _, in := range p.InputNames() {
		spec := ParseConceptSpec(p.Inputs[in])
		st, ok := x.mem.Get(in)
		if spec.Required && (!ok || isEmptyContent(st.Content)) {
			return x.fail("inputs", engine.NewError(engine.KindUndefined, "required input "+strconv.Quote(in)+" ("+p.Inputs[in]+") is missing or empty"))
		}
		if l, isList := st.Content.([]any); ok && spec.Count > 0 && isList && len(l) != spec.Count {
			return x.fail("inputs", engine.NewError(engine.KindRender, "input "+strconv.Quote(in)+" ("+p.Inputs[in]+") has "+strconv.Itoa(len(l))+" items"))
		}
	}
	return nil
}

func isEmptyContent(c any) bool {
	switch t := c.(type) {
	case nil:
		return true
	case string:
		return t == ""
	case []any:
		return len(t) == 0
	case *value.OrderedMap:
		if len(t.Keys) == 1 && t.Keys[0] == "text" {
			s, _ := t.Values[0].(string)
			return s == ""
		}
		return len(t.Keys) == 0
	}
	return false
}

// request starts a provider request of the pipe.
func (x *invocation) request(kind, defaultOutput string) CompletionRequest {
	return CompletionRequest{Kind: kind, Pipe: x.code(), Output: x.p.outputOr(defaultOutput)}
}

// decorate adds the model and the model settings to a provider request.
func (x *invocation) decorate(req *CompletionRequest) error {
	p := x.p
	if p.Model != "" {
		req.ModelRef = p.Model
		if x.s.r.Models == nil {
			req.Model = p.Model
		} else {
			mc, err := x.s.r.Models.Resolve(p.Model)
			if err != nil {
				return x.fail("model", engine.NewError(engine.KindRender, err.Error()))
			}
			req.Model, req.Fallbacks = mc.Model, mc.Fallbacks
		}
	}
	req.ModelSettings = p.ModelSettings
	return nil
}

// fields are the fields of a structured output concept.
func (x *invocation) fields(spec string) []Field {
	return x.concepts().Fields(ParseConceptSpec(spec).Name)
}

// answer turns a provider answer into the output stuff, normalising
// content through the concept's refinements and checking an exact list
// length ("[N]").
func (x *invocation) answer(req CompletionRequest, resp CompletionResponse) (*Stuff, error) {
	cs := x.concepts()
	var content any
	if resp.Object != nil {
		content = cs.Normalize(req.Output, resp.Object)
	} else {
		content = cs.Normalize(req.Output, responseContent(req.Output, req.Fields, resp))
	}
	if err := x.checkCount(req.Output, content); err != nil {
		return nil, err
	}
	return x.stuff(req.Output, content), nil
}

// responseContent turns a provider answer into stuff content.
func responseContent(output string, fields []Field, resp CompletionResponse) any {
	if len(fields) > 0 && resp.Object != nil {
		return resp.Object
	}
	return NormalizeContent(ParseConceptSpec(output).Name, resp.Text)
}

func (x *invocation) checkCount(output string, content any) error {
	spec := ParseConceptSpec(output)
	if !spec.List {
		return nil
	}
	l, ok := content.([]any)
	if !ok {
		return x.fail("output", engine.NewError(engine.KindType, "output "+strconv.Quote(output)+" is a list, the answer is not"))
	}
	if spec.Count > 0 && len(l) != spec.Count {
		return x.fail("output", engine.NewError(engine.KindRender, "output "+strconv.Quote(output)+" needs exactly "+strconv.Itoa(spec.Count)+" items, got "+strconv.Itoa(len(l))))
	}
	return nil
}

func textContent(t string) *value.OrderedMap {
	return &value.OrderedMap{Keys: []string{"text"}, Values: []any{t}}
}

// registerImages registers an image reference's target: an image content
// ({"url": ...}) or a list of them.
func registerImages(reg *templating.ImageRegistry, v any) error {
	if l, ok := v.([]any); ok {
		for _, it := range l {
			if err := registerImages(reg, it); err != nil {
				return err
			}
		}
		return nil
	}
	u, err := WalkPath(v, "url")
	if err != nil {
		return engine.NewError(engine.KindRender, "image reference does not lead to an image")
	}
	url, ok := u.(string)
	if !ok {
		return engine.NewError(engine.KindRender, "image url is not a string")
	}
	ref := templating.ImageRef{URL: url}
	if c, err := WalkPath(v, "caption"); err == nil {
		ref.Caption, _ = c.(string)
	}
	reg.Register(ref)
	return nil
}

// formatUse matches what "$var" and "$var.field" expand to.
var formatUse = regexp.MustCompile(`\{\{ ([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)\|format\(\) \}\}`)

// preregisterImages registers, in order of first use, the images a
// prompt inlines with "$image" (or "$card.photo", an Image field), so
// that format renders them as [Image N] tokens: format only names images
// already registered, and Pipelex registers a prompt's image inputs
// before rendering it. Other values and unknown names are left to the
// render.
func (x *invocation) preregisterImages(reg *templating.ImageRegistry, srcs ...string) {
	var root map[string]any
	for _, src := range srcs {
		if !strings.Contains(src, "format") && !strings.Contains(src, "$") {
			continue
		}
		for _, m := range formatUse.FindAllStringSubmatch(templating.Prepare(src, true), -1) {
			name, field, _ := strings.Cut(m[1], ".")
			st, ok := x.mem.Get(name)
			if !ok || !x.isImage(ParseConceptSpec(st.Concept).Name, field) {
				continue
			}
			if root == nil {
				root = x.mem.PathRoot()
			}
			if v, err := WalkPath(root, m[1]); err == nil {
				_ = registerImages(reg, v) // not an image after all: the render shows it as text
			}
		}
	}
}

// isImage reports whether a concept (or its field) holds images.
func (x *invocation) isImage(concept, field string) bool {
	cs := x.concepts()
	if field == "" {
		return cs.Base(concept) == ConceptImage
	}
	for _, f := range cs.Fields(concept) {
		if f.Name == field {
			return f.Type == ConceptImage || f.Type == "concept" && cs.Base(f.ConceptRef) == ConceptImage
		}
	}
	return false
}
