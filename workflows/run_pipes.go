package workflows

import (
	"errors"
	"strconv"

	"github.com/jinjabox/jinjabox/engine/errs"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/method/templating"
)

// Per-kind semantics of the runner.

func (s *run) llm(code string, p *Pipe, mem *Memory) (*Stuff, error) {
	style := s.r.Method.style(p, nil)
	reg := templating.NewImageRegistry()
	req := CompletionRequest{Kind: RequestLLM, Pipe: code, Output: outputConcept(p, ConceptText)}
	s.preregisterImages(reg, mem, p.SystemPrompt, p.Prompt)
	var err error
	if p.SystemPrompt != "" {
		if req.SystemPrompt, err = s.render(code, "system_prompt", templating.LLMPrompt, style, p.SystemPrompt, true, mem, nil, reg); err != nil {
			return nil, err
		}
	}
	if req.Prompt, err = s.render(code, "prompt", templating.LLMPrompt, style, p.Prompt, true, mem, nil, reg); err != nil {
		return nil, err
	}
	root := mem.PathRoot()
	for i, path := range p.Images {
		field := "images[" + strconv.Itoa(i) + "]"
		v, err := WalkPath(root, path)
		if err != nil {
			return nil, fail(code, field, err)
		}
		if err := registerImages(reg, v); err != nil {
			return nil, fail(code, field, err)
		}
	}
	req.Images = reg.Images()
	req.Fields = s.fields(req.Output)
	if err := s.decorate(code, p, &req); err != nil {
		return nil, err
	}
	resp, err := s.call(code, req)
	if err != nil {
		return nil, err
	}
	return s.answer(code, req, resp)
}

// responseContent turns a provider answer into stuff content.
func responseContent(output string, fields []Field, resp CompletionResponse) any {
	if len(fields) > 0 && resp.Object != nil {
		return resp.Object
	}
	return NormalizeContent(ParseConceptSpec(output).Name, resp.Text)
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
		return errs.New(errs.Render, "image reference does not lead to an image")
	}
	url, ok := u.(string)
	if !ok {
		return errs.New(errs.Render, "image url is not a string")
	}
	ref := templating.ImageRef{URL: url}
	if c, err := WalkPath(v, "caption"); err == nil {
		ref.Caption, _ = c.(string)
	}
	reg.Register(ref)
	return nil
}

func (s *run) compose(code string, p *Pipe, mem *Memory) (*Stuff, error) {
	if t := p.Template; t != nil {
		style := s.r.Method.style(p, t.TemplatingStyle)
		out, err := s.renderWith(code, "template", t.Category, style, t.Template, mem, t.ExtraContext,
			templating.RenderConfig{Sigils: composeSigils(t.Category), Strict: t.StrictUndefined})
		if err != nil {
			return nil, err
		}
		def := ConceptText
		if t.Category == templating.HTML {
			def = ConceptHTML
		}
		return &Stuff{Name: code, Concept: outputConcept(p, def), Content: textContent(out)}, nil
	}
	if p.Construct == nil {
		return nil, fail(code, "template", errs.New(errs.Render, "a template or a construct is required"))
	}
	obj, err := s.construct(code, p, p.Construct, "", mem, mem.PathRoot())
	if err != nil {
		return nil, err
	}
	return &Stuff{Name: code, Concept: outputConcept(p, ConceptAnything), Content: obj}, nil
}

func (s *run) construct(code string, p *Pipe, c *Construct, prefix string, mem *Memory, root map[string]any) (*value.OrderedMap, error) {
	out := &value.OrderedMap{}
	for _, f := range c.Fields {
		path := prefix + f.Name
		field := "construct field '" + path + "'"
		var v any
		var err error
		switch f.Method {
		case FieldFixed:
			v = f.Fixed
		case FieldFrom:
			if f.KeyedBy != "" {
				v, err = ListToDictKeyedBy(root, f.From, f.KeyedBy)
			} else {
				v, err = WalkPath(root, f.From)
			}
			if err != nil {
				err = fail(code, field, err)
			}
		case FieldTemplate:
			v, err = s.render(code, field, templating.Basic, s.r.Method.style(p, nil), f.Template, true, mem, nil, nil)
		case FieldNested:
			v, err = s.construct(code, p, f.Nested, path+".", mem, root)
		}
		if err != nil {
			return nil, err
		}
		out.Keys = append(out.Keys, f.Name)
		out.Values = append(out.Values, v)
	}
	return out, nil
}

