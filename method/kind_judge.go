package method

import (
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/method/templating"
)

// PipeJudge: closed questions asked of a judging model about the evidence
// its prompt presents (Pipelex's PipeJudgeBlueprint): yes/no, a choice
// among options, or a rating on levels. The single form asks one
// question and outputs its native verdict (YesNo, Choice, Rating); the
// multi form asks the questions of a table, each answer filling the
// output concept's field of that name.

// JudgeFields are PipeJudge's own fields; Pipe.Prompt is the evidence.
type JudgeFields struct {
	Question  string            `json:"question,omitempty"`
	Options   map[string]string `json:"options,omitempty"`
	Levels    []string          `json:"levels,omitempty"`
	Criteria  map[string]string `json:"criteria,omitempty"`
	Threshold float64           `json:"threshold,omitempty"`
	// Questions asks several questions at once (the multi form).
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

// single is the single form's question.
func (p *Pipe) single() JudgeQuestion {
	return JudgeQuestion{Question: p.Question, Options: p.Options, Levels: p.Levels, Criteria: p.Criteria, Threshold: p.Threshold}
}

// verdictConcepts are the native outputs of each kind.
var verdictConcepts = map[string]string{JudgeYesNo: ConceptYesNo, JudgeChoice: ConceptChoice, JudgeRating: ConceptRating}

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
		s.add("questions", len(p.Questions) > 0)
		return s
	},
	check: checkJudge,
	run: func(x *invocation) (*Stuff, []Stuff, error) {
		out, err := x.judge()
		return out, nil, err
	},
}

// checkJudge mirrors PipeJudgeBlueprint: the evidence prompt and one
// question (or a questions table, not both) are required; every input
// is read by the prompt or a question; the output has no multiplicity
// and is the kind's native verdict (or refines it), or for the multi
// form a structure with one field per question.
func checkJudge(c *pipeCheck) {
	p := c.p
	if strings.TrimSpace(p.Prompt) == "" {
		c.add("prompt", CodeInvalidPipe, "a PipeJudge judges the evidence its prompt presents: prompt is required")
	}
	switch {
	case p.Question == "" && len(p.Questions) == 0:
		c.add("question", CodeInvalidPipe, "a PipeJudge asks a question (question) or several (questions)")
	case p.Question != "" && len(p.Questions) > 0:
		c.add("question", CodeInvalidPipe, "a PipeJudge asks one question or several questions, not both")
	}
	u := used{}
	failed := false
	if p.Prompt != "" {
		info := c.checkTemplate(tmplField{field: "prompt", src: p.Prompt, cat: templating.LLMPrompt, sigils: true})
		failed = info == nil
		u.addFacts(info)
	}
	if spec := ParseConceptSpec(p.Output); p.Output != "" && spec.List {
		c.add("output", CodeInvalidPipe, "a PipeJudge produces one verdict, so its output has no multiplicity: "+strconv.Quote(p.Output))
	}
	if len(p.Questions) == 0 {
		q := p.single()
		failed = !c.judgeQuestion("", q, u) || failed
		c.requireAllUsed(u, failed)
		c.judgeOutput(q.Kind())
		return
	}
	for _, k := range []struct {
		name string
		set  bool
	}{{"options", len(p.Options) > 0}, {"levels", len(p.Levels) > 0}, {"criteria", len(p.Criteria) > 0}, {"threshold", p.Threshold != 0}} {
		if k.set {
			c.add(k.name, CodeInvalidPipe, "a PipeJudge asking several questions sets "+k.name+" on each question, not on the pipe")
		}
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
		if !admittedFieldName(q.Field) {
			c.add("questions."+q.Field, CodeInvalidPipe, "a question's key names the output field of its verdict: "+strconv.Quote(q.Field)+" is not an admitted field name")
		}
		failed = !c.judgeQuestion(prefix, q, u) || failed
		if len(fields) > 0 {
			if _, ok := fields[q.Field]; !ok {
				c.add("questions."+q.Field, CodeInvalidPipe, "the output concept has no field "+strconv.Quote(q.Field))
			}
		}
	}
	for _, name := range sortedKeys(fields) {
		if fields[name].Required && !seen[name] {
			c.add("questions", CodeInvalidPipe, "required output field "+strconv.Quote(name)+" has no question")
		}
	}
	c.requireAllUsed(u, failed)
}

