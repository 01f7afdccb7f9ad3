package method

import (
	"maps"
	"slices"
	"strings"
)

// What a child needs from its caller. A controller's child is a pipe
// that runs on a memory; it needs the pipes it can reach (Subset) and
// the stuffs it can read (Reads), nothing else. The Temporal layer sends
// a child only these, so a child workflow's input grows with what it
// uses, not with the whole library and memory; the pure runner gives
// children the same memory, so both runners run every pipe on the same
// data.

// Reads are the names of the stuffs a pipe can read from the memory it
// is run on: its declared inputs (validation holds every template
// variable and path root to them) and, for a controller, what the pipes
// it runs read, less the names it gives them itself (a batch's item, a
// sequence's earlier results, a condition's alias). All is true when the
// pipe can read the whole memory: a PipeFunc (its function receives the
// working memory, as in Pipelex), a controller that runs one, or a cycle
// of pipes. Names are sorted.
type Reads struct {
	Names []string
	All   bool
}

// Has reports whether the name is read.
func (r Reads) Has(name string) bool {
	if r.All {
		return true
	}
	_, ok := slices.BinarySearch(r.Names, name)
	return ok
}

// readSet accumulates what a pipe reads.
type readSet struct {
	names map[string]bool
	all   bool
}

func (s *readSet) add(name string) {
	if name != "" {
		s.names[name] = true
	}
}

// addRoot adds the root of a dotted path.
func (s *readSet) addRoot(path string) {
	root, _, _ := strings.Cut(path, ".")
	s.add(root)
}

// merge adds what a child reads, less the names its caller gives it.
func (s *readSet) merge(r Reads, given map[string]bool) {
	if r.All {
		s.all = true
		return
	}
	for _, n := range r.Names {
		if !given[n] {
			s.add(n)
		}
	}
}

// reader computes reads, with the pipes being computed on a stack: a
// cycle reads everything (it is refused by validation anyway).
type reader struct {
	l     *Library
	stack map[string]bool
}

// Reads is what the pipe with library reference ref reads from its
// memory. An unknown pipe reads nothing (it fails when run).
func (l *Library) Reads(ref string) Reads {
	rd := &reader{l: l, stack: map[string]bool{}}
	return rd.reads(ref)
}

func (rd *reader) reads(ref string) Reads {
	e, ok := rd.l.Pipe(ref)
	if !ok {
		return Reads{}
	}
	if rd.stack[ref] {
		return Reads{All: true}
	}
	rd.stack[ref] = true
	defer delete(rd.stack, ref)
	s := &readSet{names: map[string]bool{}}
	for _, n := range e.Pipe.InputNames() {
		s.add(n)
	}
	if k, ok := KindOf(e.Pipe.Type); ok && k.reads != nil {
		k.reads(&readCtx{rd: rd, e: e, s: s})
	}
	if s.all {
		return Reads{All: true}
	}
	return Reads{Names: sortedKeys(s.names)}
}

// readCtx is what a kind's reads function works with: the pipe, what it
// reads so far, and its children's reads.
type readCtx struct {
	rd *reader
	e  *PipeEntry
	s  *readSet
}

// child is what the pipe named ref in this pipe's body reads (nothing
// when it names no pipe).
func (c *readCtx) child(ref string) Reads {
	return c.rd.reads(c.rd.l.Resolve(c.e, ref))
}

// given is a set of names a controller gives its child.
func given(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		if n != "" {
			m[n] = true
		}
	}
	return m
}

