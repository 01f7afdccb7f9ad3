package workflows

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/method/templating"
	"github.com/jinjabox/jinjabox/policy"
)

// Per-kind checks of ValidateMethod.

func (v *validator) llm(code string, p *Pipe) {
	if p.Prompt == "" {
		v.add(code, "prompt", CodeInvalidPipe, "prompt is required")
	}
	u := used{}
	failed := false
	for _, f := range []tmplField{{field: "prompt", src: p.Prompt}, {field: "system_prompt", src: p.SystemPrompt}} {
		if f.src == "" {
			continue
		}
		f.cat, f.sigils = templating.LLMPrompt, true
		info := v.checkTemplate(code, p, f)
		failed = failed || info == nil
		u.addInfo(info)
	}
	for i, path := range p.Images {
		v.checkPath(code, p, "images["+strconv.Itoa(i)+"]", path, true)
		u.addPath(path)
	}
	v.requireAllUsed(code, p, u, failed)
}

func (v *validator) imgGen(code string, p *Pipe) {
	if p.Prompt == "" {
		v.add(code, "prompt", CodeInvalidPipe, "prompt is required")
	}
	for _, f := range []tmplField{{field: "prompt", src: p.Prompt}, {field: "negative_prompt", src: p.NegativePrompt}} {
		if f.src != "" {
			f.cat, f.sigils = templating.ImgGenPrompt, true
			v.checkTemplate(code, p, f)
		}
	}
}

func (v *validator) search(code string, p *Pipe) {
	if p.Prompt == "" {
		v.add(code, "prompt", CodeInvalidPipe, "prompt is required")
		return
	}
	if p.MaxResults < 0 {
		v.add(code, "max_results", CodeInvalidPipe, "max_results must not be negative")
	}
	v.checkTemplate(code, p, tmplField{field: "prompt", src: p.Prompt, cat: templating.Basic, sigils: true})
}

func (v *validator) judge(code string, p *Pipe) {
	if p.Evidence != "" || len(p.Questions) > 0 {
		v.judgeFile(code, p)
		return
	}
	q, field := p.Question, "question"
	switch {
	case p.Question != "" && p.Prompt != "":
		v.add(code, "prompt", CodeInvalidPipe, "question and prompt are synonyms; give one")
	case p.Question == "" && p.Prompt == "":
		v.add(code, "question", CodeInvalidPipe, "question is required")
	case p.Prompt != "":
		q, field = p.Prompt, "prompt"
	}
	if q != "" {
		v.checkTemplate(code, p, tmplField{field: field, src: q, cat: templating.Basic, sigils: true})
	}
	switch {
	case len(p.Options) > 0 && len(p.Levels) > 0:
		v.add(code, "options", CodeInvalidPipe, "options and levels are exclusive")
	case len(p.Options) == 1:
		v.add(code, "options", CodeInvalidPipe, "a choice needs at least two options")
	case len(p.Levels) == 1:
		v.add(code, "levels", CodeInvalidPipe, "a rating needs at least two levels")
	}
	for k := range p.Options {
		if strings.TrimSpace(k) == "" {
			v.add(code, "options", CodeInvalidPipe, "empty option key")
		}
	}
	if p.Threshold < 0 || p.Threshold >= 1 {
		v.add(code, "threshold", CodeInvalidPipe, "threshold must be in (0, 1)")
	}
	for _, k := range sortedKeys(p.Criteria) {
		if k != "yes" && k != "no" {
			v.add(code, "criteria", CodeInvalidPipe, "criteria keys are yes and no, not "+strconv.Quote(k))
		}
	}
	v.judgeKinds(code, p)
}

func (v *validator) compose(code string, p *Pipe) {
	switch {
	case p.Template != nil && p.Construct != nil:
		v.add(code, "template", CodeInvalidPipe, "template and construct are mutually exclusive")
	case p.Template == nil && p.Construct == nil:
		v.add(code, "template", CodeInvalidPipe, "a template or a construct is required")
	case p.Template != nil:
		t := p.Template
		switch t.Category {
		case templating.Basic, templating.Markdown, templating.HTML, templating.Mermaid:
		default:
			v.add(code, "template", CodeInvalidPipe, "category must be basic, markdown, html or mermaid, not "+strconv.Quote(string(t.Category)))
			return
		}
		if t.TemplatingStyle != nil {
			if _, err := t.TemplatingStyle.Resolved(); err != nil {
				v.add(code, "templating_style", CodeInvalidPipe, err.Error())
			}
		}
		extra := map[string]bool{}
		for k := range t.ExtraContext {
			extra[k] = true
		}
		v.checkTemplate(code, p, tmplField{field: "template", src: t.Template, cat: t.Category, sigils: composeSigils(t.Category), extra: extra})
	default:
		v.construct(code, p, p.Construct, "")
	}
}

// composeSigils: sigils are expanded in text-like compose templates only;
// in html and mermaid "@" and "$" are too common to reinterpret.
func composeSigils(c templating.Category) bool {
	return c == templating.Basic || c == templating.Markdown
}

