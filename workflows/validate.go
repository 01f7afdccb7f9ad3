package workflows

import (
	"sort"
	"strconv"
	"strings"

	"go.uber.org/multierr"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/builtins"
	"github.com/jinjabox/jinjabox/engine/errs"
	"github.com/jinjabox/jinjabox/engine/syntax"
	"github.com/jinjabox/jinjabox/method/templating"
	"github.com/jinjabox/jinjabox/policy"
)

// ValidateMethod parses every template and path of the bundle before
// anything runs and reports every problem at once (a multierr of
// *Problem, in pipe-name order), or nil.
func ValidateMethod(m *Method) error {
	return ValidateMethodWith(m, ValidateOptions{})
}

// ValidateMethodWith is ValidateMethod checking PipeFunc names against
// opts.Funcs (default DefaultFuncs) and model references against
// opts.Models (when set).
func ValidateMethodWith(m *Method, opts ValidateOptions) error {
	v := &validator{m: m, opts: opts}
	if v.opts.Funcs == nil {
		v.opts.Funcs = DefaultFuncs
	}
	v.method()
	var err error
	for _, p := range v.problems {
		err = multierr.Append(err, p)
	}
	return err
}

type validator struct {
	m        *Method
	opts     ValidateOptions
	problems []*Problem
}

func (v *validator) add(pipe, field, code, msg string) {
	v.problems = append(v.problems, &Problem{Pipe: pipe, Field: field, Code: code, Message: msg})
}

func (v *validator) conceptKnown(name string) bool {
	// A qualified reference names a native ("native.Text") or a concept
	// of this bundle's own domain; other domains are not loaded.
	if d, c := SplitConceptRef(name); d != "" {
		if d+"." == NativePrefix {
			return IsNativeConcept(c)
		}
		if d != v.m.Domain {
			return false
		}
		name = c
	}
	if IsNativeConcept(name) {
		return true
	}
	_, ok := v.m.Concepts[name]
	return ok
}

func (v *validator) method() {
	m := v.m
	if _, err := m.TemplatingStyle.Resolved(); err != nil {
		v.add("", "templating_style", CodeInvalidMethod, err.Error())
	}
	if m.MainPipe == "" {
		v.add("", "main_pipe", CodeInvalidMethod, "main_pipe is required")
	} else if _, ok := m.Pipes[m.MainPipe]; !ok {
		v.add("", "main_pipe", CodeUnknownPipe, "main pipe "+strconv.Quote(m.MainPipe)+" is not defined")
	}
	for _, name := range sortedKeys(m.Concepts) {
		if IsNativeConcept(name) {
			v.add("", "concept "+name, CodeInvalidMethod, "redefines a native concept")
		}
		v.conceptExt(name, m.Concepts[name])
		for _, f := range m.Concepts[name].Fields {
			if f.Name == "" || policy.IsPrivateName(f.Name) {
				v.add("", "concept "+name, CodePrivateName, "field name "+strconv.Quote(f.Name)+" is empty or starts with an underscore")
			}
			switch f.Type {
			case "text", "integer", "number", "boolean", "list", "object", "date", "dict", "concept":
			default:
				if !v.conceptKnown(f.Type) {
					v.add("", "concept "+name+" field "+f.Name, CodeUnknownConcept, "field "+strconv.Quote(f.Name)+" has unknown type "+strconv.Quote(f.Type))
				}
			}
		}
	}
	for _, code := range sortedKeys(m.Pipes) {
		v.pipe(code, m.Pipes[code])
	}
}

func (v *validator) pipeRef(pipe, field, target string) {
	if target == "" {
		v.add(pipe, field, CodeInvalidPipe, "a pipe code is required")
		return
	}
	if _, ok := v.m.Pipes[target]; !ok {
		v.add(pipe, field, CodeUnknownPipe, "pipe "+strconv.Quote(target)+" is not defined")
	}
}

