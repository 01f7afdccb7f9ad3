package method

import "strconv"

// Kind is one pipe kind: the fields it owns, how a pipe of the kind is
// validated and how it runs. Kinds is the one table of kinds; every
// decision that depends on a pipe's kind reads it, so a new kind is one
// file and one row.
type Kind struct {
	// Name is the kind's type name ("PipeLLM").
	Name string
	// Controller kinds run other pipes, each through the Children seam:
	// inline in the pure runner, as child workflows under Temporal.
	Controller bool
	// Model reports whether the kind takes a model reference.
	Model bool
	// Prompt reports whether the kind has a prompt field.
	Prompt bool
	// Keys are the kind's own keys in a method file, beyond the keys
	// every pipe has (type, description, inputs, output, ...).
	Keys []string
	// fields lists the kind's own fields a pipe sets, named as in files:
	// on a pipe of another kind each is a problem.
	fields func(p *Pipe) []string
	// calls lists the pipes a pipe of the kind runs, each with the field
	// that names it (for validation and for skipping pipes that need a
	// missing method).
	calls func(p *Pipe) []pipeCall
	// reads adds what a pipe of the kind reads from its memory beyond
	// its declared inputs (closure.go); nil reads nothing more.
	reads func(c *readCtx)
	// check validates a pipe of the kind (the checks every pipe shares
	// have run).
	check func(c *pipeCheck)
	// run runs a pipe of the kind: its output (nil when absent) and the
	// stuffs it adds to its caller's memory (a parallel's
	// add_each_output).
	run func(x *invocation) (*Stuff, []Stuff, error)
}

// pipeCall is a pipe reference in a controller, with its field.
type pipeCall struct {
	field string
	ref   string
}

// stepCalls is the calls of a controller's list of steps (a sequence's
// steps, a parallel's branches): field[i] for every step naming a pipe.
func stepCalls(field string, steps []Step) []pipeCall {
	out := make([]pipeCall, 0, len(steps))
	for i, st := range steps {
		if st.Pipe != "" {
			out = append(out, pipeCall{field + "[" + strconv.Itoa(i) + "]", st.Pipe})
		}
	}
	return out
}

// kindTable lists every kind, in documentation order; each row lives in
// its kind's file. kinds indexes it by name. Both are set in init: a
// controller's run reaches the table through the runner, which a
// variable's initializer may not.
var (
	kindTable []*Kind
	kinds     map[string]*Kind
)

func init() {
	kindTable = []*Kind{
		kindLLM, kindCompose, kindCondition, kindBatch, kindSequence, kindParallel,
		kindJudge, kindImgGen, kindSearch, kindExtract, kindFunc,
	}
	kinds = make(map[string]*Kind, len(kindTable))
	for _, k := range kindTable {
		kinds[k.Name] = k
	}
}

// Kinds returns every pipe kind, in documentation order.
func Kinds() []*Kind { return append([]*Kind(nil), kindTable...) }

// KindOf returns the kind of a type name; a PipeSignature (empty type)
// has none.
func KindOf(typ string) (*Kind, bool) {
	k, ok := kinds[typ]
	return k, ok
}

// PipeCalls lists the pipe references a pipe runs (its steps, branches,
// outcomes or branch pipe), as written.
func PipeCalls(p *Pipe) []string {
	k, ok := KindOf(p.Type)
	if !ok || k.calls == nil {
		return nil
	}
	var out []string
	for _, c := range k.calls(p) {
		out = append(out, c.ref)
	}
	return out
}

// KindSignature is the type of a pipe without a type: a PipeSignature.
const KindSignature = "PipeSignature"

// The kind names.
const (
	KindLLM       = "PipeLLM"
	KindCompose   = "PipeCompose"
	KindCondition = "PipeCondition"
	KindBatch     = "PipeBatch"
	KindSequence  = "PipeSequence"
	KindParallel  = "PipeParallel"
	KindJudge     = "PipeJudge"
	KindImgGen    = "PipeImgGen"
	KindSearch    = "PipeSearch"
	KindExtract   = "PipeExtract"
	KindFunc      = "PipeFunc"
)

// set collects the names of the fields that are set.
type set []string

func (s *set) add(name string, isSet bool) {
	if isSet {
		*s = append(*s, name)
	}
}
