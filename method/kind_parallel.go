package method

import (
	"slices"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/engine/value"
)

// PipeParallel: every branch runs on the pipe's memory, all at once
// (branches see the same memory and not each other's results, which is
// what Pipelex's deep copies give). The output combines the branch
// outputs into one object keyed by result name, of the output concept
// (Composite, or a structured concept whose fields are the result
// names); add_each_output also stores each branch's output under its
// result name in the caller's memory. A branch with batch_over runs its
// pipe once per item. The first failure by branch order wins.

// ParallelFields are PipeParallel's own fields.
type ParallelFields struct {
	Branches      []Step `json:"branches,omitempty"`
	AddEachOutput bool   `json:"add_each_output,omitempty"`
}

var kindParallel = &Kind{
	Name:       KindParallel,
	Controller: true,
	Keys:       []string{"branches", "add_each_output"},
	fields: func(p *Pipe) []string {
		var s set
		s.add("branches", len(p.Branches) > 0)
		s.add("add_each_output", p.AddEachOutput)
		return s
	},
	calls: func(p *Pipe) []pipeCall { return stepCalls("branches", p.Branches) },
	check: checkParallel,
	reads: func(c *readCtx) {
		for _, b := range c.e.Pipe.Branches {
			c.s.addRoot(b.BatchOver)
			c.s.merge(c.child(b.Pipe), given(b.BatchAs))
		}
	},
	run: runParallel,
}

func checkParallel(c *pipeCheck) {
	p := c.p
	if len(p.Branches) == 0 {
		c.add("branches", CodeInvalidPipe, "a parallel needs at least one branch")
	}
	// Pipelex's PipeParallelBlueprint.validate_output: a combination of
	// named results, never a list, never a native other than Composite.
	if p.Output != "" {
		spec := ParseConceptSpec(p.Output)
		name, _ := c.resolveConcept(spec.Name)
		switch {
		case spec.List:
			c.add("output", CodeInvalidPipe, "PipeParallel output must not be a list: "+strconv.Quote(p.Output)+" (a parallel combines named results)")
		case name != ConceptComposite && (IsNativeConcept(name) || len(c.v.lib.Concepts().Fields(name)) == 0):
			c.add("output", CodeInvalidPipe, "PipeParallel output must be Composite or a structured concept whose fields are the branch results, not "+strconv.Quote(p.Output))
		}
	}
	seen := map[string]bool{}
	for i, b := range p.Branches {
		field := "branches[" + strconv.Itoa(i) + "]"
		c.pipeRef(field, b.Pipe)
		// Every branch names its result, and no two share one: the
		// combination is keyed by them (PipeParallel.validate_parallel_sub_pipes).
		if b.Result == "" {
			c.add(field, CodeInvalidPipe, "a parallel branch needs a result name")
		} else {
			c.storedName(field, "result", b.Result)
		}
		if (b.BatchOver == "") != (b.BatchAs == "") {
			c.add(field, CodeInvalidPipe, "batch_over and batch_as go together")
		} else if b.BatchOver != "" {
			if strings.Contains(b.BatchOver, ".") {
				c.add(field, CodeInvalidPipe, "a parallel branch batches over a plain name, not the path "+strconv.Quote(b.BatchOver))
			}
			c.batchNames(field, b.BatchOver, b.BatchAs, false)
		}
		res := b.Result
		if res != "" && seen[res] {
			c.add(field, CodeInvalidPipe, "two branches store their result under "+strconv.Quote(res))
		}
		seen[res] = true
	}
	c.parallelOutput()
}

