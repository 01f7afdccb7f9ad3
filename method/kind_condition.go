package method

import (
	"strconv"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/method/templating"
)

// PipeCondition: an expression rendered in the expression category picks
// an outcome: a pipe to run (a child), continue (no output) or fail.

// ConditionFields are PipeCondition's own fields.
type ConditionFields struct {
	Expression               string            `json:"expression,omitempty"`
	ExpressionTemplate       string            `json:"expression_template,omitempty"`
	Outcomes                 map[string]string `json:"outcomes,omitempty"`
	DefaultOutcome           string            `json:"default_outcome,omitempty"`
	AddAliasFromExpressionTo string            `json:"add_alias_from_expression_to,omitempty"`
}

var kindCondition = &Kind{
	Name:       KindCondition,
	Controller: true,
	Keys:       []string{"expression", "expression_template", "outcomes", "default_outcome", "add_alias_from_expression_to"},
	fields: func(p *Pipe) []string {
		var s set
		s.add("expression", p.Expression != "")
		s.add("expression_template", p.ExpressionTemplate != "")
		s.add("outcomes", len(p.Outcomes) > 0)
		s.add("default_outcome", p.DefaultOutcome != "")
		s.add("add_alias_from_expression_to", p.AddAliasFromExpressionTo != "")
		return s
	},
	calls: func(p *Pipe) []pipeCall {
		var out []pipeCall
		for _, k := range sortedKeys(p.Outcomes) {
			if t := p.Outcomes[k]; !isSpecialOutcome(t) {
				out = append(out, pipeCall{"outcomes[" + strconv.Quote(k) + "]", t})
			}
		}
		if t := p.DefaultOutcome; t != "" && !isSpecialOutcome(t) {
			out = append(out, pipeCall{"default_outcome", t})
		}
		return out
	},
	check: checkCondition,
	reads: func(c *readCtx) {
		p := c.e.Pipe
		for _, k := range sortedKeys(p.Outcomes) {
			if t := p.Outcomes[k]; !isSpecialOutcome(t) {
				c.s.merge(c.child(t), given(p.AddAliasFromExpressionTo))
			}
		}
		if t := p.DefaultOutcome; t != "" && !isSpecialOutcome(t) {
			c.s.merge(c.child(t), given(p.AddAliasFromExpressionTo))
		}
	},
	run: runCondition,
}

func isSpecialOutcome(t string) bool { return t == OutcomeContinue || t == OutcomeFail }

// expression is the condition's template: the expression as {{ expr }},
// or the expression template.
func (p *Pipe) expression() (field, src string) {
	if p.Expression != "" {
		return "expression", "{{ " + p.Expression + " }}"
	}
	return "expression_template", p.ExpressionTemplate
}

func checkCondition(c *pipeCheck) {
	p := c.p
	switch {
	case p.Expression != "" && p.ExpressionTemplate != "":
		c.add("expression", CodeInvalidPipe, "expression and expression_template are mutually exclusive")
	case p.Expression == "" && p.ExpressionTemplate == "":
		c.add("expression", CodeInvalidPipe, "an expression or expression_template is required")
	case p.Expression != "":
		c.checkTemplate(tmplField{field: "expression", src: p.Expression, cat: templating.Expression, wrap: true})
	default:
		c.checkTemplate(tmplField{field: "expression_template", src: p.ExpressionTemplate, cat: templating.Expression})
	}
	if len(p.Outcomes) == 0 {
		c.add("outcomes", CodeInvalidPipe, "at least one outcome is required")
	}
	for _, k := range sortedKeys(p.Outcomes) {
		c.outcomeTarget("outcomes["+strconv.Quote(k)+"]", p.Outcomes[k])
	}
	if p.DefaultOutcome == "" {
		c.add("default_outcome", CodeInvalidPipe, "default_outcome is required")
	} else {
		c.outcomeTarget("default_outcome", p.DefaultOutcome)
	}
	c.conditionOutputs()
	if a := p.AddAliasFromExpressionTo; a != "" && !plainName(a) {
		c.add("add_alias_from_expression_to", CodePrivateName, "alias must be a plain public name")
	}
}

func (c *pipeCheck) outcomeTarget(field, target string) {
	switch target {
	case OutcomeFail:
		return
	case OutcomeContinue:
		if c.p.Output != "" && !ParseConceptSpec(c.p.Output).Optional {
			c.add(field, CodeInvalidPipe, "outcome continue records no output, so the output must be optional (\"?\")")
		}
		return
	}
	c.pipeRef(field, target)
}

