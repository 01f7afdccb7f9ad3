package method

import (
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/policy"
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
	calls: func(p *Pipe) []pipeCall {
		out := make([]pipeCall, 0, len(p.Steps))
		for i, st := range p.Steps {
			if st.Pipe != "" {
				out = append(out, pipeCall{"steps[" + strconv.Itoa(i) + "]", st.Pipe})
			}
		}
		return out
	},
	check: checkSequence,
	run:   runSequence,
}

func checkSequence(c *pipeCheck) {
	p := c.p
	if len(p.Steps) == 0 {
		c.add("steps", CodeInvalidPipe, "a sequence needs at least one step")
	}
	for i, s := range p.Steps {
		field := "steps[" + strconv.Itoa(i) + "]"
		c.pipeRef(field, s.Pipe)
		if s.Result != "" && (policy.IsPrivateName(s.Result) || strings.Contains(s.Result, ".")) {
			c.add(field, CodePrivateName, "result must be a plain public name")
		}
		if (s.BatchOver == "") != (s.BatchAs == "") {
			c.add(field, CodeInvalidPipe, "batch_over and batch_as go together")
		} else if s.BatchOver != "" {
			c.batchNames(field, s.BatchOver, s.BatchAs, false)
		}
	}
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
			res, err := x.children(1, func(int) Child {
				_, code := SplitPipeRef(ref)
				return Child{Pipe: ref, Memory: mem, Key: step + "-" + code, Item: -1}
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