func (v *validator) pipe(code string, p *Pipe) {
	if p == nil {
		v.add(code, "", CodeInvalidPipe, "empty pipe")
		return
	}
	for _, in := range p.InputNames() {
		spec := ParseConceptSpec(p.Inputs[in])
		if !v.conceptKnown(spec.Name) {
			v.add(code, "inputs", CodeUnknownConcept, "input "+strconv.Quote(in)+" has unknown concept "+strconv.Quote(spec.Name))
		}
	}
	if p.Output != "" && !v.conceptKnown(ParseConceptSpec(p.Output).Name) {
		v.add(code, "output", CodeUnknownConcept, "unknown output concept "+strconv.Quote(p.Output))
	}
	if p.TemplatingStyle != nil {
		if _, err := p.TemplatingStyle.Resolved(); err != nil {
			v.add(code, "templating_style", CodeInvalidPipe, err.Error())
		}
	}
	v.pipeExt(code, p)
	switch p.Type {
	case KindLLM:
		v.llm(code, p)
	case KindImgGen:
		v.imgGen(code, p)
	case KindSearch:
		v.search(code, p)
	case KindJudge:
		v.judge(code, p)
	case KindCompose:
		v.compose(code, p)
	case KindCondition:
		v.condition(code, p)
	case KindBatch:
		v.batch(code, p)
	case KindSequence:
		v.sequence(code, p)
	case KindParallel:
		v.parallel(code, p)
	case KindFunc:
		v.funcPipe(code, p)
	case KindExtract:
		v.extract(code, p)
	default:
		v.add(code, "type", CodeInvalidPipe, "unknown pipe type "+strconv.Quote(p.Type))
	}
}

// optionalInputs are the inputs declared with "?".
func optionalInputs(p *Pipe) map[string]bool {
	out := map[string]bool{}
	for name, spec := range p.Inputs {
		if ParseConceptSpec(spec).Optional {
			out[name] = true
		}
	}
	return out
}

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

