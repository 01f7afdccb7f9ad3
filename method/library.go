package method

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Library is a set of bundles assembled as Pipelex assembles a library:
// bundles of one domain merge, concepts are keyed "domain.Code" and pipes
// "domain.code", and methods installed from elsewhere are reached by
// address ("github.com/org/repo/pkg->domain.code").
//
// A reference in a pipe's body resolves in its own domain when bare
// ("summarize", "Ticket") and in the named domain when qualified
// ("legal.summarize", "legal.Clause"); native concepts resolve anywhere.
// NewLibrary rewrites every concept reference it can resolve to its
// canonical form (a native's code, or "domain.Code"); pipe references
// stay as written and resolve when used (Resolve).
type Library struct {
	// Bundles are the library's own bundles, in load order.
	Bundles []*Bundle `json:"bundles"`
	// Methods are installed methods whose pipes the bundles reference by
	// address.
	Methods []*InstalledMethod `json:"methods,omitempty"`
	// Main is the library reference of the pipe a run starts from (a
	// bundle's main_pipe, or the caller's choice); empty when there is
	// none.
	Main string `json:"main,omitempty"`
	// Missing are the addresses of referenced methods that are not
	// installed: validation warns about each and skips the pipes that
	// need one.
	Missing []string `json:"missing,omitempty"`

	concepts  Concepts
	conceptAt map[string]*ConceptEntry
	pipes     map[string]*PipeEntry
	refs      []string // pipe references, own first, sorted
	crefs     []string // concept references, sorted
	problems  []*Problem
}

// InstalledMethod is a method installed beside the library (Pipelex's
// .mthds/methods folders): its address and name from METHODS.toml, and
// its bundles.
type InstalledMethod struct {
	Address string `json:"address"`
	// Name is the method's name, or the alias a dependency is declared
	// under; references may use it in place of the address.
	Name    string    `json:"name,omitempty"`
	Bundles []*Bundle `json:"bundles"`
	// Exports are the pipes other packages may run ("domain.code"); nil
	// exports every pipe.
	Exports []string `json:"exports,omitempty"`
}

// PipeEntry is a pipe of the library with where it lives.
type PipeEntry struct {
	// Ref is the pipe's library reference: "domain.code" ("code" in the
	// unnamed domain), prefixed "address->" for an installed method's.
	Ref     string
	Address string
	Domain  string
	Code    string
	Pipe    *Pipe
	Bundle  *Bundle
}

// ConceptEntry is a concept of the library with where it lives.
type ConceptEntry struct {
	Ref     string
	Address string
	Domain  string
	Code    string
	Concept *Concept
	Bundle  *Bundle
}

// refScope is where a reference is read: an installed method's address (or
// the library's own, "") and a domain.
type refScope struct{ address, domain string }

func (e *PipeEntry) refScope() refScope { return refScope{e.Address, e.Domain} }

// RefOf is the library reference of a code in a domain of an address.
func RefOf(address, domain, code string) string {
	r := code
	if domain != "" {
		r = domain + "." + code
	}
	if address != "" {
		r = address + "->" + r
	}
	return r
}

// SplitPipeRef splits "domain.code" (the domain may be dotted) into its
// domain and code; an address prefix stays on the domain.
func SplitPipeRef(ref string) (domain, code string) { return SplitConceptRef(ref) }

// splitAddress splits "address->rest" into its parts.
func splitAddress(ref string) (address, rest string, ok bool) {
	i := strings.LastIndex(ref, "->")
	if i < 0 {
		return "", ref, false
	}
	return ref[:i], ref[i+2:], true
}

// NewLibrary assembles bundles and installed methods. Problems of the
// assembly (a concept or pipe defined twice) are reported by Validate.
func NewLibrary(bundles []*Bundle, methods ...*InstalledMethod) *Library {
	l := &Library{Bundles: bundles, Methods: methods}
	l.build()
	return l
}