// conditionOutputs checks the condition's output against the pipes it can
// route to: it must be their common output concept, or Anything when they
// differ.
func (c *pipeCheck) conditionOutputs() {
	p := c.p
	if p.Output == "" {
		return
	}
	spec := ParseConceptSpec(p.Output)
	out := spec.Name
	// An outcome pipe that may output nothing makes the condition's
	// output optional too (Pipelex: OPTIONAL_NOT_HANDLED).
	if !spec.Optional {
		for _, k := range sortedKeys(p.Outcomes) {
			if tp, ok := c.target(p.Outcomes[k]); ok && ParseConceptSpec(tp.Output).Optional {
				c.add("output", CodeInvalidPipe, "outcome pipe "+strconv.Quote(p.Outcomes[k])+" may output nothing, so the condition's output must be optional (\"?\")")
				break
			}
		}
	}
	if out == ConceptAnything {
		return
	}
	targets := []string{p.DefaultOutcome}
	for _, k := range sortedKeys(p.Outcomes) {
		targets = append(targets, p.Outcomes[k])
	}
	for _, t := range targets {
		tp, ok := c.target(t)
		if !ok || tp.Output == "" {
			continue // continue, fail, unknown pipes (reported elsewhere), untyped outputs
		}
		if got := ParseConceptSpec(tp.Output).Name; got != out {
			c.add("output", CodeInvalidPipe, "outcome pipe "+strconv.Quote(t)+" outputs "+strconv.Quote(got)+", not "+strconv.Quote(out)+" (use Anything when outcomes differ)")
		}
	}
}

func runCondition(x *invocation) (*Stuff, []Stuff, error) {
	p := x.p
	if x.s.r.Dry {
		return dryCondition(x)
	}
	field, src := p.expression()
	got, err := x.render(field, templating.Expression, x.style(nil), src, false, nil)
	if err != nil {
		return nil, nil, err
	}
	if got == "" || got == "None" {
		return nil, nil, x.fail(field, engine.NewError(engine.KindRender, "the expression rendered "+strconv.Quote(got)+", which selects no outcome"))
	}
	mem := x.mem
	if a := p.AddAliasFromExpressionTo; a != "" {
		mem = mem.With(Stuff{Name: a, Concept: ConceptText, Content: textContent(got)})
	}
	target, ok := p.Outcomes[got]
	if !ok {
		target = p.DefaultOutcome
	}
	switch target {
	case OutcomeContinue:
		return nil, nil, nil
	case OutcomeFail:
		return nil, nil, x.fail("outcomes", engine.NewError(engine.KindRender, "outcome fail selected by "+strconv.Quote(got)))
	}
	ref := x.resolve(target)
	res, err := x.children(1, func(int) Child {
		_, code := SplitPipeRef(ref)
		return Child{Pipe: ref, Memory: mem, Key: code, Item: -1}
	}, 1)
	if err != nil {
		return nil, nil, err
	}
	return x.renamed(res[0].Output), nil, nil
}

// dryCondition is a PipeCondition's dry run, as Pipelex's
// PipeCondition._dry_run_controller_pipe: the expression is not
// evaluated (validation has parsed it), every outcome pipe runs instead,
// one after the other on the condition's memory; the output is the last
// one's.
func dryCondition(x *invocation) (*Stuff, []Stuff, error) {
	p := x.p
	seen := map[string]bool{}
	var targets []string
	for _, t := range append(sortedValues(p.Outcomes), p.DefaultOutcome) {
		if t == "" || isSpecialOutcome(t) || seen[t] {
			continue
		}
		seen[t] = true
		targets = append(targets, x.resolve(t))
	}
	mem := x.mem
	if a := p.AddAliasFromExpressionTo; a != "" {
		mem = mem.With(Stuff{Name: a, Concept: ConceptText, Content: textContent("mock outcome")})
	}
	res, err := x.children(len(targets), func(i int) Child {
		_, code := SplitPipeRef(targets[i])
		return Child{Pipe: targets[i], Memory: mem, Key: code, Item: -1}
	}, 1)
	if err != nil || len(res) == 0 {
		return nil, nil, err
	}
	return x.renamed(res[len(res)-1].Output), nil, nil
}

// sortedValues are a map's values in the order of its sorted keys.
func sortedValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, m[k])
	}
	return out
}
