package workflows

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/method/templating"
	"github.com/jinjabox/jinjabox/policy"
)

// Validation of the fields of Pipelex method files (method_mthds.go).

// ValidateOptions are the application's registries validation checks
// against.
type ValidateOptions struct {
	// Funcs are the PipeFunc functions (nil: DefaultFuncs).
	Funcs *FuncRegistry
	// Models, when set, must resolve every model reference.
	Models *ModelConfig
}

// Pipelex's aspect ratios for PipeImgGen.
var aspectRatios = map[string]bool{
	"square": true, "landscape_4_3": true, "landscape_3_2": true, "landscape_16_9": true, "landscape_21_9": true,
	"portrait_3_4": true, "portrait_2_3": true, "portrait_9_16": true, "portrait_9_21": true,
}

// conceptExt checks refines and the Pipelex field keys of a concept.
func (v *validator) conceptExt(name string, c *Concept) {
	field := "concept " + name
	if c == nil {
		return
	}
	if c.Refines != "" {
		rf := field + " refines"
		if err := CheckConceptSpec(c.Refines); err != nil || ParseConceptSpec(c.Refines).String() != c.Refines {
			v.add("", rf, CodeInvalidMethod, "refines must be a plain concept code, not "+strconv.Quote(c.Refines))
		} else if !v.conceptKnown(c.Refines) {
			v.add("", rf, CodeUnknownConcept, "refines unknown concept "+strconv.Quote(c.Refines))
		} else if BareConcept(c.Refines) == name {
			v.add("", rf, CodeInvalidMethod, "a concept cannot refine itself")
		}
		if len(c.Fields) > 0 {
			// Pipelex: a concept cannot have both refines and structure.
			v.add("", field, CodeInvalidMethod, "a concept has refines or a structure, not both")
		}
	}
	for _, f := range c.Fields {
		fld := field + " field " + f.Name
		if len(f.Choices) > 0 && f.Type != "text" {
			v.add("", fld, CodeInvalidMethod, "choices apply to text fields only")
		}
		switch f.Type {
		case "concept":
			if f.ConceptRef == "" {
				v.add("", fld, CodeInvalidMethod, "a field of type concept needs concept_ref")
			} else if !v.conceptKnown(f.ConceptRef) {
				v.add("", fld, CodeUnknownConcept, "concept_ref names unknown concept "+strconv.Quote(f.ConceptRef))
			}
		case "list":
			switch f.ItemType {
			case "", "text", "integer", "number", "boolean", "date", "dict":
			case "concept":
				if f.ConceptRef == "" {
					v.add("", fld, CodeInvalidMethod, "a list of concepts needs concept_ref")
				} else if !v.conceptKnown(f.ConceptRef) {
					v.add("", fld, CodeUnknownConcept, "concept_ref names unknown concept "+strconv.Quote(f.ConceptRef))
				}
			default:
				if !v.conceptKnown(f.ItemType) {
					v.add("", fld, CodeUnknownConcept, "unknown item_type "+strconv.Quote(f.ItemType))
				}
			}
		default:
			if f.ItemType != "" {
				v.add("", fld, CodeInvalidMethod, "item_type applies to list fields only")
			}
			if f.ConceptRef != "" && f.Type != "concept" {
				v.add("", fld, CodeInvalidMethod, "concept_ref applies to fields of type concept (or lists of them) only")
			}
		}
	}
}

