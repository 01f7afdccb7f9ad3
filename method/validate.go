package method

import (
	"sort"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/errs"
	"github.com/jinjabox/jinjabox/policy"
)

// ValidateOptions are the application's registries validation checks
// against.
type ValidateOptions struct {
	// Funcs are the PipeFunc functions (nil: DefaultFuncs).
	Funcs *FuncRegistry
	// Models, when set, must resolve every model reference.
	Models *ModelConfig
}

// Validate checks every pipe and concept of the library's own bundles
// (installed methods are checked only for what the library uses of
// them): every template and path is parsed and analysed before anything
// runs, and every problem is reported at once, errors and warnings, in
// bundle, then pipe-reference order. Report.Err is nil when the library
// is valid.
func (l *Library) Validate(opts ValidateOptions) *Report {
	v := &validator{lib: l, opts: opts, report: &Report{}}
	if v.opts.Funcs == nil {
		v.opts.Funcs = DefaultFuncs
	}
	v.report.Add(l.problems...)
	v.library()
	return v.report
}

// ValidateBundle validates one bundle as a library of its own (the JSON
// bundles of earlier releases), its main_pipe as the entry.
func ValidateBundle(b *Bundle, opts ValidateOptions) (*Library, error) {
	l := NewLibrary([]*Bundle{b})
	l.Main = l.MainOf(b)
	return l, l.Validate(opts).Err()
}

type validator struct {
	lib    *Library
	opts   ValidateOptions
	report *Report
}

// bundleProblem reports a problem of a bundle's own keys or concepts.
func (v *validator) bundleProblem(b *Bundle, field, code, msg string) {
	v.report.Add(&Problem{File: b.Source, Domain: b.Domain, Field: field, Code: code, Message: msg})
}

func (v *validator) library() {
	l := v.lib
	for _, b := range l.Bundles {
		v.bundle(b)
	}
	if l.Main != "" {
		if _, ok := l.Pipe(l.Main); !ok {
			v.report.Add(&Problem{Field: "main_pipe", Code: CodeUnknownPipe, Message: "main pipe " + strconv.Quote(l.Main) + " is not defined"})
		}
	}
	skipped := v.skipped()
	for _, e := range l.Pipes() {
		if e.Address != "" {
			continue // an installed method is validated where it is developed
		}
		if why, skip := skipped[e.Ref]; skip {
			v.report.Add(&Problem{File: e.Bundle.Source, Domain: e.Domain, Pipe: e.Code, Code: CodeMissingMethod, Severity: SeverityWarning,
				Message: "skipped: " + why})
			continue
		}
		c := &pipeCheck{v: v, e: e, p: e.Pipe}
		c.pipe()
	}
}

// bundle checks a bundle's own keys and its concepts.
func (v *validator) bundle(b *Bundle) {
	if _, err := b.TemplatingStyle.Resolved(); err != nil {
		v.bundleProblem(b, "templating_style", CodeInvalidMethod, err.Error())
	}
	if b.MainPipe != "" {
		if _, ok := b.Pipes[b.MainPipe]; !ok {
			v.bundleProblem(b, "main_pipe", CodeUnknownPipe, "main pipe "+strconv.Quote(b.MainPipe)+" is not defined in this bundle")
		}
	}
	for _, code := range sortedKeys(b.Concepts) {
		e, ok := v.lib.Concept(RefOf("", b.Domain, code))
		if !ok || e.Concept != b.Concepts[code] {
			continue // a duplicate, reported by the assembly
		}
		v.concept(e)
	}
}

