package method

import (
	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/method/templating"
)

// The template context of a memory. Every render of a pipe reads its
// memory's TemplateData; the runner prepares it once per memory (a
// prepared engine context, templating.Prepare) and renders every
// template of the memory from it. A memory made by With from one whose
// context is prepared gets its own as that context plus the one stuff
// (engine.Prepared.WithPath), which shares the rest: a batch of N items,
// each its shared memory With the item, copies the shared data in once,
// not N times. The context is the data TemplateData builds, so a render
// from it gives the output, error and units of a render copying that
// data in.

// templateContext is a memory's render context under one set of
// concepts. It is immutable once built, and shared by the renders of
// every pipe that reads the memory, from any goroutine: the engine
// context is sealed.
type templateContext struct {
	// concepts is the set the context was built under (a library's own,
	// or a render request's): the cache's key.
	concepts *Concepts
	// err is TemplateData's error (an artefact refused its content),
	// which a render reports before it parses, as it always has.
	err error
	// ctx is the prepared context; nil when the copy-in refused the data
	// with refused, which a render reports after its parse, as a render
	// that copies the data in does.
	ctx     *engine.Prepared
	refused error
	// values is how many values a render binds (dataCount of the data):
	// the workflow meter charges for each (RenderJob.Values).
	values int
}

// maxDerive bounds the memories a context is derived through, each
// made from the one before by With (Memory.hops): past that, a fresh
// build (one artefact per stuff) costs less than deriving through each
// (a copy of the top-level names at every step).
const maxDerive = 16

// templateContext returns the memory's context under concepts, building
// it on first use: derived from the memory it was made from, whose own
// is built (or derived) first, or built from TemplateData.
func (m *Memory) templateContext(concepts *Concepts) *templateContext {
	if tc := m.tc.Load(); tc != nil && tc.concepts == concepts {
		return tc
	}
	var tc *templateContext
	if from := m.from.Load(); from != nil {
		tc = m.derive(from, from.templateContext(concepts))
	}
	if tc == nil {
		tc = m.build(concepts)
	}
	// Two goroutines may both build it: they build the same.
	m.tc.Store(tc)
	m.from.Store(nil) // the memory it came from is no longer needed
	return tc
}

// build prepares the memory's context from TemplateData.
func (m *Memory) build(concepts *Concepts) *templateContext {
	data, err := m.TemplateData(*concepts)
	if err != nil {
		return &templateContext{concepts: concepts, err: err}
	}
	tc := &templateContext{concepts: concepts, values: dataCount(data)}
	tc.ctx, tc.refused = templating.PrepareData(data)
	return tc
}

// derive is the context of m, from.With(m's stuff set), from base, the
// context of from: base plus that stuff's entry, added last (the order
// of the top-level names is not visible to a template). It returns nil
// when the build is to decide instead: base was refused, the stuff
// replaces one (the values of the entry it replaces would have to be
// taken out), or the engine refuses the name as a path (an underscore:
// a copy-in binds it).
func (m *Memory) derive(from *Memory, base *templateContext) *templateContext {
	if base.ctx == nil {
		return nil
	}
	if _, replaced := from.stuffs[m.set]; replaced {
		return nil
	}
	// every other entry built in base: this one's error is TemplateData's first
	entry, err := m.templateEntry(m.set, *base.concepts)
	if err != nil {
		return &templateContext{concepts: base.concepts, err: err}
	}
	ctx, err := base.ctx.WithPath([]string{m.set}, entry)
	if err != nil {
		return nil
	}
	return &templateContext{concepts: base.concepts, ctx: ctx, values: base.values + dataCount(entry)}
}

// renderContext is the context of a render of the memory under
// concepts plus extra context (inputs win over extra keys; nil: none).
// The memory's part is its templateContext; each extra key is added to
// it in key order.
func (m *Memory) renderContext(concepts *Concepts, extra map[string]any) *templateContext {
	tc := m.templateContext(concepts)
	if tc.err != nil || len(extra) == 0 {
		return tc
	}
	out := &templateContext{concepts: concepts, ctx: tc.ctx, values: tc.values}
	keys := sortedKeys(extra)
	for _, k := range keys {
		if _, taken := m.stuffs[k]; taken {
			continue
		}
		out.values += dataCount(extra[k])
		if out.ctx != nil {
			var err error
			if out.ctx, err = out.ctx.WithPath([]string{k}, extra[k]); err != nil {
				out.ctx = nil
			}
		}
	}
	if out.ctx == nil {
		// Refused somewhere: the data copied in whole, as a render that
		// copies it in does, decides (its refusal names the value the
		// copy-in stops at; a name only a path refuses is bound).
		data, err := m.TemplateData(*concepts)
		if err != nil {
			return &templateContext{concepts: concepts, err: err}
		}
		for _, k := range keys {
			if _, taken := data[k]; !taken {
				data[k] = extra[k]
			}
		}
		out.ctx, out.refused = templating.PrepareData(data)
	}
	return out
}

// dataCount is how many values binding v copies into a render: one per
// scalar, host object (an artefact is bound by reference), list item and
// map entry. A render copying its data in did that work before the
// engine metered anything; renders from a prepared context still report
// the count (RenderJob.Values), which the workflow meter charges and
// recorded histories replay on.
func dataCount(v any) int {
	switch t := v.(type) {
	case []any:
		n := 1
		for _, e := range t {
			n += dataCount(e)
		}
		return n
	case map[string]any:
		n := 1
		for _, k := range sortedKeys(t) {
			n += dataCount(t[k])
		}
		return n
	case *value.OrderedMap:
		n := 1
		for _, e := range t.Values {
			n += dataCount(e)
		}
		return n
	}
	return 1
}