// pipeExt checks what every kind shares: concept reference syntax, the
// model reference and the fields that belong to other kinds.
func (v *validator) pipeExt(code string, p *Pipe) {
	for _, in := range p.InputNames() {
		if err := CheckConceptSpec(p.Inputs[in]); err != nil {
			v.add(code, "inputs", CodeInvalidPipe, "input "+strconv.Quote(in)+": "+err.Error())
		}
		if policy.IsPrivateName(in) || strings.Contains(in, ".") {
			v.add(code, "inputs", CodePrivateName, "input name "+strconv.Quote(in)+" must be a plain public name")
		}
	}
	if p.Output != "" {
		if err := CheckConceptSpec(p.Output); err != nil {
			v.add(code, "output", CodeInvalidPipe, err.Error())
		}
	}
	if p.Model != "" {
		switch p.Type {
		case KindLLM, KindJudge, KindImgGen, KindSearch, KindExtract:
			if err := CheckModelRef(p.Model); err != nil {
				v.add(code, "model", CodeInvalidPipe, err.Error())
			} else if v.opts.Models != nil {
				if _, err := v.opts.Models.Resolve(p.Model); err != nil {
					v.add(code, "model", CodeInvalidPipe, err.Error())
				}
			}
		default:
			v.add(code, "model", CodeInvalidPipe, p.Type+" takes no model")
		}
	}
	only := func(field string, set bool, kinds ...string) {
		if !set {
			return
		}
		for _, k := range kinds {
			if p.Type == k {
				return
			}
		}
		v.add(code, field, CodeInvalidPipe, field+" does not apply to "+p.Type)
	}
	only("aspect_ratio", p.AspectRatio != "", KindImgGen)
	only("size", p.Size != "", KindImgGen)
	only("from_date", p.FromDate != "", KindSearch)
	only("to_date", p.ToDate != "", KindSearch)
	only("include_domains", len(p.IncludeDomains) > 0, KindSearch)
	only("exclude_domains", len(p.ExcludeDomains) > 0, KindSearch)
	only("max_page_images", p.MaxPageImages != 0, KindExtract)
	only("page_views", p.PageViews, KindExtract)
	only("function_name", p.FunctionName != "", KindFunc)
	only("branches", len(p.Branches) > 0, KindParallel)
	only("combined_output", p.CombinedOutput != "", KindParallel)
	only("evidence", p.Evidence != "", KindJudge)
	only("questions", len(p.Questions) > 0, KindJudge)
	switch p.Type {
	case KindImgGen:
		if p.AspectRatio != "" && p.Size != "" {
			v.add(code, "size", CodeInvalidPipe, "size and aspect_ratio are mutually exclusive")
		}
		if p.AspectRatio != "" && !aspectRatios[p.AspectRatio] {
			v.add(code, "aspect_ratio", CodeInvalidPipe, "unknown aspect ratio "+strconv.Quote(p.AspectRatio))
		}
	case KindSearch:
		for _, d := range []struct{ field, val string }{{"from_date", p.FromDate}, {"to_date", p.ToDate}} {
			if d.val != "" && !isISODate(d.val) {
				v.add(code, d.field, CodeInvalidPipe, "dates are YYYY-MM-DD, not "+strconv.Quote(d.val))
			}
		}
	}
}

// isISODate reports whether s is YYYY-MM-DD with a plausible month and day.
func isISODate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	y, e1 := strconv.Atoi(s[:4])
	mo, e2 := strconv.Atoi(s[5:7])
	d, e3 := strconv.Atoi(s[8:])
	return e1 == nil && e2 == nil && e3 == nil && y > 0 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31
}

func (v *validator) parallel(code string, p *Pipe) {
	if len(p.Branches) == 0 {
		v.add(code, "branches", CodeInvalidPipe, "a parallel needs at least one branch")
	}
	if !p.AddEachOutput && p.CombinedOutput == "" {
		v.add(code, "add_each_output", CodeInvalidPipe, "add_each_output or combined_output (or both) is required")
	}
	if p.CombinedOutput != "" {
		if err := CheckConceptSpec(p.CombinedOutput); err != nil {
			v.add(code, "combined_output", CodeInvalidPipe, err.Error())
		} else if !v.conceptKnown(ParseConceptSpec(p.CombinedOutput).Name) {
			v.add(code, "combined_output", CodeUnknownConcept, "unknown concept "+strconv.Quote(p.CombinedOutput))
		}
	}
	seen := map[string]bool{}
	for i, b := range p.Branches {
		field := fmt.Sprintf("branches[%d]", i)
		v.pipeRef(code, field, b.Pipe)
		if b.BatchOver != "" || b.BatchAs != "" {
			v.add(code, field, CodeInvalidPipe, "a parallel branch cannot batch")
		}
		res := b.Result
		if res == "" {
			res = b.Pipe
		}
		if b.Result != "" && (policy.IsPrivateName(b.Result) || strings.Contains(b.Result, ".")) {
			v.add(code, field, CodePrivateName, "result must be a plain public name")
		}
		if seen[res] {
			v.add(code, field, CodeInvalidPipe, "two branches store their result under "+strconv.Quote(res))
		}
		seen[res] = true
	}
}