// skipped finds the pipes that need a method that is not installed,
// directly or through the pipes they run, with the reason.
func (v *validator) skipped() map[string]string {
	l := v.lib
	out := map[string]string{}
	missing := map[string]bool{}
	for _, a := range l.Missing {
		missing[a] = true
	}
	// A pipe needs a missing method when it calls an address reference
	// to one; then every pipe that runs it needs it too (fixpoint).
	changed := true
	for changed {
		changed = false
		for _, e := range l.Pipes() {
			if _, done := out[e.Ref]; done {
				continue
			}
			k, ok := KindOf(e.Pipe.Type)
			if !ok || k.calls == nil {
				continue
			}
			for _, call := range k.calls(e.Pipe) {
				if addr, _, isAddr := splitAddress(call.ref); isAddr && l.method(addr) == nil && missing[addr] {
					out[e.Ref] = "it needs " + strconv.Quote(call.ref) + " (" + call.field + "), and method " + strconv.Quote(addr) + " is not installed"
					changed = true
					break
				}
				if why, ok := out[l.Resolve(e, call.ref)]; ok {
					out[e.Ref] = "it runs " + strconv.Quote(call.ref) + " (" + call.field + "), which is skipped: " + why
					changed = true
					break
				}
			}
		}
	}
	return out
}

// pipeCheck is the validation of one pipe.
type pipeCheck struct {
	v *validator
	e *PipeEntry
	p *Pipe
}

func (c *pipeCheck) add(field, code, msg string) {
	c.v.report.Add(c.problem(field, code, msg))
}

func (c *pipeCheck) problem(field, code, msg string) *Problem {
	return &Problem{File: c.e.Bundle.Source, Domain: c.e.Domain, Pipe: c.e.Code, Field: field, Code: code, Message: msg}
}

// resolveConcept resolves a concept name read in this pipe.
func (c *pipeCheck) resolveConcept(name string) (string, bool) {
	return c.v.lib.resolveConcept(c.e.refScope(), name)
}

// conceptKnown reports whether a concept name resolves.
func (c *pipeCheck) conceptKnown(name string) bool {
	_, ok := c.resolveConcept(name)
	return ok
}

// base is the base native of a concept spec's name.
func (c *pipeCheck) base(spec string) string {
	return c.v.lib.Concepts().Base(ParseConceptSpec(spec).Name)
}

// pipeRef checks a reference to a pipe this pipe runs.
func (c *pipeCheck) pipeRef(field, target string) {
	if target == "" {
		c.add(field, CodeInvalidPipe, "a pipe code is required")
		return
	}
	if _, ok := c.v.lib.Pipe(c.v.lib.Resolve(c.e, target)); !ok {
		c.add(field, CodeUnknownPipe, "pipe "+strconv.Quote(target)+" is not defined")
	}
}

// target returns the pipe a reference names, if defined.
func (c *pipeCheck) target(ref string) (*Pipe, bool) {
	e, ok := c.v.lib.Pipe(c.v.lib.Resolve(c.e, ref))
	if !ok {
		return nil, false
	}
	return e.Pipe, true
}

// pipe runs the checks every pipe shares, then its kind's.
func (c *pipeCheck) pipe() {
	p := c.p
	for _, in := range p.InputNames() {
		if err := CheckConceptSpec(p.Inputs[in]); err != nil {
			c.add("inputs", CodeInvalidPipe, "input "+strconv.Quote(in)+": "+err.Error())
		} else if !c.conceptKnown(ParseConceptSpec(p.Inputs[in]).Name) {
			c.add("inputs", CodeUnknownConcept, "input "+strconv.Quote(in)+" has unknown concept "+strconv.Quote(ParseConceptSpec(p.Inputs[in]).Name))
		}
		if policy.IsPrivateName(in) || strings.Contains(in, ".") {
			c.add("inputs", CodePrivateName, "input name "+strconv.Quote(in)+" must be a plain public name")
		}
	}
	if p.Output != "" {
		if err := CheckConceptSpec(p.Output); err != nil {
			c.add("output", CodeInvalidPipe, err.Error())
		} else if !c.conceptKnown(ParseConceptSpec(p.Output).Name) {
			c.add("output", CodeUnknownConcept, "unknown output concept "+strconv.Quote(p.Output))
		}
	}
	if p.TemplatingStyle != nil {
		if _, err := p.TemplatingStyle.Resolved(); err != nil {
			c.add("templating_style", CodeInvalidPipe, err.Error())
		}
	}
	k, ok := KindOf(p.Type)
	if !ok && p.Type != "" {
		c.add("type", CodeInvalidPipe, "unknown pipe type "+strconv.Quote(p.Type))
		return
	}
	c.foreignFields(k)
	if k == nil {
		return // a PipeSignature: a contract with no body
	}
	if p.Model != "" {
		if !k.Model {
			c.add("model", CodeInvalidPipe, p.Type+" takes no model")
		} else if err := CheckModelRef(p.Model); err != nil {
			c.add("model", CodeInvalidPipe, err.Error())
		} else if c.v.opts.Models != nil {
			if _, err := c.v.opts.Models.Resolve(p.Model); err != nil {
				c.add("model", CodeInvalidPipe, err.Error())
			}
		}
	}
	k.check(c)
}