// Subset is the part of the library the pipes refs need to run: those
// pipes, every pipe they can run (transitively), every concept those
// pipes name, the concepts (extra) of the memory they run on, and every
// concept those refine or use in their fields. Each bundle keeps its
// domain, system prompt and templating style (what runs read of it) and
// only the pipes and concepts in the subset; installed methods keep their
// address, name and exports. A pipe runs in the subset as in the library:
// its references resolve to the same pipes and concepts.
func (l *Library) Subset(refs []string, extra []string) *Library {
	pipes := map[string]bool{}
	concepts := map[string]bool{}
	var addConcept func(spec string)
	addConcept = func(spec string) {
		if spec == "" {
			return
		}
		name := canonicalNative(ParseConceptSpec(spec).Name)
		if concepts[name] {
			return
		}
		e, ok := l.conceptAt[name]
		if !ok {
			return // a native, or unknown: nothing to carry
		}
		concepts[name] = true
		c := e.Concept
		addConcept(c.Refines)
		for _, f := range c.Fields {
			for _, t := range []string{f.Type, f.ItemType, f.ConceptRef} {
				if t != "" && !IsFieldType(t) {
					addConcept(t)
				}
			}
		}
	}
	queue := append([]string(nil), refs...)
	for len(queue) > 0 {
		ref := queue[0]
		queue = queue[1:]
		e, ok := l.pipes[ref]
		if !ok || pipes[ref] {
			continue
		}
		pipes[ref] = true
		for _, n := range e.Pipe.InputNames() {
			addConcept(e.Pipe.Inputs[n])
		}
		addConcept(e.Pipe.Output)
		for _, call := range PipeCalls(e.Pipe) {
			queue = append(queue, l.Resolve(e, call))
		}
	}
	for _, c := range extra {
		addConcept(c)
	}
	// Rebuild the bundles that hold something of the subset, in the
	// library's order.
	type key struct {
		address string
		b       *Bundle
	}
	keep := map[key]*Bundle{}
	part := func(address string, b *Bundle) *Bundle {
		k := key{address, b}
		if nb, ok := keep[k]; ok {
			return nb
		}
		nb := &Bundle{Source: b.Source, Domain: b.Domain, SystemPrompt: b.SystemPrompt, TemplatingStyle: b.TemplatingStyle}
		keep[k] = nb
		return nb
	}
	for _, ref := range sortedKeys(pipes) {
		e := l.pipes[ref]
		nb := part(e.Address, e.Bundle)
		if nb.Pipes == nil {
			nb.Pipes = map[string]*Pipe{}
		}
		nb.Pipes[e.Code] = e.Pipe.clone()
	}
	for _, ref := range sortedKeys(concepts) {
		e := l.conceptAt[ref]
		nb := part(e.Address, e.Bundle)
		if nb.Concepts == nil {
			nb.Concepts = map[string]*Concept{}
		}
		c := *e.Concept
		c.Fields = slices.Clone(c.Fields)
		nb.Concepts[e.Code] = &c
	}
	out := &Library{}
	for _, b := range l.Bundles {
		if nb, ok := keep[key{"", b}]; ok {
			out.Bundles = append(out.Bundles, nb)
		}
	}
	for _, m := range l.Methods {
		var bs []*Bundle
		for _, b := range m.Bundles {
			if nb, ok := keep[key{m.Address, b}]; ok {
				bs = append(bs, nb)
			}
		}
		if bs != nil {
			out.Methods = append(out.Methods, &InstalledMethod{Address: m.Address, Name: m.Name, Bundles: bs, Exports: m.Exports})
		}
	}
	out.build()
	return out
}

// clone copies a pipe far enough that assembling a library from the copy
// (which writes canonical specs into Inputs and Output) leaves the
// original alone.
func (p *Pipe) clone() *Pipe {
	q := *p
	q.Inputs = maps.Clone(p.Inputs)
	return &q
}

// StuffConcepts are the concepts of a memory's stuffs, sorted.
func (m *Memory) StuffConcepts() []string {
	seen := map[string]bool{}
	for _, n := range m.names {
		seen[m.stuffs[n].Concept] = true
	}
	return sortedKeys(seen)
}

// Only is the memory restricted to the names r reads, in insertion order
// (the memory itself when r reads everything).
func (m *Memory) Only(r Reads) *Memory {
	if r.All {
		return m
	}
	out := &Memory{stuffs: make(map[string]Stuff, len(r.Names))}
	for _, n := range m.names {
		if r.Has(n) {
			out.names = append(out.names, n)
			out.stuffs[n] = m.stuffs[n]
		}
	}
	return out
}
