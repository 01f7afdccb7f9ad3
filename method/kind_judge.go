package method

import (
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/engine/errs"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/method/templating"
)

// PipeJudge: a question (yes/no, a choice among options, or a rating on
// levels) asked of a model about rendered evidence; method files may ask
// several questions at once, each answer filling a field of the output.

// JudgeFields are PipeJudge's own fields.
type JudgeFields struct {
	Question  string            `json:"question,omitempty"`
	Options   map[string]string `json:"options,omitempty"`
	Levels    []string          `json:"levels,omitempty"`
	Criteria  map[string]string `json:"criteria,omitempty"`
	Threshold float64           `json:"threshold,omitempty"`
	// Evidence is the prompt rendered and sent as the material to judge
	// (the file's "prompt" when a question is also given); Questions asks
	// several questions at once, each answer filling the output
	// concept's field of that name.
	Evidence  string          `json:"evidence,omitempty"`
	Questions []JudgeQuestion `json:"questions,omitempty"`
}

// JudgeQuestion is one question of a PipeJudge: a yes/no question
// (Criteria, Threshold), a choice (Options) or a rating (Levels).
type JudgeQuestion struct {
	// Field is the output field the answer fills.
	Field     string            `json:"field"`
	Question  string            `json:"question"`
	Options   map[string]string `json:"options,omitempty"`
	Levels    []string          `json:"levels,omitempty"`
	Criteria  map[string]string `json:"criteria,omitempty"`
	Threshold float64           `json:"threshold,omitempty"`
}

// Judgement kinds.
const (
	JudgeYesNo  = "yes_no"
	JudgeChoice = "choice"
	JudgeRating = "rating"
)

// Kind is the question's kind, from its fields.
func (q JudgeQuestion) Kind() string {
	switch {
	case len(q.Options) > 0:
		return JudgeChoice
	case len(q.Levels) > 0:
		return JudgeRating
	}
	return JudgeYesNo
}

var kindJudge = &Kind{
	Name:   KindJudge,
	Model:  true,
	Prompt: true,
	Keys:   []string{"model", "prompt", "question", "options", "levels", "criteria", "threshold", "questions"},
	fields: func(p *Pipe) []string {
		var s set
		s.add("question", p.Question != "")
		s.add("options", len(p.Options) > 0)
		s.add("levels", len(p.Levels) > 0)
		s.add("criteria", len(p.Criteria) > 0)
		s.add("threshold", p.Threshold != 0)
		s.add("evidence", p.Evidence != "")
		s.add("questions", len(p.Questions) > 0)
		return s
	},
	check: func(c *pipeCheck) { c.judge() },
	run: func(x *invocation) (*Stuff, []Stuff, error) {
		out, err := x.judge()
		return out, nil, err
	},
}

func (c *pipeCheck) judge() {
	p := c.p
	if p.Evidence != "" || len(p.Questions) > 0 {
		c.judgeFile()
		return
	}
	q, field := p.Question, "question"
	switch {
	case p.Question != "" && p.Prompt != "":
		c.add("prompt", CodeInvalidPipe, "question and prompt are synonyms; give one")
	case p.Question == "" && p.Prompt == "":
		c.add("question", CodeInvalidPipe, "question is required")
	case p.Prompt != "":
		q, field = p.Prompt, "prompt"
	}
	if q != "" {
		c.checkTemplate(tmplField{field: field, src: q, cat: templating.Basic, sigils: true})
	}
	switch {
	case len(p.Options) > 0 && len(p.Levels) > 0:
		c.add("options", CodeInvalidPipe, "options and levels are exclusive")
	case len(p.Options) == 1:
		c.add("options", CodeInvalidPipe, "a choice needs at least two options")
	case len(p.Levels) == 1:
		c.add("levels", CodeInvalidPipe, "a rating needs at least two levels")
	}
	for k := range p.Options {
		if strings.TrimSpace(k) == "" {
			c.add("options", CodeInvalidPipe, "empty option key")
		}
	}
	if p.Threshold < 0 || p.Threshold >= 1 {
		c.add("threshold", CodeInvalidPipe, "threshold must be in (0, 1)")
	}
	for _, k := range sortedKeys(p.Criteria) {
		if k != "yes" && k != "no" {
			c.add("criteria", CodeInvalidPipe, "criteria keys are yes and no, not "+strconv.Quote(k))
		}
	}
	c.judgeKinds()
}