// parallelOutput checks that a structured output can hold the branch
// results, as Pipelex's PipeParallel.validate_output_with_library does
// (pipe_parallel.py), stopping at the first rule broken as it raises:
// every required field is a branch's result; every result is a field;
// a branch whose result fills a concept-typed field outputs that concept
// or one refining it (_validate_branch_output_types: the branch's
// structure class is the field's or a subclass; fields of primitive
// types and list-producing branches are not checked); and a required
// field is not fed by a branch that may be absent, one whose pipe's
// output is optional ("?"). Composite takes any results.
func (c *pipeCheck) parallelOutput() {
	p := c.p
	spec := ParseConceptSpec(p.Output)
	name, ok := c.resolveConcept(spec.Name)
	if p.Output == "" || !ok || spec.List || name == ConceptComposite {
		return
	}
	cs := c.v.lib.Concepts()
	fields := cs.Fields(name)
	if len(fields) == 0 {
		return // not structured: the output rule above reports it
	}
	declared := map[string]Field{}
	for _, f := range fields {
		declared[f.Name] = f
	}
	results := map[string]bool{}
	var extra, missing []string
	for _, b := range p.Branches {
		if b.Result == "" {
			continue
		}
		results[b.Result] = true
		if _, ok := declared[b.Result]; !ok && !slices.Contains(extra, b.Result) {
			extra = append(extra, b.Result)
		}
	}
	for _, f := range fields {
		if f.Required && !results[f.Name] {
			missing = append(missing, f.Name)
		}
	}
	slices.Sort(extra)
	slices.Sort(missing)
	out := strconv.Quote(p.Output)
	if len(missing) > 0 {
		c.add("output", CodeInvalidPipe, "PipeParallel output "+out+" requires field(s) "+quoteList(missing)+
			" that no branch produces: each required field of the output must be a branch result")
		return
	}
	if len(extra) > 0 {
		c.add("output", CodeInvalidPipe, "PipeParallel output "+out+" has no field for branch result(s) "+quoteList(extra)+
			": every branch result must be a field of the output, or use Composite for an untyped combination")
		return
	}
	for i, b := range p.Branches {
		f, ok := declared[b.Result]
		bp, found := c.target(b.Pipe)
		if !ok || !found || bp.Output == "" || b.BatchOver != "" {
			continue
		}
		got := ParseConceptSpec(bp.Output)
		want := f.ConceptRef
		if f.Type != "concept" {
			want = f.Type
		}
		if got.List || want == "" || IsFieldType(want) {
			continue
		}
		gn, gok := c.resolveConcept(got.Name)
		wn, wok := c.resolveConcept(want)
		if gok && wok && !cs.fitsField(gn, wn) {
			c.add("branches["+strconv.Itoa(i)+"]", CodeInvalidPipe, "branch "+strconv.Quote(b.Pipe)+" outputs "+strconv.Quote(got.Name)+
				" for result "+strconv.Quote(b.Result)+", but field "+strconv.Quote(b.Result)+" of output "+out+" expects "+strconv.Quote(want)+
				": the branch's output must be that concept or refine it")
			return
		}
	}
	for i, b := range p.Branches {
		f, ok := declared[b.Result]
		bp, found := c.target(b.Pipe)
		if !ok || !f.Required || !found || b.BatchOver != "" {
			continue
		}
		if got := ParseConceptSpec(bp.Output); got.Optional && !got.List {
			c.add("branches["+strconv.Itoa(i)+"]", CodeInvalidPipe, "branch "+strconv.Quote(b.Pipe)+" may resolve absent (its output "+
				strconv.Quote(bp.Output)+" is optional), but field "+strconv.Quote(b.Result)+" of output "+out+
				" is required: make the field optional (required = false) or the branch's output required")
			return
		}
	}
}

// quoteList quotes names for a message: ["a", "b"].
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func runParallel(x *invocation) (*Stuff, []Stuff, error) {
	p := x.p
	outs := make([]*Stuff, len(p.Branches))
	// The plain branches run as children at once; a batch branch runs its
	// items as children of its own.
	var plain []int
	for i, b := range p.Branches {
		if b.BatchOver == "" {
			plain = append(plain, i)
		}
	}
	refs := make([]string, len(p.Branches))
	for i, b := range p.Branches {
		refs[i] = x.resolve(b.Pipe)
	}
	res, err := x.children(len(plain), func(j int) Child {
		i := plain[j]
		_, code := SplitPipeRef(refs[i])
		return Child{Pipe: refs[i], Memory: x.mem, Key: "b" + strconv.Itoa(i) + "-" + code, Item: -1}
	}, len(plain))
	if err != nil {
		return nil, nil, err
	}
	for j, i := range plain {
		outs[i] = res[j].Output
	}
	for i, b := range p.Branches {
		if b.BatchOver == "" {
			continue
		}
		out, err := x.batch("branches["+strconv.Itoa(i)+"].batch_over", b.BatchOver, b.BatchAs, b.Pipe, 0, "b"+strconv.Itoa(i)+"-")
		if err != nil {
			return nil, nil, err
		}
		outs[i] = out
	}
	var added []Stuff
	combined := &value.OrderedMap{}
	for i, b := range p.Branches {
		out := outs[i]
		if out == nil {
			continue // an absent branch output (continue) adds nothing
		}
		named := *out
		named.Name, named.Code = b.resultName(), ""
		if p.AddEachOutput {
			added = append(added, named)
		}
		combined.Keys = append(combined.Keys, named.Name)
		combined.Values = append(combined.Values, named.Content)
	}
	return x.stuff(p.outputOr(ConceptComposite), combined), added, nil
}
