package method

import "errors"

// The children seam. A controller pipe (PipeCondition, PipeSequence,
// PipeBatch, PipeParallel) decides which pipes run, over what memory, and
// what their outputs become; how a child runs is the seam's business. The
// pure runner runs children inline, in index order; the Temporal layer
// runs each as a child workflow. The controller logic exists once, in the
// kind files.

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
// results in index order. When children fail, the error is the first
// failure by index, and a batch item's failure names its item (RunError
// Item, or the Temporal layer's failure details). Implementations must be
// deterministic for a given library, memory and provider.
type Children interface {
	Run(n int, child func(i int) Child, window int) ([]ChildResult, error)
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
