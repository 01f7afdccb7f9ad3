package method

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/method/templating"
	"github.com/jinjabox/jinjabox/policy"
)

// ValidateOptions are what validation checks against beyond the library.
type ValidateOptions struct {
	// Models, when set, must resolve every model reference.
	Models *ModelConfig
	// Funcs, when set, must hold every PipeFunc's function_name (Pipelex
	// refuses an unregistered name when it loads the pipe). Nil leaves
	// the question to the run: a Go registry lives in the process that
	// runs the method, which need not be the one that validates it.
	Funcs *FuncRegistry
}

// Validate checks every pipe and concept of the library's own bundles
// (installed methods are checked only for what the library uses of
// them): every template and path is parsed and analysed before anything
// runs, and every problem is reported at once, errors and warnings, in
// bundle, then pipe-reference order. Report.Err is nil when the library
// is valid.
func (l *Library) Validate(opts ValidateOptions) *Report {
	v := &validator{lib: l, opts: opts, report: &Report{}, templates: templating.NewSet()}
	v.report.Add(l.problems...)
	v.library()
	return v.report
}

type validator struct {
	lib    *Library
	opts   ValidateOptions
	report *Report
	// templates holds the category environments templates are checked in.
	templates *templating.Set
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
	v.conceptCycles()
	v.domainMetadata()
	fromBundle := false
	for _, b := range l.Bundles {
		fromBundle = fromBundle || l.MainOf(b) == l.Main
	}
	if l.Main != "" && !fromBundle { // a bundle's main_pipe is checked with its bundle
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
	if b.Domain != "" && reservedDomain(b.Domain) {
		v.bundleProblem(b, "domain", CodeInvalidMethod, "domain "+strconv.Quote(b.Domain)+" starts with a reserved segment ("+strings.Join(reservedDomains, ", ")+")")
	}
	switch mp := b.MainPipe; {
	case mp == "":
	case strings.Contains(mp, "."):
		v.bundleProblem(b, "main_pipe", CodeInvalidMethod, "main_pipe "+strconv.Quote(mp)+" carries a domain: name a pipe of this bundle by its code")
	case !isSnakeCase(mp):
		v.bundleProblem(b, "main_pipe", CodeInvalidMethod, "main_pipe "+strconv.Quote(mp)+" is not snake_case")
	default:
		if _, ok := b.Pipes[mp]; !ok {
			v.bundleProblem(b, "main_pipe", CodeUnknownPipe, "main pipe "+strconv.Quote(mp)+" is not defined in this bundle")
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

// domainMetadata warns when the bundles of one domain give it different
// descriptions or system prompts: the first loaded is kept (Pipelex's
// domain_metadata_merge).
func (v *validator) domainMetadata() {
	first := map[string]*Bundle{}
	for _, b := range v.lib.Bundles {
		f, ok := first[b.Domain]
		if !ok {
			first[b.Domain] = b
			continue
		}
		for _, d := range []struct{ field, a, b string }{{"description", f.Description, b.Description}, {"system_prompt", f.SystemPrompt, b.SystemPrompt}} {
			if d.a != "" && d.b != "" && d.a != d.b {
				v.report.Add(&Problem{File: b.Source, Domain: b.Domain, Field: d.field, Code: CodeDuplicate, Severity: SeverityWarning,
					Message: "domain " + strconv.Quote(b.Domain) + " has another " + d.field + " in " + sourceName(f) + ", which is kept"})
			}
		}
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
	e, ok := c.v.lib.Pipe(c.v.lib.Resolve(c.e, target))
	if !ok {
		c.add(field, CodeUnknownPipe, "pipe "+strconv.Quote(target)+" is not defined")
		return
	}
	// Another package's pipe must be one it exports (Pipelex's [exports]
	// visibility; a package without exports shows every pipe).
	if e.Address != c.e.Address && e.Address != "" {
		if m := c.v.lib.method(e.Address); m != nil && m.Exports != nil && !slices.Contains(m.Exports, RefOf("", e.Domain, e.Code)) {
			c.add(field, CodeUnknownPipe, "pipe "+strconv.Quote(target)+" is not exported by "+strconv.Quote(e.Address))
		}
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
	if !isSnakeCase(c.e.Code) || strings.Contains(c.e.Code, ".") {
		c.add("", CodeInvalidPipe, "pipe code "+strconv.Quote(c.e.Code)+" is not snake_case")
	}
	for _, in := range p.InputNames() {
		spec := ParseConceptSpec(p.Inputs[in])
		switch err := CheckConceptSpec(p.Inputs[in]); {
		case err != nil:
			c.add("inputs", CodeInvalidPipe, "input "+strconv.Quote(in)+": "+err.Error())
		case spec.List && (spec.Optional || spec.Required):
			// PipeBlueprint.generic_validate_inputs (OPTIONAL_MARKER_INVALID):
			// a plural slot is never absent, so neither marker says anything.
			c.add("inputs", CodeInvalidPipe, "input "+strconv.Quote(in)+": a list is never absent (an empty list), so "+strconv.Quote(p.Inputs[in])+" takes no presence marker")
		case !c.conceptKnown(spec.Name):
			c.add("inputs", CodeUnknownConcept, "input "+strconv.Quote(in)+" has unknown concept "+strconv.Quote(spec.Name))
		}
		switch {
		case policy.IsPrivateName(in):
			c.add("inputs", CodePrivateName, "input name "+strconv.Quote(in)+" must be a plain public name")
		case !isInputName(in):
			c.add("inputs", CodeInvalidPipe, "input name "+strconv.Quote(in)+" is not a plain snake_case name ([a-z][a-z0-9_]*)")
		}
	}
	if p.Output != "" {
		spec := ParseConceptSpec(p.Output)
		switch err := CheckConceptSpec(p.Output); {
		case err != nil:
			c.add("output", CodeInvalidPipe, err.Error())
		case spec.Required:
			c.add("output", CodeInvalidPipe, "the presence marker \"!\" applies to inputs only, not to the output "+strconv.Quote(p.Output))
		case spec.List && spec.Optional:
			c.add("output", CodeInvalidPipe, "a list output is never absent (an empty list), so "+strconv.Quote(p.Output)+" takes no \"?\"")
		case !c.conceptKnown(spec.Name):
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
		case engine.KindSyntax:
			pr.Code = CodeSyntax
		case engine.KindSecurity:
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
		if errKind(err) == engine.KindSecurity {
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

func (u used) addFacts(f *engine.Facts) {
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

// isInputName is Pipelex's input-name rule (validate_input_names): a
// plain [a-z][a-z0-9_]* name, never dotted.
func isInputName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// storedName checks a name a step stores a value under (a result, a
// batch_as, an input_item_name). Pipelex's check_stored_name holds it to
// the input-name form, since a later pipe reads it through an input; an
// underscore-led or dotted one is also jinjabox's private-name refusal.
func (c *pipeCheck) storedName(field, what, name string) {
	switch {
	case !plainName(name):
		c.add(field, CodePrivateName, what+" must be a plain public name")
	case !isInputName(name):
		c.add(field, CodeInvalidPipe, what+" "+strconv.Quote(name)+" is not a plain snake_case name ([a-z][a-z0-9_]*)")
	}
}

// plainName reports whether s is a plain public name (no underscore
// start, no dot): a memory name.
func plainName(s string) bool {
	_, err := ParsePath(s)
	return err == nil && !strings.Contains(s, ".")
}