func (s *run) condition(code string, p *Pipe, mem *Memory, depth int) (*Stuff, *Memory, error) {
	field, src := "expression", "{{ "+p.Expression+" }}"
	if p.Expression == "" {
		field, src = "expression_template", p.ExpressionTemplate
	}
	got, err := s.render(code, field, templating.Expression, s.r.Method.style(p, nil), src, false, mem, nil, nil)
	if err != nil {
		return nil, mem, err
	}
	if got == "" || got == "None" {
		return nil, mem, fail(code, field, errs.New(errs.Render, "the expression rendered "+strconv.Quote(got)+", which selects no outcome"))
	}
	if a := p.AddAliasFromExpressionTo; a != "" {
		mem = mem.With(Stuff{Name: a, Concept: ConceptText, Content: textContent(got)})
	}
	target, ok := p.Outcomes[got]
	if !ok {
		target = p.DefaultOutcome
	}
	switch target {
	case OutcomeContinue:
		return nil, mem, nil
	case OutcomeFail:
		return nil, mem, fail(code, "outcomes", errs.New(errs.Render, "outcome fail selected by "+strconv.Quote(got)))
	}
	out, _, err := s.pipe(target, mem, depth+1)
	if err != nil {
		return nil, mem, err
	}
	if out != nil {
		renamed := *out
		renamed.Name = code
		out = &renamed
	}
	return out, mem, nil
}

// batch runs branch once per item of the list at listPath, each with the
// item under itemName in its own memory. Items run in index order, so the
// first failure returned is the first by index; absent results are
// compacted out and order is kept.
func (s *run) batch(code, listField string, p *Pipe, mem *Memory, listPath, itemName, branch string, depth int) (*Stuff, error) {
	items, err := WalkList(mem.PathRoot(), listPath)
	if err != nil {
		return nil, fail(code, listField, err)
	}
	itemConcept := s.itemConcept(p, mem, listPath)
	var outs []any
	outConcept := ""
	for i, it := range items {
		m := mem.With(Stuff{Name: itemName, Concept: itemConcept, Content: it})
		out, _, err := s.pipe(branch, m, depth+1)
		if err != nil {
			var re *RunError
			if errors.As(err, &re) && re.Item < 0 {
				re.Item = i
			}
			return nil, err
		}
		if out == nil {
			continue
		}
		outConcept = ParseConceptSpec(out.Concept).Name
		outs = append(outs, out.Content)
	}
	return s.batchOutput(code, branch, outConcept, outs), nil
}

// batchOutput assembles a batch's result, shared by the pure runner and
// PipeBatchWorkflow: the outputs in item order (absent ones already
// dropped), as a list of the last output's concept or, with none, of the
// branch pipe's declared output.
func (s *run) batchOutput(code, branch, outConcept string, outs []any) *Stuff {
	if outConcept == "" {
		outConcept = ConceptAnything
		if bp := s.r.Method.Pipes[branch]; bp != nil && bp.Output != "" {
			outConcept = ParseConceptSpec(bp.Output).Name
		}
	}
	if outs == nil {
		outs = []any{}
	}
	return &Stuff{Name: code, Concept: outConcept + "[]", Content: outs}
}

// itemConcept is the concept of a batch list's items: from the declared
// input, else the stuff in memory, else Anything.
func (s *run) itemConcept(p *Pipe, mem *Memory, listPath string) string {
	root := listPath
	for i := 0; i < len(root); i++ {
		if root[i] == '.' {
			return ConceptAnything // a nested list: its items have no declared concept
		}
	}
	if spec, ok := p.Inputs[root]; ok {
		return ParseConceptSpec(spec).Name
	}
	if st, ok := mem.Get(root); ok {
		return ParseConceptSpec(st.Concept).Name
	}
	return ConceptAnything
}

func (s *run) sequence(code string, p *Pipe, mem *Memory, depth int) (*Stuff, *Memory, error) {
	var last *Stuff
	for i, st := range p.Steps {
		var out *Stuff
		var err error
		if st.BatchOver != "" {
			out, err = s.batch(code, "steps["+strconv.Itoa(i)+"].batch_over", p, mem, st.BatchOver, st.BatchAs, st.Pipe, depth)
		} else {
			var after *Memory
			out, after, err = s.pipe(st.Pipe, mem, depth+1)
			if sp := s.r.Method.Pipes[st.Pipe]; err == nil && sp != nil && sp.Type == KindParallel && sp.AddEachOutput {
				mem = after // a parallel step adds each branch's output to the sequence's memory
			}
		}
		if err != nil {
			return nil, mem, err
		}
		if out == nil {
			last = nil
			continue
		}
		mem, last = storeStep(mem, st, out)
	}
	return renameResult(last, code), mem, nil
}