func (v *validator) funcPipe(code string, p *Pipe) {
	if p.FunctionName == "" {
		v.add(code, "function_name", CodeInvalidPipe, "function_name is required")
		return
	}
	if _, ok := v.opts.Funcs.Lookup(p.FunctionName); !ok {
		v.add(code, "function_name", CodeInvalidPipe, "no function "+strconv.Quote(p.FunctionName)+" is registered")
	}
}

// extractable are the base concepts PipeExtract reads.
var extractable = map[string]bool{ConceptDocument: true, ConceptImage: true}

func (v *validator) extract(code string, p *Pipe) {
	if len(p.Inputs) != 1 {
		v.add(code, "inputs", CodeInvalidPipe, "PipeExtract takes exactly one input (a Document, PDF or Image)")
	} else {
		for _, in := range p.InputNames() {
			spec := ParseConceptSpec(p.Inputs[in])
			if spec.List || !extractable[BaseConcept(v.m.Concepts, spec.Name)] {
				v.add(code, "inputs", CodeInvalidPipe, "input "+strconv.Quote(in)+" must be one Document, PDF or Image, not "+strconv.Quote(p.Inputs[in]))
			}
		}
	}
	if p.MaxPageImages < 0 {
		v.add(code, "max_page_images", CodeInvalidPipe, "max_page_images must not be negative")
	}
	if p.Output != "" {
		spec := ParseConceptSpec(p.Output)
		if b := BaseConcept(v.m.Concepts, spec.Name); !(b == ConceptPage && spec.List) && b != ConceptText {
			v.add(code, "output", CodeInvalidPipe, "PipeExtract outputs Page[] (or Text), not "+strconv.Quote(p.Output))
		}
	}
}

// judgeFile validates the judge shape of method files: an evidence
// prompt, then one question (the pipe's question, options, levels,
// criteria, threshold) or several (Questions).
func (v *validator) judgeFile(code string, p *Pipe) {
	if p.Prompt != "" {
		v.add(code, "prompt", CodeInvalidPipe, "prompt and evidence are synonyms here; give one")
	}
	if p.Evidence != "" {
		v.checkTemplate(code, p, tmplField{field: "prompt", src: p.Evidence, cat: templating.Basic, sigils: true})
	}
	if len(p.Questions) == 0 {
		q := JudgeQuestion{Question: p.Question, Options: p.Options, Levels: p.Levels, Criteria: p.Criteria, Threshold: p.Threshold}
		v.judgeQuestion(code, p, "", q)
		v.judgeOutput(code, p, q.Kind())
		return
	}
	if p.Question != "" || len(p.Options) > 0 || len(p.Levels) > 0 || len(p.Criteria) > 0 || p.Threshold != 0 {
		v.add(code, "question", CodeInvalidPipe, "a judge asks one question or has question tables, not both")
	}
	fields := map[string]Field{}
	for _, f := range FieldsOf(v.m.Concepts, ParseConceptSpec(p.Output).Name) {
		fields[f.Name] = f
	}
	if len(fields) == 0 {
		v.add(code, "output", CodeInvalidPipe, "a judge with question tables outputs a structured concept with one field per question")
	}
	seen := map[string]bool{}
	for _, q := range p.Questions {
		prefix := "questions." + q.Field + "."
		if seen[q.Field] {
			v.add(code, "questions."+q.Field, CodeInvalidPipe, "question asked twice")
		}
		seen[q.Field] = true
		v.judgeQuestion(code, p, prefix, q)
		if len(fields) > 0 {
			if _, ok := fields[q.Field]; !ok {
				v.add(code, "questions."+q.Field, CodeInvalidPipe, "the output concept has no field "+strconv.Quote(q.Field))
			}
		}
	}
	for name, f := range fields {
		if f.Required && !seen[name] {
			v.add(code, "questions", CodeInvalidPipe, "required output field "+strconv.Quote(name)+" has no question")
		}
	}
}

