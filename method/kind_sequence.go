package method

import (
	"strconv"
	"strings"
)

// PipeSequence: steps run in order, each a child, each output stored in
// the sequence's memory under its result name; a step with batch_over
// runs its pipe once per item. The output is the last step's.

// SequenceFields are PipeSequence's own fields.
type SequenceFields struct {
	Steps []Step `json:"steps,omitempty"`
}

var kindSequence = &Kind{
	Name:       KindSequence,
	Controller: true,
	Keys:       []string{"steps"},
	fields: func(p *Pipe) []string {
		var s set
		s.add("steps", len(p.Steps) > 0)
		return s
	},
	calls: func(p *Pipe) []pipeCall { return stepCalls("steps", p.Steps) },
	check: checkSequence,
	reads: readsSequence,
	run:   runSequence,
}

// readsSequence: every step's reads. A name an earlier step produces is
// still read from the caller's memory, since an absent step output
// stores nothing and a later step then reads the caller's stuff of
// that name.
func readsSequence(c *readCtx) {
	for _, st := range c.e.Pipe.Steps {
		if st.BatchOver != "" {
			c.s.addRoot(st.BatchOver)
			c.s.merge(c.child(st.Pipe), given(st.BatchAs))
			continue
		}
		c.s.merge(c.child(st.Pipe), nil)
	}
}

func checkSequence(c *pipeCheck) {
	p := c.p
	if len(p.Steps) == 0 {
		c.add("steps", CodeInvalidPipe, "a sequence needs at least one step")
	}
	for i, s := range p.Steps {
		field := "steps[" + strconv.Itoa(i) + "]"
		c.pipeRef(field, s.Pipe)
		if s.Result != "" {
			c.storedName(field, "result", s.Result)
		}
		if s.NbOutput != 0 && s.MultipleOutput {
			c.add(field, CodeInvalidPipe, "nb_output and multiple_output are exclusive")
		}
		if s.NbOutput < 0 {
			c.add(field, CodeInvalidPipe, "nb_output must be at least 1")
		}
		if (s.BatchOver == "") != (s.BatchAs == "") {
			c.add(field, CodeInvalidPipe, "batch_over and batch_as go together")
		} else if s.BatchOver != "" {
			if s.BatchOver == s.BatchAs {
				c.add(field, CodeBatchItemCollision, "batch_as equals batch_over")
			}
			c.batchNames(field, s.BatchOver, s.BatchAs, false)
		}
	}
	if len(p.Steps) > 0 {
		c.sequenceOutput()
	}
	c.sequenceInputs()
}

// sequenceOutput checks the sequence's output against its last step's
// (Pipelex's PipeSequence.validate_output_with_library): a compatible
// concept, a compatible multiplicity (the step's nb_output or
// multiple_output wins), and an optional output when the last step's may
// be absent. An unresolved address reference is not checked.
func (c *pipeCheck) sequenceOutput() {
	p := c.p
	last := p.Steps[len(p.Steps)-1]
	lp, ok := c.target(last.Pipe)
	if !ok || p.Output == "" || lp.Output == "" {
		return
	}
	want, got := ParseConceptSpec(p.Output), ParseConceptSpec(lp.Output)
	if o := last.outputOverride(lp.Output); o != "" {
		got = ParseConceptSpec(o)
	}
	if last.BatchOver != "" {
		got.List, got.Count, got.Optional = true, 0, false
	}
	if !c.conceptKnown(got.Name) || !c.conceptKnown(want.Name) {
		return // an unknown concept, reported where it is written
	}
	if !c.v.lib.Concepts().compatible(got.Name, want.Name) {
		c.add("output", CodeInvalidPipe, "the last step "+strconv.Quote(last.Pipe)+" outputs "+strconv.Quote(got.Name)+", which is not compatible with the sequence's output "+strconv.Quote(want.Name))
	}
	if !multiplicityCompatible(got, want) {
		c.add("output", CodeInvalidPipe, "output multiplicity mismatch: the sequence declares "+strconv.Quote(p.Output)+", its last step "+strconv.Quote(last.Pipe)+" yields "+strconv.Quote(got.String()))
	}
	if got.Optional && !want.Optional {
		c.add("output", CodeInvalidPipe, "the last step "+strconv.Quote(last.Pipe)+" may output nothing, so the sequence's output must be optional (\"?\")")
	}
}