// foreignFields reports fields of other kinds set on the pipe (k nil: a
// PipeSignature, which has no kind fields).
func (c *pipeCheck) foreignFields(k *Kind) {
	p := c.p
	name := kindName(p)
	if p.Prompt != "" && (k == nil || !k.Prompt) {
		c.add("prompt", CodeInvalidPipe, "prompt does not apply to "+name)
	}
	if len(p.ModelSettings) > 0 && (k == nil || !k.Model) {
		c.add("model", CodeInvalidPipe, "model settings do not apply to "+name)
	}
	if p.Model != "" && k == nil {
		c.add("model", CodeInvalidPipe, name+" takes no model")
	}
	for _, other := range kindTable {
		if other == k {
			continue
		}
		for _, f := range other.fields(p) {
			c.add(f, CodeInvalidPipe, f+" does not apply to "+name)
		}
	}
}

// optionalInputs are the inputs declared with "?".
func (c *pipeCheck) optionalInputs() map[string]bool {
	out := map[string]bool{}
	for _, name := range c.p.InputNames() {
		if ParseConceptSpec(c.p.Inputs[name]).Optional {
			out[name] = true
		}
	}
	return out
}

// sortField orders the problems of one field, added from start on, by
// position in its template.
func (c *pipeCheck) sortField(start int) {
	ps := c.v.report.Problems[start:]
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		return a.Line < b.Line || (a.Line == b.Line && a.Col < b.Col)
	})
}

// engineProblem reports an engine error as a problem of the field.
func (c *pipeCheck) engineProblem(field string, err error, shift int) {
	pr := c.problem(field, CodeTemplate, err.Error())
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
		}
	}
	c.v.report.Add(pr)
}

// checkPath validates a path outside templates; when root is true its
// first segment must be a declared input.
func (c *pipeCheck) checkPath(field, path string, root bool) {
	segs, err := ParsePath(path)
	if err != nil {
		code := CodeInvalidPath
		if errKind(err) == errs.Security {
			code = CodePrivateName
		}
		c.add(field, code, err.(*engine.Error).Message)
		return
	}
	if root {
		if _, ok := c.p.Inputs[segs[0]]; !ok {
			c.add(field, CodeUndeclaredInput, "path root "+strconv.Quote(segs[0])+" is not a declared input")
		}
	}
}

// used collects the variables a pipe's templates and paths use.
type used map[string]bool

func (u used) addFacts(f *TemplateFacts) {
	if f == nil {
		return
	}
	for _, n := range f.Vars {
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
func (c *pipeCheck) requireAllUsed(u used, anyFailed bool) {
	if anyFailed {
		return // a template that does not parse uses unknown names
	}
	for _, in := range c.p.InputNames() {
		if !u[in] && !ignoredVar(in) {
			c.add("inputs", CodeUnusedInput, "declared input "+strconv.Quote(in)+" is not used by any template")
		}
	}
}

// ignoredVar: names Pipelex's required-variable check ignores.
func ignoredVar(name string) bool {
	return policy.IsPrivateName(name) || name == "place_holder"
}

// plainName reports whether s is a plain public name (no underscore
// start, no dot): a memory name.
func plainName(s string) bool {
	_, err := ParsePath(s)
	return err == nil && !strings.Contains(s, ".")
}