func (v *validator) judgeQuestion(code string, p *Pipe, prefix string, q JudgeQuestion) {
	if q.Question == "" {
		v.add(code, prefix+"question", CodeInvalidPipe, "question is required")
	} else {
		v.checkTemplate(code, p, tmplField{field: prefix + "question", src: q.Question, cat: templating.Basic, sigils: true})
	}
	switch {
	case len(q.Options) > 0 && len(q.Levels) > 0:
		v.add(code, prefix+"options", CodeInvalidPipe, "options and levels are exclusive")
	case len(q.Options) == 1:
		v.add(code, prefix+"options", CodeInvalidPipe, "a choice needs at least two options")
	case len(q.Levels) == 1:
		v.add(code, prefix+"levels", CodeInvalidPipe, "a rating needs at least two levels")
	}
	for k := range q.Options {
		if strings.TrimSpace(k) == "" {
			v.add(code, prefix+"options", CodeInvalidPipe, "empty option key")
		}
	}
	for i, l := range q.Levels {
		if strings.TrimSpace(l) == "" {
			v.add(code, prefix+"levels", CodeInvalidPipe, "level "+strconv.Itoa(i)+" is empty")
		}
	}
	if q.Kind() != JudgeYesNo && len(q.Criteria) > 0 {
		v.add(code, prefix+"criteria", CodeInvalidPipe, "criteria apply to yes/no questions only")
	}
	if q.Kind() != JudgeYesNo && q.Threshold != 0 {
		v.add(code, prefix+"threshold", CodeInvalidPipe, "a threshold applies to yes/no questions only")
	}
	if q.Threshold < 0 || q.Threshold >= 1 {
		v.add(code, prefix+"threshold", CodeInvalidPipe, "threshold must be in (0, 1)")
	}
	for _, k := range sortedKeys(q.Criteria) {
		if k != "yes" && k != "no" {
			v.add(code, prefix+"criteria", CodeInvalidPipe, "criteria keys are yes and no, not "+strconv.Quote(k))
		}
	}
}

// judgeOutput: a single question's output is YesNo, Choice or Rating by
// its kind (or a concept refining it), or Anything.
func (v *validator) judgeOutput(code string, p *Pipe, kind string) {
	if p.Output == "" {
		return
	}
	spec := ParseConceptSpec(p.Output)
	want := map[string]string{JudgeYesNo: ConceptYesNo, JudgeChoice: ConceptChoice, JudgeRating: ConceptRating}[kind]
	base := BaseConcept(v.m.Concepts, spec.Name)
	if spec.List {
		v.add(code, "output", CodeInvalidPipe, "a judge's output has no multiplicity")
	} else if base != want && base != ConceptAnything {
		v.add(code, "output", CodeInvalidPipe, "this judge asks a "+strings.ReplaceAll(kind, "_", "/")+" question, so its output must be "+want+" or refine it, not "+strconv.Quote(p.Output))
	}
}

// judgeKinds adds the Pipelex kind rules to the single-question judge of
// JSON bundles: criteria and threshold belong to yes/no questions, and an
// output of YesNo, Choice or Rating must match the question's kind.
func (v *validator) judgeKinds(code string, p *Pipe) {
	q := JudgeQuestion{Options: p.Options, Levels: p.Levels}
	if q.Kind() != JudgeYesNo && len(p.Criteria) > 0 {
		v.add(code, "criteria", CodeInvalidPipe, "criteria apply to yes/no questions only")
	}
	if q.Kind() != JudgeYesNo && p.Threshold != 0 {
		v.add(code, "threshold", CodeInvalidPipe, "a threshold applies to yes/no questions only")
	}
	switch BaseConcept(v.m.Concepts, ParseConceptSpec(p.Output).Name) {
	case ConceptYesNo, ConceptChoice, ConceptRating:
		v.judgeOutput(code, p, q.Kind())
	}
}