// multiplicityCompatible: Pipelex's is_multiplicity_compatible (a fixed
// count of one is the single form; a variable list takes any list; a
// fixed count takes exactly that count).
func multiplicityCompatible(source, target ConceptSpec) bool {
	norm := func(s ConceptSpec) (bool, int) {
		if s.List && s.Count == 1 {
			return false, 0
		}
		return s.List, s.Count
	}
	sl, sn := norm(source)
	tl, tn := norm(target)
	switch {
	case !tl:
		return !sl
	case tn == 0:
		return sl
	}
	return sl && sn == tn
}

// sequenceInputs checks that the sequence declares every input its steps
// need and no step produces before it (Pipelex's PipeSequence
// needed_inputs, checked against the declared inputs).
func (c *pipeCheck) sequenceInputs() {
	for _, n := range c.v.neededInputs(c.e, map[string]bool{}) {
		if _, ok := c.p.Inputs[n.name]; !ok {
			c.add("inputs", CodeUndeclaredInput, "step "+strconv.Quote(n.step)+" needs input "+strconv.Quote(n.name)+", which the sequence does not declare")
		}
	}
}

// need is an input a pipe needs, with the step that needs it.
type need struct{ name, step string }

// neededInputs are the inputs a pipe needs from its caller: a sequence's
// are its steps' needs not produced by an earlier step (a batch step
// needs its list, not its item); any other pipe's are its declared
// inputs. An unresolved address reference needs nothing.
func (v *validator) neededInputs(e *PipeEntry, visited map[string]bool) []need {
	p := e.Pipe
	if p.Type != KindSequence {
		out := make([]need, 0, len(p.Inputs))
		for _, n := range p.InputNames() {
			out = append(out, need{n, e.Code})
		}
		return out
	}
	if visited[e.Ref] {
		return nil
	}
	visited[e.Ref] = true
	defer delete(visited, e.Ref)
	var out []need
	seen := map[string]bool{}
	generated := map[string]bool{}
	addNeed := func(n need) {
		if !generated[n.name] && !seen[n.name] {
			seen[n.name] = true
			out = append(out, n)
		}
	}
	for _, st := range p.Steps {
		se, ok := v.lib.Pipe(v.lib.Resolve(e, st.Pipe))
		if !ok {
			continue // reported as an unknown pipe, or an unresolved address
		}
		if se.Pipe.Type == KindParallel && se.Pipe.AddEachOutput {
			for _, b := range se.Pipe.Branches {
				generated[b.resultName()] = true
			}
		}
		for _, n := range v.neededInputs(se, visited) {
			if st.BatchOver != "" && n.name == st.BatchAs {
				continue
			}
			addNeed(need{n.name, se.Code})
		}
		if st.BatchOver != "" {
			root, _, _ := strings.Cut(st.BatchOver, ".")
			addNeed(need{root, se.Code})
		}
		generated[st.resultName()] = true
	}
	return out
}

func runSequence(x *invocation) (*Stuff, []Stuff, error) {
	mem := x.mem
	var last *Stuff
	for i, st := range x.p.Steps {
		step := "s" + strconv.Itoa(i)
		var out *Stuff
		if st.BatchOver != "" {
			// The batch reads the sequence's memory so far.
			y := *x
			y.mem = mem
			var err error
			if out, err = y.batch("steps["+strconv.Itoa(i)+"].batch_over", st.BatchOver, st.BatchAs, st.Pipe, 0, step+"-"); err != nil {
				return nil, nil, err
			}
		} else {
			ref := x.resolve(st.Pipe)
			override := ""
			if e, ok := x.s.r.Library.Pipe(ref); ok {
				override = st.outputOverride(e.Pipe.Output)
			}
			res, err := x.children(1, func(int) Child {
				_, code := SplitPipeRef(ref)
				return Child{Pipe: ref, Memory: mem, Key: step + "-" + code, Item: -1, Output: override}
			}, 1)
			if err != nil {
				return nil, nil, err
			}
			out = res[0].Output
			for _, a := range res[0].Added { // a parallel step's add_each_output
				mem = mem.With(a)
			}
		}
		if out == nil {
			last = nil
			continue
		}
		named := *out
		named.Name, named.Code = st.resultName(), ""
		mem = mem.With(named)
		stored, _ := mem.Get(named.Name)
		last = &stored
	}
	return x.renamed(last), nil, nil
}
