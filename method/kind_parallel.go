package method

import (
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
