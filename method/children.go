package method

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/jinjabox/jinjabox/engine/value"
)

// The children seam. A controller pipe (PipeCondition, PipeSequence,
// PipeBatch, PipeParallel) decides which pipes run, over what memory, and
// what their outputs become; how a child runs is the seam's business. The
// pure runner runs children inline, in index order; the Temporal layer
// runs each as a child workflow. The controller logic exists once, in the
// kind files.
//
// A child's memory is what its pipe can read (Library.Reads) of its
// caller's: the runner filters it before the seam sees it, in both
// runners, so a child workflow's input carries only those stuffs and both
// runners run every pipe on the same data.

// Child is one pipe a controller runs: a condition's chosen pipe, a
// sequence step, a batch item, a parallel branch.
type Child struct {
	// Pipe is the child's library reference (Library.Pipe finds it).
	Pipe string
	// Memory is the child's working memory.
	Memory *Memory
	// Key is unique among the children of one invocation of the parent
	// and the same on every run ("s0-answer", "3", "b1-summary"): the
	// Temporal layer derives child workflow IDs from it.
	Key string
	// Item is the batch item index, -1 for other children.
	Item int
	// Output, when set, overrides the child pipe's output spec (a
	// sequence step's nb_output or multiple_output).
	Output string
	// Depth is the child's nesting depth (the runner sets it).
	Depth int
}

// ChildResult is what a child gives back: its output (nil when absent)
// and the stuffs it adds to its caller's memory (a parallel's
// add_each_output). A child returns nothing else: memory flows down,
// only outputs flow up.
type ChildResult struct {
	Output *Stuff
	Added  []Stuff
}

// Children runs the children of a controller. Run runs n children, the
// i-th built by child(i) when it is about to start, with at most window
// running at once (window <= 1: one after the other), and returns their
// results in index order. Batch runs the items of a batch (a PipeBatch,
// a batch_over step or branch): it is data, not a closure, so that an
// implementation can hand parts of it to other processes (the Temporal
// layer's pages). When children fail, the error is the first failure by
// index, and a batch item's failure names its item (RunError Item, or
// the Temporal layer's failure details). Implementations must be
// deterministic for a given library, memory and provider.
type Children interface {
	Run(n int, child func(i int) Child, window int) ([]ChildResult, error)
	Batch(b *Batch) ([]ChildResult, error)
}

// Batch is the children of a batch: the pipe runs once per item, on the
// shared memory plus the item under ItemName. It may be a part (a page)
// of a larger batch: Offset is the index of Items[0] in the whole list,
// and item indexes and keys are the whole list's.
type Batch struct {
	// Pipe is the branch pipe's library reference.
	Pipe string `json:"pipe"`
	// Shared is what every item's memory holds besides the item: the
	// caller's memory restricted to what the branch reads.
	Shared      *Memory `json:"shared"`
	ItemName    string  `json:"item_name"`
	ItemConcept string  `json:"item_concept"`
	Items       []any   `json:"items"`
	Offset      int     `json:"offset,omitempty"`
	// KeyPrefix prefixes every item's key ("s1-" for a sequence step).
	KeyPrefix string `json:"key_prefix,omitempty"`
	// Window bounds the items running at once.
	Window int `json:"window"`
	// Depth is the items' nesting depth.
	Depth int `json:"depth"`
	// Caller is the library reference of the pipe whose batch this is (a
	// PipeBatch, or the sequence or parallel of a batch_over), named by
	// failures of the batch as a whole.
	Caller string `json:"caller"`
}

// Child is the child of item i of b.Items.
func (b *Batch) Child(i int) Child {
	n := b.Offset + i
	return Child{
		Pipe:   b.Pipe,
		Memory: b.Shared.With(Stuff{Name: b.ItemName, Concept: b.ItemConcept, Content: b.Items[i]}),
		Key:    b.KeyPrefix + strconv.Itoa(n),
		Item:   n,
		Depth:  b.Depth,
	}
}

// Part is the page [from, to) of b's items, as a batch of its own.
func (b *Batch) Part(from, to int) *Batch {
	p := *b
	p.Items = b.Items[from:to]
	p.Offset = b.Offset + from
	return &p
}

// UnmarshalJSON decodes a batch keeping its items' key order and number
// types, as Stuff does.
func (b *Batch) UnmarshalJSON(data []byte) error {
	type plain Batch
	var w struct {
		plain
		Items json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*b = Batch(w.plain)
	b.Items = nil
	if len(w.Items) == 0 || string(w.Items) == "null" {
		return nil
	}
	v, err := value.DecodeJSON(w.Items)
	if err != nil {
		return fmt.Errorf("batch items: %w", err)
	}
	items, ok := v.([]any)
	if !ok {
		return errors.New("batch items: not a list")
	}
	b.Items = items
	return nil
}

// inline is the pure runner's Children: each child runs in this run, in
// index order, and the first failure stops the rest.
func (s *run) inline(n int, child func(i int) Child) ([]ChildResult, error) {
	out := make([]ChildResult, n)
	for i := range n {
		c := child(i)
		o, added, err := s.pipeAs(c.Pipe, c.Memory, c.Depth, c.Output)
		if err != nil {
			var re *RunError
			if c.Item >= 0 && errors.As(err, &re) && re.Item < 0 {
				re.Item = c.Item
			}
			return nil, err
		}
		out[i] = ChildResult{Output: o, Added: added}
	}
	return out, nil
}