// judgeFile validates the judge shape of method files: an evidence
// prompt, then one question (the pipe's question, options, levels,
// criteria, threshold) or several (Questions).
func (c *pipeCheck) judgeFile() {
	p := c.p
	if p.Prompt != "" {
		c.add("prompt", CodeInvalidPipe, "prompt and evidence are synonyms here; give one")
	}
	if p.Evidence != "" {
		c.checkTemplate(tmplField{field: "prompt", src: p.Evidence, cat: templating.Basic, sigils: true})
	}
	if len(p.Questions) == 0 {
		q := JudgeQuestion{Question: p.Question, Options: p.Options, Levels: p.Levels, Criteria: p.Criteria, Threshold: p.Threshold}
		c.judgeQuestion("", q)
		c.judgeOutput(q.Kind())
		return
	}
	if p.Question != "" || len(p.Options) > 0 || len(p.Levels) > 0 || len(p.Criteria) > 0 || p.Threshold != 0 {
		c.add("question", CodeInvalidPipe, "a judge asks one question or has question tables, not both")
	}
	fields := map[string]Field{}
	for _, f := range c.v.lib.Concepts().Fields(ParseConceptSpec(p.Output).Name) {
		fields[f.Name] = f
	}
	if len(fields) == 0 {
		c.add("output", CodeInvalidPipe, "a judge with question tables outputs a structured concept with one field per question")
	}
	seen := map[string]bool{}
	for _, q := range p.Questions {
		prefix := "questions." + q.Field + "."
		if seen[q.Field] {
			c.add("questions."+q.Field, CodeInvalidPipe, "question asked twice")
		}
		seen[q.Field] = true
		c.judgeQuestion(prefix, q)
		if len(fields) > 0 {
			if _, ok := fields[q.Field]; !ok {
				c.add("questions."+q.Field, CodeInvalidPipe, "the output concept has no field "+strconv.Quote(q.Field))
			}
		}
	}
	for name, f := range fields {
		if f.Required && !seen[name] {
			c.add("questions", CodeInvalidPipe, "required output field "+strconv.Quote(name)+" has no question")
		}
	}
}

func (c *pipeCheck) judgeQuestion(prefix string, q JudgeQuestion) {
	if q.Question == "" {
		c.add(prefix+"question", CodeInvalidPipe, "question is required")
	} else {
		c.checkTemplate(tmplField{field: prefix + "question", src: q.Question, cat: templating.Basic, sigils: true})
	}
	switch {
	case len(q.Options) > 0 && len(q.Levels) > 0:
		c.add(prefix+"options", CodeInvalidPipe, "options and levels are exclusive")
	case len(q.Options) == 1:
		c.add(prefix+"options", CodeInvalidPipe, "a choice needs at least two options")
	case len(q.Levels) == 1:
		c.add(prefix+"levels", CodeInvalidPipe, "a rating needs at least two levels")
	}
	for k := range q.Options {
		if strings.TrimSpace(k) == "" {
			c.add(prefix+"options", CodeInvalidPipe, "empty option key")
		}
	}
	for i, l := range q.Levels {
		if strings.TrimSpace(l) == "" {
			c.add(prefix+"levels", CodeInvalidPipe, "level "+strconv.Itoa(i)+" is empty")
		}
	}
	if q.Kind() != JudgeYesNo && len(q.Criteria) > 0 {
		c.add(prefix+"criteria", CodeInvalidPipe, "criteria apply to yes/no questions only")
	}
	if q.Kind() != JudgeYesNo && q.Threshold != 0 {
		c.add(prefix+"threshold", CodeInvalidPipe, "a threshold applies to yes/no questions only")
	}
	if q.Threshold < 0 || q.Threshold >= 1 {
		c.add(prefix+"threshold", CodeInvalidPipe, "threshold must be in (0, 1)")
	}
	for _, k := range sortedKeys(q.Criteria) {
		if k != "yes" && k != "no" {
			c.add(prefix+"criteria", CodeInvalidPipe, "criteria keys are yes and no, not "+strconv.Quote(k))
		}
	}
}

// judgeOutput: a single question's output is YesNo, Choice or Rating by
// its kind (or a concept refining it), or Anything.
func (c *pipeCheck) judgeOutput(kind string) {
	p := c.p
	if p.Output == "" {
		return
	}
	spec := ParseConceptSpec(p.Output)
	want := map[string]string{JudgeYesNo: ConceptYesNo, JudgeChoice: ConceptChoice, JudgeRating: ConceptRating}[kind]
	base := c.v.lib.Concepts().Base(spec.Name)
	if spec.List {
		c.add("output", CodeInvalidPipe, "a judge's output has no multiplicity")
	} else if base != want && base != ConceptAnything {
		c.add("output", CodeInvalidPipe, "this judge asks a "+strings.ReplaceAll(kind, "_", "/")+" question, so its output must be "+want+" or refine it, not "+strconv.Quote(p.Output))
	}
}

// judgeKinds adds the Pipelex kind rules to the single-question judge of
// JSON bundles: criteria and threshold belong to yes/no questions, and an
// output of YesNo, Choice or Rating must match the question's kind.
func (c *pipeCheck) judgeKinds() {
	p := c.p
	q := JudgeQuestion{Options: p.Options, Levels: p.Levels}
	if q.Kind() != JudgeYesNo && len(p.Criteria) > 0 {
		c.add("criteria", CodeInvalidPipe, "criteria apply to yes/no questions only")
	}
	if q.Kind() != JudgeYesNo && p.Threshold != 0 {
		c.add("threshold", CodeInvalidPipe, "a threshold applies to yes/no questions only")
	}
	switch c.v.lib.Concepts().Base(ParseConceptSpec(p.Output).Name) {
	case ConceptYesNo, ConceptChoice, ConceptRating:
		c.judgeOutput(q.Kind())
	}
}