func (v *validator) construct(code string, p *Pipe, c *Construct, prefix string) {
	for _, f := range c.Fields {
		path := prefix + f.Name
		field := "construct field '" + path + "'"
		if f.Name == "" || policy.IsPrivateName(f.Name) {
			v.add(code, field, CodePrivateName, "construct field names may not be empty or start with an underscore")
		}
		switch f.Method {
		case FieldFrom:
			v.checkPath(code, p, field, f.From, true)
			if f.KeyedBy != "" {
				v.checkPath(code, p, field, f.KeyedBy, false)
			}
		case FieldTemplate:
			v.checkTemplate(code, p, tmplField{field: field, src: f.Template, cat: templating.Basic, sigils: true})
		case FieldNested:
			v.construct(code, p, f.Nested, path+".")
		}
	}
}

func (v *validator) condition(code string, p *Pipe) {
	switch {
	case p.Expression != "" && p.ExpressionTemplate != "":
		v.add(code, "expression", CodeInvalidPipe, "expression and expression_template are mutually exclusive")
	case p.Expression == "" && p.ExpressionTemplate == "":
		v.add(code, "expression", CodeInvalidPipe, "an expression or expression_template is required")
	case p.Expression != "":
		v.checkTemplate(code, p, tmplField{field: "expression", src: p.Expression, cat: templating.Expression, wrap: true})
	default:
		v.checkTemplate(code, p, tmplField{field: "expression_template", src: p.ExpressionTemplate, cat: templating.Expression})
	}
	if len(p.Outcomes) == 0 {
		v.add(code, "outcomes", CodeInvalidPipe, "at least one outcome is required")
	}
	for _, k := range sortedKeys(p.Outcomes) {
		v.outcomeTarget(code, "outcomes["+strconv.Quote(k)+"]", p, p.Outcomes[k])
	}
	if p.DefaultOutcome == "" {
		v.add(code, "default_outcome", CodeInvalidPipe, "default_outcome is required")
	} else {
		v.outcomeTarget(code, "default_outcome", p, p.DefaultOutcome)
	}
	v.conditionOutputs(code, p)
	if a := p.AddAliasFromExpressionTo; a != "" {
		if _, err := ParsePath(a); err != nil || strings.Contains(a, ".") {
			v.add(code, "add_alias_from_expression_to", CodePrivateName, "alias must be a plain public name")
		}
	}
}

func (v *validator) outcomeTarget(code, field string, p *Pipe, target string) {
	switch target {
	case OutcomeFail:
		return
	case OutcomeContinue:
		if p.Output != "" && !ParseConceptSpec(p.Output).Optional {
			v.add(code, field, CodeInvalidPipe, "outcome continue records no output, so the output must be optional (\"?\")")
		}
		return
	}
	v.pipeRef(code, field, target)
}

func (v *validator) batch(code string, p *Pipe) {
	v.pipeRef(code, "branch_pipe_code", p.BranchPipeCode)
	v.batchNames(code, p, "input_list_name", p.InputListName, p.InputItemName, true)
	if p.MaxConcurrency < 0 {
		v.add(code, "max_concurrency", CodeInvalidPipe, "max_concurrency must be positive")
	}
}

func (v *validator) batchNames(code string, p *Pipe, field, list, item string, checkRoot bool) {
	if list == "" || item == "" {
		v.add(code, field, CodeInvalidPipe, "both the list name and the item name are required")
		return
	}
	v.checkPath(code, p, field, list, checkRoot)
	if item == list {
		v.add(code, "input_item_name", CodeBatchItemCollision, "the item name equals the list name")
	}
	if _, ok := p.Inputs[item]; ok && checkRoot {
		v.add(code, "input_item_name", CodeBatchItemCollision, "the item name "+strconv.Quote(item)+" collides with an input")
	}
	if _, err := ParsePath(item); err != nil || strings.Contains(item, ".") {
		v.add(code, "input_item_name", CodePrivateName, "the item name must be a plain public name")
	}
}

func (v *validator) sequence(code string, p *Pipe) {
	if len(p.Steps) == 0 {
		v.add(code, "steps", CodeInvalidPipe, "a sequence needs at least one step")
	}
	for i, s := range p.Steps {
		field := fmt.Sprintf("steps[%d]", i)
		v.pipeRef(code, field, s.Pipe)
		if s.Result != "" && (policy.IsPrivateName(s.Result) || strings.Contains(s.Result, ".")) {
			v.add(code, field, CodePrivateName, "result must be a plain public name")
		}
		if (s.BatchOver == "") != (s.BatchAs == "") {
			v.add(code, field, CodeInvalidPipe, "batch_over and batch_as go together")
		} else if s.BatchOver != "" {
			v.batchNames(code, p, field, s.BatchOver, s.BatchAs, false)
		}
	}
}

// conditionOutputs checks the condition's output against the pipes it can
// route to: it must be their common output concept, or Anything when they
// differ.
func (v *validator) conditionOutputs(code string, p *Pipe) {
	if p.Output == "" {
		return
	}
	out := ParseConceptSpec(p.Output).Name
	if out == ConceptAnything {
		return
	}
	targets := []string{p.DefaultOutcome}
	for _, k := range sortedKeys(p.Outcomes) {
		targets = append(targets, p.Outcomes[k])
	}
	for _, t := range targets {
		tp, ok := v.m.Pipes[t]
		if !ok || tp == nil || tp.Output == "" {
			continue // continue, fail, unknown pipes (reported elsewhere), untyped outputs
		}
		if got := ParseConceptSpec(tp.Output).Name; got != out {
			v.add(code, "output", CodeInvalidPipe, "outcome pipe "+strconv.Quote(t)+" outputs "+strconv.Quote(got)+", not "+strconv.Quote(out)+" (use Anything when outcomes differ)")
		}
	}
}