// UnmarshalJSON decodes a library and assembles it.
func (l *Library) UnmarshalJSON(b []byte) error {
	type plain Library
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*l = Library(p)
	l.build()
	return nil
}

// build indexes the bundles and canonicalises concept references.
func (l *Library) build() {
	l.concepts = Concepts{}
	l.conceptAt = map[string]*ConceptEntry{}
	l.pipes = map[string]*PipeEntry{}
	l.refs, l.crefs = nil, nil
	l.problems = nil
	var headers [][2]*PipeEntry // (signature, concrete pipe) pairs
	add := func(address string, b *Bundle) {
		for _, code := range sortedKeys(b.Concepts) {
			c := b.Concepts[code]
			if c == nil {
				continue
			}
			ref := RefOf(address, b.Domain, code)
			if prev, dup := l.conceptAt[ref]; dup {
				l.problems = append(l.problems, &Problem{File: b.Source, Domain: b.Domain, Field: "concept " + code, Code: CodeDuplicate,
					Message: "concept " + strconv.Quote(ref) + " is also defined in " + sourceName(prev.Bundle)})
				continue
			}
			l.conceptAt[ref] = &ConceptEntry{Ref: ref, Address: address, Domain: b.Domain, Code: code, Concept: c, Bundle: b}
			l.concepts[ref] = c
		}
		for _, code := range sortedKeys(b.Pipes) {
			p := b.Pipes[code]
			if p == nil {
				continue
			}
			ref := RefOf(address, b.Domain, code)
			e := &PipeEntry{Ref: ref, Address: address, Domain: b.Domain, Code: code, Pipe: p, Bundle: b}
			if prev, dup := l.pipes[ref]; dup {
				// A PipeSignature and a concrete pipe of one code reconcile:
				// the concrete one replaces the signature when their
				// contracts match (checked below, on canonical concepts).
				switch {
				case prev.Pipe.Type == "" && p.Type != "":
					headers = append(headers, [2]*PipeEntry{prev, e})
					l.pipes[ref] = e
				case prev.Pipe.Type != "" && p.Type == "":
					headers = append(headers, [2]*PipeEntry{e, prev})
				default:
					l.problems = append(l.problems, &Problem{File: b.Source, Domain: b.Domain, Pipe: code, Code: CodeDuplicate,
						Message: "pipe " + strconv.Quote(ref) + " is also defined in " + sourceName(prev.Bundle)})
				}
				continue
			}
			l.pipes[ref] = e
		}
	}
	for _, b := range l.Bundles {
		add("", b)
	}
	for _, m := range l.Methods {
		for _, b := range m.Bundles {
			add(m.Address, b)
		}
	}
	l.refs = sortedKeys(l.pipes)
	l.crefs = sortedKeys(l.conceptAt)
	slices.SortFunc(l.refs, func(a, b string) int {
		ea, eb := l.pipes[a], l.pipes[b]
		if (ea.Address == "") != (eb.Address == "") {
			if ea.Address == "" {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	// Canonical concept references, so that memory, the runner and the
	// providers see one name per concept. A bundle whose domain is not a
	// domain code keeps its references as written: they name nothing.
	for _, r := range l.crefs {
		e := l.conceptAt[r]
		if !validDomain(e.Domain) {
			continue
		}
		sc := refScope{e.Address, e.Domain}
		c := e.Concept
		c.Refines = l.canonSpec(sc, c.Refines)
		for i := range c.Fields {
			f := &c.Fields[i]
			if !IsFieldType(f.Type) {
				f.Type = l.canonSpec(sc, f.Type)
			}
			if f.ItemType != "" && !IsFieldType(f.ItemType) {
				f.ItemType = l.canonSpec(sc, f.ItemType)
			}
			f.ConceptRef = l.canonSpec(sc, f.ConceptRef)
		}
	}
	for _, r := range l.refs {
		e := l.pipes[r]
		if !validDomain(e.Domain) {
			continue
		}
		sc := e.refScope()
		p := e.Pipe
		for _, name := range p.InputNames() {
			p.Inputs[name] = l.canonSpec(sc, p.Inputs[name])
		}
		p.Output = l.canonSpec(sc, p.Output)
	}
	for _, h := range headers {
		sig, def := h[0], h[1]
		sc := sig.refScope()
		same := l.canonSpec(sc, sig.Pipe.Output) == def.Pipe.Output && len(sig.Pipe.Inputs) == len(def.Pipe.Inputs)
		for _, name := range sig.Pipe.InputNames() {
			same = same && l.canonSpec(sc, sig.Pipe.Inputs[name]) == def.Pipe.Inputs[name]
		}
		if !same {
			l.problems = append(l.problems, &Problem{File: def.Bundle.Source, Domain: def.Domain, Pipe: def.Code, Code: CodeInvalidPipe,
				Message: "the pipe's inputs and output differ from its signature in " + sourceName(sig.Bundle)})
		}
	}
}

// validDomain reports whether a bundle's domain can qualify references:
// a domain code, or the unnamed domain of a JSON bundle.
func validDomain(d string) bool { return d == "" || isSnakeCase(d) }

func sourceName(b *Bundle) string {
	if b.Source != "" {
		return b.Source
	}
	return "another bundle"
}

// canonSpec rewrites a concept spec's name to its canonical reference
// when it resolves; otherwise it leaves the spec as written.
func (l *Library) canonSpec(sc refScope, spec string) string {
	if spec == "" {
		return ""
	}
	s := ParseConceptSpec(spec)
	if c, ok := l.resolveConcept(sc, s.Name); ok && c != s.Name {
		s.Name = c
		return s.String()
	}
	return spec
}

// resolveConcept resolves a concept name read in a refScope: "native.X" and
// a bare native code are the native; a bare code is the refScope domain's
// concept; "domain.Code" is that domain's (of the refScope's address); an
// address reference is the installed method's. A qualified native code in
// another domain ("images.ImgGenPrompt", where older libraries kept some
// natives) is the native.
func (l *Library) resolveConcept(sc refScope, name string) (string, bool) {
	if name == "" {
		return "", false
	}
	if c := canonicalNative(name); c != name || IsNativeConcept(name) {
		return c, IsNativeConcept(c)
	}
	if _, ok := l.conceptAt[name]; ok && l.conceptAt[name].Address == sc.address {
		return name, true // already canonical in this refScope
	}
	address, rest, isAddr := splitAddress(name)
	if isAddr {
		m := l.method(address)
		if m == nil {
			return "", false
		}
		if d, code := SplitPipeRef(rest); d != "" {
			ref := RefOf(m.Address, d, code)
			_, ok := l.conceptAt[ref]
			return ref, ok
		}
		return l.uniqueIn(m.Address, rest, true)
	}
	d, code := SplitPipeRef(name)
	if d == "" {
		d = sc.domain
	}
	ref := RefOf(sc.address, d, code)
	if _, ok := l.conceptAt[ref]; ok {
		return ref, true
	}
	if IsNativeConcept(code) {
		return code, true
	}
	return "", false
}

// uniqueIn finds the one concept (or pipe) with a bare code among an
// installed method's.
func (l *Library) uniqueIn(address, code string, concept bool) (string, bool) {
	found := ""
	refs := l.refs
	if concept {
		refs = l.crefs
	}
	for _, ref := range refs {
		a, c := "", ""
		if concept {
			a, c = l.conceptAt[ref].Address, l.conceptAt[ref].Code
		} else {
			a, c = l.pipes[ref].Address, l.pipes[ref].Code
		}
		if a == address && c == code {
			if found != "" {
				return "", false
			}
			found = ref
		}
	}
	return found, found != ""
}

// method finds an installed method by address or name.
func (l *Library) method(address string) *InstalledMethod {
	// Addresses match case-insensitively (GitHub's semantics, as
	// Pipelex's find_method_by_full_address).
	for _, m := range l.Methods {
		if strings.EqualFold(m.Address, address) {
			return m
		}
	}
	for _, m := range l.Methods {
		if m.Name != "" && m.Name == address {
			return m
		}
	}
	return nil
}

// Concepts is the library's concept index by canonical reference.
func (l *Library) Concepts() Concepts { return l.concepts }

// conceptsKey identifies the library's concepts to a memory's cached
// template context (templateContext): the same library, the same
// concepts.
func (l *Library) conceptsKey() *Concepts { return &l.concepts }

// Concept returns a concept by canonical reference.
func (l *Library) Concept(ref string) (*ConceptEntry, bool) {
	e, ok := l.conceptAt[ref]
	return e, ok
}

// Pipe returns a pipe by library reference.
func (l *Library) Pipe(ref string) (*PipeEntry, bool) {
	e, ok := l.pipes[ref]
	return e, ok
}

// Pipes returns every pipe: the library's own, then installed methods',
// each group sorted by reference.
func (l *Library) Pipes() []*PipeEntry {
	out := make([]*PipeEntry, len(l.refs))
	for i, r := range l.refs {
		out[i] = l.pipes[r]
	}
	return out
}

// Resolve turns a pipe reference read in e's body into a library
// reference: a bare code names e's domain, "domain.code" that domain (in
// e's installed method when e is one's), and "address->..." an installed
// method's pipe (a bare code there must be unique in the method). The
// result may name no pipe; Pipe tells.
func (l *Library) Resolve(e *PipeEntry, ref string) string {
	if address, rest, ok := splitAddress(ref); ok {
		m := l.method(address)
		if m == nil {
			return ref
		}
		if d, code := SplitPipeRef(rest); d != "" {
			return RefOf(m.Address, d, code)
		}
		if r, ok := l.uniqueIn(m.Address, rest, false); ok {
			return r
		}
		return RefOf(m.Address, "", rest)
	}
	d, code := SplitPipeRef(ref)
	if d == "" {
		d = e.Domain
	}
	return RefOf(e.Address, d, code)
}

// EntryPipe finds the pipe a caller names (main_pipe, --pipe): a library
// reference, or a bare code matched across the library's own domains
// (Pipelex's entry lookup); an ambiguous code is an error naming the
// candidates.
func (l *Library) EntryPipe(name string) (*PipeEntry, error) {
	if e, ok := l.pipes[name]; ok {
		return e, nil
	}
	if strings.Contains(name, ".") || strings.Contains(name, "->") {
		return nil, fmt.Errorf("pipe %q is not defined", name)
	}
	var found []string
	for _, r := range l.refs {
		if e := l.pipes[r]; e.Address == "" && e.Code == name {
			found = append(found, r)
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("pipe %q is not defined", name)
	case 1:
		return l.pipes[found[0]], nil
	}
	return nil, fmt.Errorf("pipe code %q is ambiguous: it is declared by %s; name one as domain.pipe_code", name, strings.Join(found, ", "))
}

// MainOf is the library reference of a bundle's main_pipe ("" when it
// has none).
func (l *Library) MainOf(b *Bundle) string {
	if b.MainPipe == "" {
		return ""
	}
	d, code := SplitPipeRef(b.MainPipe)
	if d == "" {
		d = b.Domain
	}
	return RefOf("", d, code)
}

// ResolveInputs gives run inputs their canonical concepts, read in the
// entry pipe's domain, and normalises their content through the
// concepts' refinements.
func (l *Library) ResolveInputs(e *PipeEntry, mem *Memory) *Memory {
	out := NewMemory()
	for _, n := range mem.Names() {
		s, _ := mem.Get(n)
		if c := l.canonSpec(e.refScope(), s.Concept); c != s.Concept {
			s.Concept = c
		}
		s.Content = l.concepts.Normalize(s.Concept, s.Content)
		out = out.With(s)
	}
	return out
}