// storeStep adds a sequence step's output to working memory under its
// result name (the pipe's name when the step gives none) and returns it
// as stored. Shared by the pure runner and PipeSequenceWorkflow.
func storeStep(mem *Memory, st Step, out *Stuff) (*Memory, *Stuff) {
	name := st.Result
	if name == "" {
		name = st.Pipe
	}
	named := *out
	named.Name, named.Code = name, ""
	mem = mem.With(named)
	l, _ := mem.Get(name)
	return mem, &l
}

// renameResult names a sequence's last output after the sequence.
func renameResult(last *Stuff, code string) *Stuff {
	if last == nil {
		return nil
	}
	renamed := *last
	renamed.Name = code
	return &renamed
}

func (s *run) judge(code string, p *Pipe, mem *Memory) (*Stuff, error) {
	if p.Evidence != "" || len(p.Questions) > 0 {
		return s.judgeFile(code, p, mem)
	}
	field, src := "question", p.Question
	if src == "" {
		field, src = "prompt", p.Prompt
	}
	q, err := s.render(code, field, templating.Basic, s.r.Method.style(p, nil), src, true, mem, nil, nil)
	if err != nil {
		return nil, err
	}
	req := CompletionRequest{Kind: RequestJudge, Pipe: code, Prompt: q, Output: outputConcept(p, ConceptAnything),
		Options: sortedKeys(p.Options), Levels: p.Levels}
	resp, err := s.call(code, req)
	if err != nil {
		return nil, err
	}
	var content any = &value.OrderedMap{Keys: []string{"verdict"}, Values: []any{resp.Text}}
	if s.nativeVerdict(req.Output) {
		q := JudgeQuestion{Question: src, Options: p.Options, Levels: p.Levels, Criteria: p.Criteria, Threshold: p.Threshold}
		if content, err = verdictContent(code, "", q, resp.Text); err != nil {
			return nil, err
		}
	}
	return &Stuff{Name: code, Concept: req.Output, Content: content}, nil
}

func (s *run) imgGen(code string, p *Pipe, mem *Memory) (*Stuff, error) {
	style := s.r.Method.style(p, nil)
	reg := templating.NewImageRegistry()
	req := CompletionRequest{Kind: RequestImgGen, Pipe: code, Output: outputConcept(p, ConceptImage)}
	s.preregisterImages(reg, mem, p.Prompt, p.NegativePrompt)
	var err error
	if req.Prompt, err = s.render(code, "prompt", templating.ImgGenPrompt, style, p.Prompt, true, mem, nil, reg); err != nil {
		return nil, err
	}
	if p.NegativePrompt != "" {
		if req.NegativePrompt, err = s.render(code, "negative_prompt", templating.ImgGenPrompt, style, p.NegativePrompt, true, mem, nil, reg); err != nil {
			return nil, err
		}
	}
	req.Images = reg.Images()
	if err := s.decorate(code, p, &req); err != nil {
		return nil, err
	}
	resp, err := s.call(code, req)
	if err != nil {
		return nil, err
	}
	return &Stuff{Name: code, Concept: req.Output, Content: &value.OrderedMap{Keys: []string{"url"}, Values: []any{resp.ImageURL}}}, nil
}

func (s *run) search(code string, p *Pipe, mem *Memory) (*Stuff, error) {
	q, err := s.render(code, "prompt", templating.Basic, s.r.Method.style(p, nil), p.Prompt, true, mem, nil, nil)
	if err != nil {
		return nil, err
	}
	req := CompletionRequest{Kind: RequestSearch, Pipe: code, Prompt: q, Output: outputConcept(p, ConceptText), MaxResults: p.MaxResults}
	if err := s.decorate(code, p, &req); err != nil {
		return nil, err
	}
	resp, err := s.call(code, req)
	if err != nil {
		return nil, err
	}
	req.Fields = s.fields(req.Output) // after the call: the request stays as it was
	return s.answer(code, req, resp)
}