func (x *invocation) judge() (*Stuff, error) {
	p := x.p
	if p.Evidence != "" || len(p.Questions) > 0 {
		return x.judgeFile()
	}
	field, src := "question", p.Question
	if src == "" {
		field, src = "prompt", p.Prompt
	}
	q, err := x.render(field, templating.Basic, x.style(nil), src, true, nil)
	if err != nil {
		return nil, err
	}
	req := x.request(RequestJudge, ConceptAnything)
	req.Prompt, req.Options, req.Levels = q, sortedKeys(p.Options), p.Levels
	resp, err := x.call(req)
	if err != nil {
		return nil, err
	}
	var content any = &value.OrderedMap{Keys: []string{"verdict"}, Values: []any{resp.Text}}
	if x.nativeVerdict(req.Output) {
		q := JudgeQuestion{Question: src, Options: p.Options, Levels: p.Levels, Criteria: p.Criteria, Threshold: p.Threshold}
		if content, err = x.verdictContent("", q, resp.Text); err != nil {
			return nil, err
		}
	}
	return x.stuff(req.Output, content), nil
}

// judgeFile runs the method-file judge: render the evidence, then one
// request per question; one question answers with the native verdict
// content, several fill the output concept's fields.
func (x *invocation) judgeFile() (*Stuff, error) {
	p := x.p
	style := x.style(nil)
	evidence := ""
	if p.Evidence != "" {
		var err error
		if evidence, err = x.render("prompt", templating.Basic, style, p.Evidence, true, nil); err != nil {
			return nil, err
		}
	}
	ask := func(prefix string, q JudgeQuestion) (any, error) {
		text, err := x.render(prefix+"question", templating.Basic, style, q.Question, true, nil)
		if err != nil {
			return nil, err
		}
		req := x.request(RequestJudge, ConceptAnything)
		req.Prompt, req.Options, req.Levels = text, sortedKeys(q.Options), q.Levels
		req.Evidence, req.Question, req.QuestionField = evidence, text, q.Field
		req.Criteria, req.Threshold = q.Criteria, q.Threshold
		if err := x.decorate(&req); err != nil {
			return nil, err
		}
		resp, err := x.call(req)
		if err != nil {
			return nil, err
		}
		return x.verdictContent(prefix, q, resp.Text)
	}
	if len(p.Questions) == 0 {
		q := JudgeQuestion{Question: p.Question, Options: p.Options, Levels: p.Levels, Criteria: p.Criteria, Threshold: p.Threshold}
		c, err := ask("", q)
		if err != nil {
			return nil, err
		}
		return x.stuff(p.outputOr(map[string]string{JudgeYesNo: ConceptYesNo, JudgeChoice: ConceptChoice, JudgeRating: ConceptRating}[q.Kind()]), c), nil
	}
	out := &value.OrderedMap{}
	for _, q := range p.Questions {
		c, err := ask("questions."+q.Field+".", q)
		if err != nil {
			return nil, err
		}
		out.Keys = append(out.Keys, q.Field)
		out.Values = append(out.Values, c)
	}
	return x.stuff(p.outputOr(ConceptAnything), out), nil
}

// nativeVerdict reports whether a judge's output is YesNo, Choice or
// Rating (or refines one), whose content has the native verdict shape.
func (x *invocation) nativeVerdict(output string) bool {
	switch x.concepts().Base(ParseConceptSpec(output).Name) {
	case ConceptYesNo, ConceptChoice, ConceptRating:
		return true
	}
	return false
}

// verdictContent is the native content of a verdict: YesNo {"yes_no"},
// Choice {"choice"}, Rating {"level"} (the level's index), each with the
// raw "verdict" too (what JSON bundles' judges return).
func (x *invocation) verdictContent(prefix string, q JudgeQuestion, verdict string) (any, error) {
	bad := func() (any, error) {
		return nil, x.fail(prefix+"question", errs.New(errs.Render, "the provider's verdict "+strconv.Quote(verdict)+" is not an answer to this question"))
	}
	om := &value.OrderedMap{}
	switch q.Kind() {
	case JudgeChoice:
		if _, ok := q.Options[verdict]; !ok {
			return bad()
		}
		om.Keys, om.Values = []string{"choice"}, []any{verdict}
	case JudgeRating:
		level := -1
		for i, l := range q.Levels {
			if l == verdict || strconv.Itoa(i) == verdict {
				level = i
				break
			}
		}
		if level < 0 {
			return bad()
		}
		om.Keys, om.Values = []string{"level"}, []any{int64(level)}
	default:
		switch verdict {
		case "yes", "no":
		default:
			return bad()
		}
		om.Keys, om.Values = []string{"yes_no"}, []any{verdict == "yes"}
	}
	om.Keys = append(om.Keys, "verdict")
	om.Values = append(om.Values, verdict)
	return om, nil
}