// checkTemplate parses and analyses one template field, reporting syntax
// errors, private names, unknown filters, undeclared and unguarded
// inputs. It returns the analysis (nil when the template does not parse).
func (v *validator) checkTemplate(pipe string, p *Pipe, f tmplField) *TemplateInfo {
	spec, ok := f.cat.Spec()
	if !ok {
		v.add(pipe, f.field, CodeInvalidPipe, "unknown template category "+strconv.Quote(string(f.cat)))
		return nil
	}
	src := templating.Prepare(f.src, f.sigils)
	shift := 0
	if f.wrap {
		src, shift = "{{ "+f.src+" }}", 3
	}
	name := pipe + "." + f.field
	// Problems of this field are reported in source order.
	start := len(v.problems)
	defer func() {
		fieldProbs := v.problems[start:]
		sort.SliceStable(fieldProbs, func(i, j int) bool {
			a, b := fieldProbs[i], fieldProbs[j]
			return a.Line < b.Line || (a.Line == b.Line && a.Col < b.Col)
		})
	}()
	prob := func(code, msg string, off int) {
		pr := &Problem{Pipe: pipe, Field: f.field, Code: code, Message: msg}
		if off >= 0 {
			pr.Line, pr.Col = errs.LineCol(src, off)
			if pr.Line == 1 {
				pr.Col = max(1, pr.Col-shift)
			}
		}
		v.problems = append(v.problems, pr)
	}
	tree, err := syntax.Parse(name, src, syntax.Options{TrimBlocks: spec.TrimBlocks, LstripBlocks: spec.LstripBlocks}, budget.NewMeter(budget.Limits{}))
	if err != nil {
		v.engineProblem(pipe, f.field, err, shift)
		return nil
	}
	info := AnalyzeTemplate(tree, optionalInputs(p))
	for _, n := range info.Private {
		prob(CodePrivateName, "private name "+strconv.Quote(n.Name)+" is not readable by templates", n.Pos)
	}
	unknown := 0
	for _, fl := range info.Filters {
		if _, ok := builtins.Filters[fl.Name]; ok || f.cat.HasExtraFilter(fl.Name) {
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
	// The engine's own static pass (P4 refusals, unknown tests, ...):
	// report what the analysis above did not already explain.
	env, err := templating.NewEnvironment(f.cat, templating.TemplatingStyle{})
	if err == nil {
		_, err = env.Parse(name, src)
	}
	if err != nil {
		k := errKind(err)
		covered := (k == errs.Security && len(info.Private) > 0) || (k == errs.Syntax && unknown > 0)
		if !covered {
			v.engineProblem(pipe, f.field, err, shift)
		}
	}
	for _, n := range info.Vars {
		if _, declared := p.Inputs[n.Name]; declared || f.extra[n.Name] || ignoredVar(n.Name) {
			continue
		}
		prob(CodeUndeclaredInput, "variable "+strconv.Quote(n.Name)+" is not a declared input", n.Pos)
	}
	for _, n := range info.Unguarded {
		prob(CodeOptionalUnguarded, "optional input "+strconv.Quote(n.Name)+" is used outside a guard ({% if "+n.Name+" %}, is defined, an inline if, or @?"+n.Name+")", n.Pos)
	}
	return &info
}

// ignoredVar: names Pipelex's required-variable check ignores.
func ignoredVar(name string) bool {
	return policy.IsPrivateName(name) || name == "place_holder"
}

// engineProblem reports an engine error as a problem of the field.
func (v *validator) engineProblem(pipe, field string, err error, shift int) {
	pr := &Problem{Pipe: pipe, Field: field, Code: CodeTemplate, Message: err.Error()}
	if e, ok := err.(*engine.Error); ok {
		pr.Message, pr.Line, pr.Col = e.Message, e.Line, e.Col
		if pr.Line == 1 {
			pr.Col = max(1, pr.Col-shift)
		}
		switch e.Kind {
		case errs.Syntax:
			pr.Code = CodeSyntax
		case errs.Security:
			pr.Code = CodePrivateName
		case errs.Budget:
			pr.Code = CodeTemplate
		}
	}
	v.problems = append(v.problems, pr)
}

// checkPath validates a path outside templates; when root is true its
// first segment must be a declared input.
func (v *validator) checkPath(pipe string, p *Pipe, field, path string, root bool) {
	segs, err := ParsePath(path)
	if err != nil {
		code := CodeInvalidPath
		if errKind(err) == errs.Security {
			code = CodePrivateName
		}
		v.add(pipe, field, code, err.(*engine.Error).Message)
		return
	}
	if root {
		if _, ok := p.Inputs[segs[0]]; !ok {
			v.add(pipe, field, CodeUndeclaredInput, "path root "+strconv.Quote(segs[0])+" is not a declared input")
		}
	}
}

// used collects the variables a pipe's templates and paths use.
type used map[string]bool

func (u used) addInfo(info *TemplateInfo) {
	if info == nil {
		return
	}
	for _, n := range info.Vars {
		u[n.Name] = true
	}
}

func (u used) addPath(path string) {
	if i := strings.IndexByte(path, '.'); i >= 0 {
		path = path[:i]
	}
	u[path] = true
}

// requireAllUsed reports declared inputs no template or path uses.
func (v *validator) requireAllUsed(code string, p *Pipe, u used, anyFailed bool) {
	if anyFailed {
		return // a template that does not parse uses unknown names
	}
	for _, in := range p.InputNames() {
		if !u[in] && !ignoredVar(in) {
			v.add(code, "inputs", CodeUnusedInput, "declared input "+strconv.Quote(in)+" is not used by any template")
		}
	}
}

// ValidateJSON loads a method from JSON and validates it: the load error
// (a JSON shape problem, reported as one invalid_method problem) or every
// validation problem. It is what `jinjabox validate METHOD.json` prints,
// one Problem per line.
func ValidateJSON(data []byte) (*Method, error) {
	m, err := LoadMethod(data)
	if err != nil {
		return nil, &Problem{Code: CodeInvalidMethod, Message: err.Error()}
	}
	return m, ValidateMethod(m)
}
