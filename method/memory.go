package method

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync/atomic"

	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/method/templating"
)

// Stuff is one named item of working memory: a concept and its content
// (plain JSON-shaped data: *value.OrderedMap for objects, []any for the
// items of a list concept). Stuffs are immutable once in memory.
type Stuff struct {
	Name string `json:"name"`
	// Concept is a concept spec: "Text", "Ticket", or "Ticket[]" for a list.
	Concept string `json:"concept"`
	// Code identifies the stuff (_stuff_code); it defaults to the name.
	Code    string `json:"code,omitempty"`
	Content any    `json:"content"`
}

// UnmarshalJSON decodes a stuff keeping its content's key order and
// number types (int64 stays int64), which decoding into an interface
// would lose: a stuff survives a JSON round trip (Temporal payloads).
func (s *Stuff) UnmarshalJSON(b []byte) error {
	var w struct {
		Name    string          `json:"name"`
		Concept string          `json:"concept"`
		Code    string          `json:"code"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	var c any
	if len(w.Content) > 0 {
		var err error
		if c, err = value.DecodeJSON(w.Content); err != nil {
			return fmt.Errorf("stuff %q: %w", w.Name, err)
		}
	}
	*s = Stuff{Name: w.Name, Concept: w.Concept, Code: w.Code, Content: c}
	return nil
}

// Memory is working memory: stuffs by name, in insertion order. It is a
// persistent value: With returns a new Memory and never changes the
// receiver, so a batch branch's "own copy" costs no deep copy and no
// branch can see another's writes (Nunjitsu's prepared context with
// withPath is the model).
type Memory struct {
	names  []string
	stuffs map[string]Stuff
	// from is the memory this one is from.With(stuffs[set]), until this
	// one's template context is built: a batch item's context is then
	// its shared memory's plus the item (templateContext). hops counts
	// the memories from reaches that have no context yet, this one
	// included; With links at most maxDerive, so a long chain of With
	// keeps no more memories alive than that.
	from atomic.Pointer[Memory]
	set  string
	hops int
	// tc caches the template context (memory_context.go): built at most
	// once per memory and concepts, and shared by every render of it.
	tc atomic.Pointer[templateContext]
}

// NewMemory builds a memory from stuffs (later names replace earlier).
func NewMemory(stuffs ...Stuff) *Memory {
	m := &Memory{stuffs: map[string]Stuff{}}
	for _, s := range stuffs {
		m.put(s)
	}
	return m
}

// With returns memory plus s (replacing a stuff of the same name in place).
func (m *Memory) With(s Stuff) *Memory {
	n := &Memory{names: slices.Clone(m.names), stuffs: make(map[string]Stuff, len(m.stuffs)+1), set: s.Name}
	// the names slice keeps the order; the map is only looked up
	//workflowcheck:ignore a copy into a map is the same map in any order
	maps.Copy(n.stuffs, m.stuffs)
	n.put(s)
	hops := 1
	if m.tc.Load() == nil {
		hops = m.hops + 1
	}
	if hops <= maxDerive {
		n.from.Store(m)
		n.hops = hops
	}
	return n
}

// put adds s to a memory being built (replacing a stuff of the same name
// in place).
func (m *Memory) put(s Stuff) {
	if _, ok := m.stuffs[s.Name]; !ok {
		m.names = append(m.names, s.Name)
	}
	if s.Code == "" {
		s.Code = s.Name
	}
	m.stuffs[s.Name] = s
}

// Get returns the named stuff.
func (m *Memory) Get(name string) (Stuff, bool) {
	s, ok := m.stuffs[name]
	return s, ok
}

// Names returns the stuff names in insertion order.
func (m *Memory) Names() []string { return slices.Clone(m.names) }

// Len is the number of stuffs.
func (m *Memory) Len() int { return len(m.names) }

// MarshalJSON writes the stuffs in insertion order.
func (m *Memory) MarshalJSON() ([]byte, error) {
	out := make([]Stuff, 0, len(m.names))
	for _, n := range m.names {
		out = append(out, m.stuffs[n])
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads stuffs in insertion order.
func (m *Memory) UnmarshalJSON(b []byte) error {
	var stuffs []Stuff
	if err := json.Unmarshal(b, &stuffs); err != nil {
		return err
	}
	n := NewMemory(stuffs...)
	m.names, m.stuffs, m.set, m.hops = n.names, n.stuffs, "", 0
	m.from.Store(nil)
	m.tc.Store(nil)
	return nil
}

// PathRoot is what paths outside templates walk: each stuff's content
// under its name.
func (m *Memory) PathRoot() map[string]any {
	root := make(map[string]any, len(m.names))
	for _, n := range m.names {
		root[n] = m.stuffs[n].Content
	}
	return root
}

// TemplateData is the render context: every stuff as the input
// artefact surface (a list stuff as a list of artefacts, one per item),
// where the structured concepts' fields of type Image are image values
// (so with_images, tag and format see an image, by its type) instead of
// plain {"url": ...} dicts. The runner renders from it prepared once per
// memory (templateContext).
func (m *Memory) TemplateData(concepts Concepts) (map[string]any, error) {
	data := make(map[string]any, len(m.names))
	for _, n := range m.names {
		a, err := m.templateEntry(n, concepts)
		if err != nil {
			return nil, err
		}
		data[n] = a
	}
	return data, nil
}

// templateEntry is the named stuff's entry of TemplateData: its
// artefact, or for a list stuff the list of its items' artefacts.
func (m *Memory) templateEntry(n string, concepts Concepts) (any, error) {
	withImages := func(concept string, content any) any {
		c, ok := concepts[concept]
		if !ok {
			return content
		}
		return imageFields(c, content)
	}
	s := m.stuffs[n]
	spec := ParseConceptSpec(s.Concept)
	code, class := BareConcept(spec.Name), concepts.class(spec.Name)
	if items, ok := s.Content.([]any); ok && spec.List {
		list := make([]any, len(items))
		for i, it := range items {
			a, err := templating.NewStuffArtefact(n, code, class, fmt.Sprintf("%s[%d]", s.Code, i), withImages(spec.Name, it))
			if err != nil {
				return nil, fmt.Errorf("stuff %q item %d: %w", n, i, err)
			}
			list[i] = a
		}
		return list, nil
	}
	a, err := templating.NewStuffArtefact(n, code, class, s.Code, withImages(spec.Name, s.Content))
	if err != nil {
		return nil, fmt.Errorf("stuff %q: %w", n, err)
	}
	return a, nil
}

// NormalizeContent gives content its canonical shape for a concept: a
// bare string becomes {"text": s} for Text and Html and {"url": s} for
// Image; list concepts normalise each item.
func NormalizeContent(concept string, content any) any {
	spec := ParseConceptSpec(concept)
	if items, ok := content.([]any); ok && spec.List {
		out := make([]any, len(items))
		for i, it := range items {
			out[i] = NormalizeContent(spec.Name, it)
		}
		return out
	}
	if s, ok := content.(string); ok {
		switch spec.Name {
		case ConceptText, ConceptHTML:
			return &value.OrderedMap{Keys: []string{"text"}, Values: []any{s}}
		case ConceptImage:
			return &value.OrderedMap{Keys: []string{"url"}, Values: []any{s}}
		}
	}
	return content
}

// imageFields returns content with each Image-typed field holding
// {"url": ...} replaced by a *templating.ImageContent (a shallow copy:
// memory content is never modified).
func imageFields(c *Concept, content any) any {
	om, ok := content.(*value.OrderedMap)
	if !ok {
		return content
	}
	var out *value.OrderedMap
	for _, f := range c.Fields {
		if f.Type != ConceptImage {
			continue
		}
		for i, k := range om.Keys {
			if k != f.Name {
				continue
			}
			u, err := WalkPath(om.Values[i], "url")
			url, isStr := u.(string)
			if err != nil || !isStr {
				continue
			}
			img := &templating.ImageContent{URL: url}
			if cap, err := WalkPath(om.Values[i], "caption"); err == nil {
				img.Caption, _ = cap.(string)
			}
			if out == nil {
				out = &value.OrderedMap{Keys: om.Keys, Values: slices.Clone(om.Values)}
			}
			out.Values[i] = img
		}
	}
	if out == nil {
		return content
	}
	return out
}