// judgeQuestion checks one question (Pipelex's _validate_question_kind
// and _validate_levels); it reports whether its template parsed.
func (c *pipeCheck) judgeQuestion(prefix string, q JudgeQuestion, u used) bool {
	ok := true
	if strings.TrimSpace(q.Question) == "" {
		if prefix != "" || c.p.Question != "" {
			c.add(prefix+"question", CodeInvalidPipe, "a question cannot be empty")
		}
	} else {
		info := c.checkTemplate(tmplField{field: prefix + "question", src: q.Question, cat: templating.Basic, sigils: true})
		ok = info != nil
		u.addFacts(info)
	}
	switch {
	case len(q.Options) > 0 && len(q.Levels) > 0:
		c.add(prefix+"options", CodeInvalidPipe, "options and levels are exclusive")
	case len(q.Options) == 1:
		c.add(prefix+"options", CodeInvalidPipe, "a choice needs at least two options")
	case len(q.Levels) == 1:
		c.add(prefix+"levels", CodeInvalidPipe, "a rating needs at least two levels")
	}
	for _, k := range sortedKeys(q.Options) {
		if strings.TrimSpace(k) == "" {
			c.add(prefix+"options", CodeInvalidPipe, "empty option key")
		}
	}
	seen := map[string]bool{}
	for i, l := range q.Levels {
		if strings.TrimSpace(l) == "" {
			c.add(prefix+"levels", CodeInvalidPipe, "level "+strconv.Itoa(i)+" is empty")
		} else if seen[l] {
			c.add(prefix+"levels", CodeInvalidPipe, "level "+strconv.Quote(l)+" is repeated: a rating verdict names its level")
		}
		seen[l] = true
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
	if len(q.Criteria) > 0 {
		// JudgeYesNoCriteria: exactly yes and no, both non-empty.
		for _, k := range sortedKeys(q.Criteria) {
			if k != "yes" && k != "no" {
				c.add(prefix+"criteria", CodeInvalidPipe, "criteria keys are yes and no, not "+strconv.Quote(k))
			}
		}
		for _, side := range []string{"yes", "no"} {
			if strings.TrimSpace(q.Criteria[side]) == "" {
				c.add(prefix+"criteria", CodeInvalidPipe, "criteria describe both answers: "+side+" is missing or empty")
			}
		}
	}
	return ok
}

// judgeOutput: a single question's output is its kind's native verdict
// (YesNo, Choice, Rating) or a concept refining it.
func (c *pipeCheck) judgeOutput(kind string) {
	p := c.p
	if p.Output == "" {
		return
	}
	spec := ParseConceptSpec(p.Output)
	want := verdictConcepts[kind]
	if !spec.List && c.base(spec.Name) != want {
		c.add("output", CodeInvalidPipe, "this judge asks a "+strings.ReplaceAll(kind, "_", "/")+" question, so its output must be "+want+" or refine it, not "+strconv.Quote(p.Output))
	}
}

// judge runs the judge: render the evidence (llm_prompt), then one
// request per question; a single question answers with the native
// verdict content, several fill the output concept's fields.
func (x *invocation) judge() (*Stuff, error) {
	p := x.p
	style := x.style(nil)
	evidence, err := x.render("prompt", templating.LLMPrompt, style, p.Prompt, true, nil)
	if err != nil {
		return nil, err
	}
	ask := func(prefix string, q JudgeQuestion) (any, error) {
		text, err := x.render(prefix+"question", templating.Basic, style, q.Question, true, nil)
		if err != nil {
			return nil, err
		}
		req := x.request(RequestJudge, verdictConcepts[q.Kind()])
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
		q := p.single()
		c, err := ask("", q)
		if err != nil {
			return nil, err
		}
		return x.stuff(p.outputOr(verdictConcepts[q.Kind()]), c), nil
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

// verdictContent is the native content of a verdict: YesNo {"yes_no"},
// Choice {"choice"}, Rating {"level"} (the level's index), each with the
// raw "verdict" too (what JSON bundles' judges return).
func (x *invocation) verdictContent(prefix string, q JudgeQuestion, verdict string) (any, error) {
	bad := func() (any, error) {
		return nil, x.fail(prefix+"question", engine.NewError(engine.KindRender, "the provider's verdict "+strconv.Quote(verdict)+" is not an answer to this question"))
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
