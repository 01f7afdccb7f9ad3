package method

import (
	"strconv"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/method/templating"
)

// tmplField describes one template field to check.
type tmplField struct {
	field  string
	src    string
	cat    templating.Category
	sigils bool
	// wrap is true for a condition expression (checked as {{ expr }}).
	wrap bool
	// extra are names the render context adds (extra_context).
	extra map[string]bool
}

// checkPrompts checks a model pipe's prompt fields, each a sigil template
// of cat (an empty field is absent), and returns the names they use and
// whether one of them failed to parse.
func (c *pipeCheck) checkPrompts(cat templating.Category, fields ...tmplField) (used, bool) {
	u := used{}
	failed := false
	for _, f := range fields {
		if f.src == "" {
			continue
		}
		f.cat, f.sigils = cat, true
		info := c.checkTemplate(f)
		failed = failed || info == nil
		u.addFacts(info)
	}
	return u, failed
}

// checkTemplate parses and analyses one template field, once, reporting
// syntax errors, private names, unknown filters, undeclared and unguarded
// inputs, and any other refusal of the engine's static pass. It returns
// the template's facts (nil when it does not parse).
func (c *pipeCheck) checkTemplate(f tmplField) *engine.Facts {
	if _, ok := f.cat.Spec(); !ok {
		c.add(f.field, CodeInvalidPipe, "unknown template category "+strconv.Quote(string(f.cat)))
		return nil
	}
	if f.sigils {
		// Pipelex refuses these when it loads the bundle
		// (preprocess_template with the pipe's declared inputs)
		declared := func(name string) bool { _, ok := c.p.Inputs[name]; return ok }
		if err := templating.ValidateSigils(f.src, declared); err != nil {
			c.add(f.field, CodeSigilSyntax, err.Error())
			return nil
		}
	}
	src := templating.Prepare(f.src, f.sigils)
	shift := 0
	if f.wrap {
		src, shift = "{{ "+f.src+" }}", 3
	}
	name := c.e.Ref + "." + f.field
	// Problems of this field are reported in source order.
	defer c.sortField(len(c.v.report.Problems))
	prob := func(code, msg string, off int) {
		pr := c.problem(f.field, code, msg)
		if off >= 0 {
			pr.Line, pr.Col = engine.LineCol(src, off)
			if pr.Line == 1 {
				pr.Col = max(1, pr.Col-shift)
			}
		}
		c.v.report.Add(pr)
	}
	env, err := c.v.templates.Environment(f.cat, templating.Style{}, templating.Config{})
	if err != nil {
		c.add(f.field, CodeInvalidPipe, err.Error())
		return nil
	}
	facts, err := env.Check(name, src, c.optionalInputs())
	if facts == nil {
		c.engineProblem(f.field, err, shift)
		return nil
	}
	for _, n := range facts.Private {
		prob(CodePrivateName, "private name "+strconv.Quote(n.Name)+" is not readable by templates", n.Pos)
	}
	unknown := 0
	for _, fl := range facts.Filters {
		if env.HasFilter(fl.Name) {
			continue
		}
		unknown++
		msg := "unknown filter " + strconv.Quote(fl.Name)
		for _, x := range templating.ExtraFilterNames {
			if x == fl.Name {
				msg = "filter " + strconv.Quote(fl.Name) + " is not available in category " + strconv.Quote(string(f.cat))
			}
		}
		prob(CodeUnknownFilter, msg, fl.Pos)
	}
	// The engine's static pass (P4 refusals, unknown tests, ...): report
	// what the facts above did not already explain.
	if err != nil {
		k := errKind(err)
		covered := (k == engine.KindSecurity && len(facts.Private) > 0) || (k == engine.KindSyntax && unknown > 0)
		if !covered {
			c.engineProblem(f.field, err, shift)
		}
	}
	for _, n := range facts.Vars {
		if _, declared := c.p.Inputs[n.Name]; declared || f.extra[n.Name] || ignoredVar(n.Name) {
			continue
		}
		prob(CodeUndeclaredInput, "variable "+strconv.Quote(n.Name)+" is not a declared input", n.Pos)
	}
	for _, n := range facts.Unguarded {
		prob(CodeOptionalUnguarded, "optional input "+strconv.Quote(n.Name)+" is used outside a guard ({% if "+n.Name+" %}, is defined, an inline if, or @?"+n.Name+")", n.Pos)
	}
	return facts
}

// render renders one template field of the invocation against its
// memory.
func (x *invocation) render(field string, cat templating.Category, style templating.Style, src string, sigils bool, reg *templating.ImageRegistry) (string, error) {
	return x.renderWith(field, cat, style, src, nil, templating.RenderConfig{Sigils: sigils, Images: reg})
}

// renderWith renders one template field against memory plus extra
// context (inputs win over extra keys), through the runner's Renderer
// (inline under the runner's limits when it has none).
func (x *invocation) renderWith(field string, cat templating.Category, style templating.Style, src string, extra map[string]any, rc templating.RenderConfig) (string, error) {
	s := x.s
	if rc.Images == nil {
		rc.Images = templating.NewImageRegistry()
	}
	j := &RenderJob{Pipe: x.code(), Field: field, Category: cat, Style: style, Source: src,
		Sigils: rc.Sigils, Strict: rc.Strict, Extra: extra, Images: rc.Images, x: x}
	var out templating.Rendered
	var err error
	if s.r.Renderer != nil {
		out, err = s.r.Renderer.Render(j)
	} else {
		out, err = j.Inline(0)
	}
	if s.r.OnRender != nil {
		s.r.OnRender(RenderEvent{Pipe: j.Pipe, Field: field, Category: cat, TemplateBytes: len(src),
			Units: out.Units, OutputBytes: len(out.Text), Err: err})
	}
	if err != nil {
		return "", x.fail(field, err)
	}
	s.res.Renders = append(s.res.Renders, Render{Pipe: j.Pipe, Field: field, Text: out.Text, Images: out.Images})
	return out.Text, nil
}
