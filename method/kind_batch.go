package method

import (
	"strconv"
	"strings"
)

// PipeBatch: the branch pipe runs once per item of a list, each item in
// its own memory under the item name; the output is the list of the
// branch outputs in item order (absent ones dropped).

// BatchFields are PipeBatch's own fields.
type BatchFields struct {
	BranchPipeCode string `json:"branch_pipe_code,omitempty"`
	InputListName  string `json:"input_list_name,omitempty"`
	InputItemName  string `json:"input_item_name,omitempty"`
	// MaxConcurrency bounds the items running at once (0: the default).
	MaxConcurrency int `json:"max_concurrency,omitempty"`
}

// DefaultMaxConcurrency is PipeBatch's default.
const DefaultMaxConcurrency = 8

// MaxConcurrency is the largest max_concurrency a PipeBatch may ask for:
// jinjabox's own rule (Pipelex has no cap). Under Temporal every running
// item is a pending child workflow, and the server refuses the workflow
// task that would start a workflow's 2,001st (limit
// numPendingChildExecutions), which no retry can fix; 500 is a quarter
// of that, and keeps a batch page of that many items far under the
// history bounds (docs/temporal.md).
const MaxConcurrency = 500

var kindBatch = &Kind{
	Name:       KindBatch,
	Controller: true,
	Keys:       []string{"branch_pipe_code", "input_list_name", "input_item_name", "max_concurrency"},
	fields: func(p *Pipe) []string {
		var s set
		s.add("branch_pipe_code", p.BranchPipeCode != "")
		s.add("input_list_name", p.InputListName != "")
		s.add("input_item_name", p.InputItemName != "")
		s.add("max_concurrency", p.MaxConcurrency != 0)
		return s
	},
	calls: func(p *Pipe) []pipeCall {
		if p.BranchPipeCode == "" {
			return nil
		}
		return []pipeCall{{"branch_pipe_code", p.BranchPipeCode}}
	},
	check: checkBatch,
	reads: func(c *readCtx) {
		p := c.e.Pipe
		c.s.addRoot(p.InputListName)
		if p.BranchPipeCode != "" {
			c.s.merge(c.child(p.BranchPipeCode), given(p.InputItemName))
		}
	},
	run: func(x *invocation) (*Stuff, []Stuff, error) {
		p := x.p
		out, err := x.batch("input_list_name", p.InputListName, p.InputItemName, p.BranchPipeCode, p.MaxConcurrency, "")
		return out, nil, err
	},
}

func checkBatch(c *pipeCheck) {
	p := c.p
	c.pipeRef("branch_pipe_code", p.BranchPipeCode)
	if strings.Contains(p.InputListName, ".") {
		// Pipelex's check_input_list_name: the list is an input, by name.
		c.add("input_list_name", CodeInvalidPipe, "input_list_name names an input, not the path "+strconv.Quote(p.InputListName))
	}
	c.batchNames("input_list_name", p.InputListName, p.InputItemName, true)
	if p.MaxConcurrency < 0 {
		c.add("max_concurrency", CodeInvalidPipe, "max_concurrency must be positive")
	}
	if p.MaxConcurrency > MaxConcurrency {
		c.add("max_concurrency", CodeInvalidPipe, "max_concurrency is "+strconv.Itoa(p.MaxConcurrency)+", above jinjabox's maximum of "+strconv.Itoa(MaxConcurrency))
	}
}

// batchNames checks a batch's list path and item name (a PipeBatch's, or
// a sequence step's batch_over and batch_as).
func (c *pipeCheck) batchNames(field, list, item string, checkRoot bool) {
	if list == "" || item == "" {
		c.add(field, CodeInvalidPipe, "both the list name and the item name are required")
		return
	}
	c.checkPath(field, list, checkRoot)
	if item == list {
		c.add("input_item_name", CodeBatchItemCollision, "the item name equals the list name")
	}
	if _, ok := c.p.Inputs[item]; ok && checkRoot {
		c.add("input_item_name", CodeBatchItemCollision, "the item name "+strconv.Quote(item)+" collides with an input")
	}
	c.storedName("input_item_name", "the item name", item)
}

// batch runs branch over the list at listPath, one child per item, each
// with the item under itemName in its own memory, at most window at once
// (0: DefaultMaxConcurrency). Results keep item order, absent outputs are
// dropped, and the failure returned is the first by index.
func (x *invocation) batch(listField, listPath, itemName, branch string, window int, keyPrefix string) (*Stuff, error) {
	items, err := WalkList(x.mem.PathRoot(), listPath)
	if err != nil {
		return nil, x.fail(listField, err)
	}
	if window <= 0 {
		window = DefaultMaxConcurrency
	}
	ref := x.resolve(branch)
	// Every item sees the memory its branch reads, plus the item (which
	// replaces a stuff of the same name in place, as With does).
	res, err := x.batchChildren(&Batch{Pipe: ref, Shared: x.mem.Only(x.s.r.Library.Reads(ref)),
		ItemName: itemName, ItemConcept: x.itemConcept(listPath), Items: items, KeyPrefix: keyPrefix, Window: window, Caller: x.code()})
	if err != nil {
		return nil, err
	}
	outs := []any{}
	outConcept := ""
	for _, r := range res {
		if r.Output == nil {
			continue
		}
		outConcept = ParseConceptSpec(r.Output.Concept).Name
		outs = append(outs, r.Output.Content)
	}
	if outConcept == "" {
		outConcept = ConceptAnything
		if e, ok := x.s.r.Library.Pipe(ref); ok && e.Pipe.Output != "" {
			outConcept = ParseConceptSpec(e.Pipe.Output).Name
		}
	}
	return x.stuff(outConcept+"[]", outs), nil
}

// itemConcept is the concept of a batch list's items: from the declared
// input, else the stuff in memory, else Anything.
func (x *invocation) itemConcept(listPath string) string {
	root := listPath
	for i := 0; i < len(root); i++ {
		if root[i] == '.' {
			return ConceptAnything // a nested list: its items have no declared concept
		}
	}
	if spec, ok := x.p.Inputs[root]; ok {
		return ParseConceptSpec(spec).Name
	}
	if st, ok := x.mem.Get(root); ok {
		return ParseConceptSpec(st.Concept).Name
	}
	return ConceptAnything
}
