package workflows

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/engine/errs"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/method/templating"
)

// Run semantics of the kinds and fields of Pipelex method files.

// checkRequiredInputs enforces the "!" suffix (the input must be in
// memory and not empty: an empty list or empty text counts as missing)
// and the "[N]" suffix (a present list input has exactly N items).
func checkRequiredInputs(code string, p *Pipe, mem *Memory) error {
	for _, in := range p.InputNames() {
		spec := ParseConceptSpec(p.Inputs[in])
		st, ok := mem.Get(in)
		if spec.Required && (!ok || isEmptyContent(st.Content)) {
			return fail(code, "inputs", errs.New(errs.Undefined, "required input "+strconv.Quote(in)+" ("+p.Inputs[in]+") is missing or empty"))
		}
		if l, isList := st.Content.([]any); ok && spec.Count > 0 && isList && len(l) != spec.Count {
			return fail(code, "inputs", errs.New(errs.Render, "input "+strconv.Quote(in)+" ("+p.Inputs[in]+") has "+strconv.Itoa(len(l))+" items"))
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

// decorate adds the model and the kind-specific fields of a method file
// to a provider request.
func (s *run) decorate(code string, p *Pipe, req *CompletionRequest) error {
	if p.Model != "" {
		req.ModelRef = p.Model
		if s.r.Models == nil {
			req.Model = p.Model
		} else {
			mc, err := s.r.Models.Resolve(p.Model)
			if err != nil {
				return fail(code, "model", errs.New(errs.Render, err.Error()))
			}
			req.Model, req.Fallbacks = mc.Model, mc.Fallbacks
		}
	}
	req.ModelSettings = p.ModelSettings
	switch p.Type {
	case KindImgGen:
		req.AspectRatio, req.Size = p.AspectRatio, p.Size
	case KindSearch:
		req.FromDate, req.ToDate = p.FromDate, p.ToDate
		req.IncludeDomains, req.ExcludeDomains, req.IncludeImages = p.IncludeDomains, p.ExcludeDomains, p.IncludeImages
	case KindExtract:
		req.MaxPageImages, req.PageViews = p.MaxPageImages, p.PageViews
	}
	return nil
}

// answer turns a provider answer into the output stuff, normalising
// content through the concept's refinements and checking an exact list
// length ("[N]").
func (s *run) answer(code string, req CompletionRequest, resp CompletionResponse) (*Stuff, error) {
	var content any
	if resp.Object != nil {
		content = NormalizeContentFor(s.r.Method.Concepts, req.Output, resp.Object)
	} else {
		content = NormalizeContentFor(s.r.Method.Concepts, req.Output, responseContent(req.Output, req.Fields, resp))
	}
	if err := checkCount(code, req.Output, content); err != nil {
		return nil, err
	}
	return &Stuff{Name: code, Concept: req.Output, Content: content}, nil
}

func checkCount(code, output string, content any) error {
	spec := ParseConceptSpec(output)
	if !spec.List {
		return nil
	}
	l, ok := content.([]any)
	if !ok {
		return fail(code, "output", errs.New(errs.Type, "output "+strconv.Quote(output)+" is a list, the answer is not"))
	}
	if spec.Count > 0 && len(l) != spec.Count {
		return fail(code, "output", errs.New(errs.Render, "output "+strconv.Quote(output)+" needs exactly "+strconv.Itoa(spec.Count)+" items, got "+strconv.Itoa(len(l))))
	}
	return nil
}

// judgeFile runs the method-file judge: render the evidence, then one
// request per question; one question answers with the native verdict
// content, several fill the output concept's fields.
func (s *run) judgeFile(code string, p *Pipe, mem *Memory) (*Stuff, error) {
	style := s.r.Method.style(p, nil)
	evidence := ""
	if p.Evidence != "" {
		var err error
		if evidence, err = s.render(code, "prompt", templating.Basic, style, p.Evidence, true, mem, nil, nil); err != nil {
			return nil, err
		}
	}
	ask := func(prefix string, q JudgeQuestion) (any, error) {
		text, err := s.render(code, prefix+"question", templating.Basic, style, q.Question, true, mem, nil, nil)
		if err != nil {
			return nil, err
		}
		req := CompletionRequest{Kind: RequestJudge, Pipe: code, Prompt: text, Output: outputConcept(p, ConceptAnything),
			Options: sortedKeys(q.Options), Levels: q.Levels}
		req.Evidence, req.Question, req.QuestionField = evidence, text, q.Field
		req.Criteria, req.Threshold = q.Criteria, q.Threshold
		if err := s.decorate(code, p, &req); err != nil {
			return nil, err
		}
		resp, err := s.call(code, req)
		if err != nil {
			return nil, err
		}
		return verdictContent(code, prefix, q, resp.Text)
	}
	if len(p.Questions) == 0 {
		q := JudgeQuestion{Question: p.Question, Options: p.Options, Levels: p.Levels, Criteria: p.Criteria, Threshold: p.Threshold}
		c, err := ask("", q)
		if err != nil {
			return nil, err
		}
		return &Stuff{Name: code, Concept: outputConcept(p, map[string]string{JudgeYesNo: ConceptYesNo, JudgeChoice: ConceptChoice, JudgeRating: ConceptRating}[q.Kind()]), Content: c}, nil
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
	return &Stuff{Name: code, Concept: outputConcept(p, ConceptAnything), Content: out}, nil
}

// nativeVerdict reports whether a judge's output is YesNo, Choice or
// Rating (or refines one), whose content has the native verdict shape.
func (s *run) nativeVerdict(output string) bool {
	switch BaseConcept(s.r.Method.Concepts, ParseConceptSpec(output).Name) {
	case ConceptYesNo, ConceptChoice, ConceptRating:
		return true
	}
	return false
}

// verdictContent is the native content of a verdict: YesNo {"yes_no"},
// Choice {"choice"}, Rating {"level"} (the level's index), each with the
// raw "verdict" too (what JSON bundles' judges return).
func verdictContent(code, prefix string, q JudgeQuestion, verdict string) (any, error) {
	bad := func() (any, error) {
		return nil, fail(code, prefix+"question", errs.New(errs.Render, "the provider's verdict "+strconv.Quote(verdict)+" is not an answer to this question"))
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

// parallel runs every branch on the pipe's memory, in declaration order
// (concurrency is the Temporal layer's job; branches see the same memory
// and not each other's results, which is what Pipelex's deep copies
// give). The first failure by branch order wins.
func (s *run) parallel(code string, p *Pipe, mem *Memory, depth int) (*Stuff, *Memory, error) {
	after := mem
	combined := &value.OrderedMap{}
	var last *Stuff
	for _, b := range p.Branches {
		out, _, err := s.pipe(b.Pipe, mem, depth+1)
		if err != nil {
			return nil, mem, err
		}
		name := b.Result
		if name == "" {
			name = b.Pipe
		}
		if out == nil {
			continue // an absent branch output (continue) adds nothing
		}
		named := *out
		named.Name, named.Code = name, ""
		if p.AddEachOutput {
			after = after.With(named)
		}
		combined.Keys = append(combined.Keys, name)
		combined.Values = append(combined.Values, named.Content)
		last = &named
	}
	if p.CombinedOutput != "" {
		return &Stuff{Name: code, Concept: p.CombinedOutput, Content: combined}, after, nil
	}
	if last == nil {
		return nil, after, nil
	}
	renamed := *last
	renamed.Name, renamed.Code = code, ""
	return &renamed, after, nil
}

// funcPipe calls the registered function with the pipe's inputs.
func (s *run) funcPipe(code string, p *Pipe, mem *Memory) (*Stuff, error) {
	reg := s.r.Funcs
	if reg == nil {
		reg = DefaultFuncs
	}
	f, ok := reg.Lookup(p.FunctionName)
	if !ok {
		return nil, fail(code, "function_name", errs.New(errs.Render, "no function "+strconv.Quote(p.FunctionName)+" is registered"))
	}
	call := FuncCall{Pipe: code, Inputs: map[string]Stuff{}, Memory: mem, Output: outputConcept(p, ConceptAnything)}
	for _, in := range p.InputNames() {
		if st, ok := mem.Get(in); ok {
			call.Inputs[in] = st
		}
	}
	res, err := f(s.ctx, call)
	if err != nil {
		return nil, fail(code, "function_name", &FuncError{Func: p.FunctionName, Err: err})
	}
	content, err := plainContent(res)
	if err != nil {
		return nil, fail(code, "function_name", &FuncError{Func: p.FunctionName, Err: err})
	}
	content = NormalizeContentFor(s.r.Method.Concepts, call.Output, content)
	if err := checkCount(code, call.Output, content); err != nil {
		return nil, err
	}
	return &Stuff{Name: code, Concept: call.Output, Content: content}, nil
}

// FuncError is a registered function's failure.
type FuncError struct {
	Func string
	Err  error
}

func (e *FuncError) Error() string { return "function " + strconv.Quote(e.Func) + ": " + e.Err.Error() }

// Unwrap returns the function's error.
func (e *FuncError) Unwrap() error { return e.Err }

// plainContent turns a function result into memory content: ordered maps
// stay, Go maps become ordered maps in key order (determinism), and
// anything that is not JSON-shaped is refused.
func plainContent(x any) (any, error) {
	switch t := x.(type) {
	case nil, string, bool, int64, float64:
		return t, nil
	case int:
		return int64(t), nil
	case *value.OrderedMap:
		out := &value.OrderedMap{Keys: t.Keys, Values: make([]any, len(t.Values))}
		for i, v := range t.Values {
			c, err := plainContent(v)
			if err != nil {
				return nil, err
			}
			out.Values[i] = c
		}
		return out, nil
	case map[string]any:
		out := &value.OrderedMap{}
		for _, k := range sortedKeys(t) {
			c, err := plainContent(t[k])
			if err != nil {
				return nil, err
			}
			out.Keys = append(out.Keys, k)
			out.Values = append(out.Values, c)
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, v := range t {
			c, err := plainContent(v)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case []string:
		out := make([]any, len(t))
		for i, v := range t {
			out[i] = v
		}
		return out, nil
	}
	return nil, errors.New("result is not JSON-shaped data")
}

// extract sends the pipe's one document input to the provider.
func (s *run) extract(code string, p *Pipe, mem *Memory) (*Stuff, error) {
	names := p.InputNames()
	if len(names) != 1 {
		return nil, fail(code, "inputs", errs.New(errs.Render, "PipeExtract takes exactly one input"))
	}
	st, ok := mem.Get(names[0])
	if !ok {
		return nil, fail(code, "inputs", errs.New(errs.Undefined, "input "+strconv.Quote(names[0])+" is missing"))
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
		return nil, fail(code, "inputs", errs.New(errs.Render, "input "+strconv.Quote(names[0])+" has no url"))
	}
	if doc.MimeType == "" && BaseConcept(s.r.Method.Concepts, ParseConceptSpec(st.Concept).Name) == ConceptImage {
		doc.MimeType = "image/*"
	}
	req := CompletionRequest{Kind: RequestExtract, Pipe: code, Output: outputConcept(p, ConceptPage+"[]")}
	req.Document = doc
	if err := s.decorate(code, p, &req); err != nil {
		return nil, err
	}
	resp, err := s.call(code, req)
	if err != nil {
		return nil, err
	}
	return s.answer(code, req, resp)
}

// formatUse matches what "$var" and "$var.field" expand to.
var formatUse = regexp.MustCompile(`\{\{ ([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)\|format\(\) \}\}`)

// preregisterImages registers, in order of first use, the images a
// prompt inlines with "$image" (or "$card.photo", an Image field), so
// that format renders them as [Image N] tokens: format only names images
// already registered, and Pipelex registers a prompt's image inputs
// before rendering it. Other values and unknown names are left to the
// render.
func (s *run) preregisterImages(reg *templating.ImageRegistry, mem *Memory, srcs ...string) {
	var root map[string]any
	for _, src := range srcs {
		if !strings.Contains(src, "format") && !strings.Contains(src, "$") {
			continue
		}
		for _, m := range formatUse.FindAllStringSubmatch(templating.Prepare(src, true), -1) {
			name, field, _ := strings.Cut(m[1], ".")
			st, ok := mem.Get(name)
			if !ok || !s.isImage(ParseConceptSpec(st.Concept).Name, field) {
				continue
			}
			if root == nil {
				root = mem.PathRoot()
			}
			if v, err := WalkPath(root, m[1]); err == nil {
				_ = registerImages(reg, v) // not an image after all: the render shows it as text
			}
		}
	}
}

// isImage reports whether a concept (or its field) holds images.
func (s *run) isImage(concept, field string) bool {
	concepts := s.r.Method.Concepts
	if field == "" {
		return BaseConcept(concepts, concept) == ConceptImage
	}
	for _, f := range FieldsOf(concepts, concept) {
		if f.Name == field {
			return f.Type == ConceptImage || f.Type == "concept" && BaseConcept(concepts, f.ConceptRef) == ConceptImage
		}
	}
	return false
}
