package method

import (
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/policy"
)

// PipeParallel: every branch runs on the pipe's memory, all at once
// (branches see the same memory and not each other's results, which is
// what Pipelex's deep copies give); add_each_output stores each branch's
// output under its result name in the caller's memory, combined_output
// (a concept) bundles them into one object keyed by result name. Without
// combined_output, the output is the last branch's. The first failure by
// branch order wins.

// ParallelFields are PipeParallel's own fields.
type ParallelFields struct {
	Branches       []Step `json:"branches,omitempty"`
	AddEachOutput  bool   `json:"add_each_output,omitempty"`
	CombinedOutput string `json:"combined_output,omitempty"`
}

var kindParallel = &Kind{
	Name:       KindParallel,
	Controller: true,
	Keys:       []string{"branches", "add_each_output", "combined_output"},
	fields: func(p *Pipe) []string {
		var s set
		s.add("branches", len(p.Branches) > 0)
		s.add("add_each_output", p.AddEachOutput)
		s.add("combined_output", p.CombinedOutput != "")
		return s
	},
	calls: func(p *Pipe) []pipeCall {
		out := make([]pipeCall, 0, len(p.Branches))
		for i, b := range p.Branches {
			if b.Pipe != "" {
				out = append(out, pipeCall{"branches[" + strconv.Itoa(i) + "]", b.Pipe})
			}
		}
		return out
	},
	check: checkParallel,
	run:   runParallel,
}

func checkParallel(c *pipeCheck) {
	p := c.p
	if len(p.Branches) == 0 {
		c.add("branches", CodeInvalidPipe, "a parallel needs at least one branch")
	}
	if !p.AddEachOutput && p.CombinedOutput == "" {
		c.add("add_each_output", CodeInvalidPipe, "add_each_output or combined_output (or both) is required")
	}
	if p.CombinedOutput != "" {
		if err := CheckConceptSpec(p.CombinedOutput); err != nil {
			c.add("combined_output", CodeInvalidPipe, err.Error())
		} else if !c.conceptKnown(ParseConceptSpec(p.CombinedOutput).Name) {
			c.add("combined_output", CodeUnknownConcept, "unknown concept "+strconv.Quote(p.CombinedOutput))
		}
	}
	seen := map[string]bool{}
	for i, b := range p.Branches {
		field := "branches[" + strconv.Itoa(i) + "]"
		c.pipeRef(field, b.Pipe)
		if b.BatchOver != "" || b.BatchAs != "" {
			c.add(field, CodeInvalidPipe, "a parallel branch cannot batch")
		}
		res := b.resultName()
		if b.Result != "" && (policy.IsPrivateName(b.Result) || strings.Contains(b.Result, ".")) {
			c.add(field, CodePrivateName, "result must be a plain public name")
		}
		if seen[res] {
			c.add(field, CodeInvalidPipe, "two branches store their result under "+strconv.Quote(res))
		}
		seen[res] = true
	}
}

func runParallel(x *invocation) (*Stuff, []Stuff, error) {
	p := x.p
	refs := make([]string, len(p.Branches))
	for i, b := range p.Branches {
		refs[i] = x.resolve(b.Pipe)
	}
	res, err := x.children(len(p.Branches), func(i int) Child {
		_, code := SplitPipeRef(refs[i])
		return Child{Pipe: refs[i], Memory: x.mem, Key: "b" + strconv.Itoa(i) + "-" + code, Item: -1}
	}, len(p.Branches))
	if err != nil {
		return nil, nil, err
	}
	var added []Stuff
	combined := &value.OrderedMap{}
	var last *Stuff
	for i, b := range p.Branches {
		out := res[i].Output
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
		last = &named
	}
	if p.CombinedOutput != "" {
		return x.stuff(p.CombinedOutput, combined), added, nil
	}
	if last == nil {
		return nil, added, nil
	}
	out := *last
	out.Name, out.Code = x.e.Code, ""
	return &out, added, nil
}
