package workflows

import (
	"encoding/json"
	"fmt"

	"github.com/jinjabox/jinjabox/engine/value"
)

// Temporal payloads are JSON. Memory content is JSON-shaped but ordered
// (*value.OrderedMap) and typed (int64 vs float64), which encoding/json
// would lose when decoding into `any`; the wire types carry content as raw
// JSON and decode it with value.DecodeJSON, which keeps both.

// WireStuff is a Stuff as a Temporal payload.
type WireStuff struct {
	Name    string          `json:"name"`
	Concept string          `json:"concept"`
	Code    string          `json:"code,omitempty"`
	Content json.RawMessage `json:"content"`
}

// WireMemory is a Memory as a Temporal payload, in insertion order.
type WireMemory []WireStuff

// ToWireStuff encodes a stuff.
func ToWireStuff(s Stuff) (WireStuff, error) {
	b, err := json.Marshal(s.Content)
	if err != nil {
		return WireStuff{}, fmt.Errorf("stuff %q: %w", s.Name, err)
	}
	return WireStuff{Name: s.Name, Concept: s.Concept, Code: s.Code, Content: b}, nil
}

// Stuff decodes a wire stuff.
func (w WireStuff) Stuff() (Stuff, error) {
	var c any
	if len(w.Content) > 0 {
		var err error
		if c, err = value.DecodeJSON(w.Content); err != nil {
			return Stuff{}, fmt.Errorf("stuff %q: %w", w.Name, err)
		}
	}
	return Stuff{Name: w.Name, Concept: w.Concept, Code: w.Code, Content: c}, nil
}

// ToWireMemory encodes a memory in insertion order.
func ToWireMemory(m *Memory) (WireMemory, error) {
	out := WireMemory{}
	if m == nil {
		return out, nil
	}
	for _, n := range m.Names() {
		s, _ := m.Get(n)
		w, err := ToWireStuff(s)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}

// Memory decodes a wire memory.
func (w WireMemory) Memory() (*Memory, error) {
	m := NewMemory()
	for _, ws := range w {
		s, err := ws.Stuff()
		if err != nil {
			return nil, err
		}
		m = m.With(s)
	}
	return m, nil
}

// WireResponse is a CompletionResponse as a Temporal payload (the
// structured Object as raw JSON, so its key order survives).
type WireResponse struct {
	Text     string          `json:"text,omitempty"`
	Object   json.RawMessage `json:"object,omitempty"`
	ImageURL string          `json:"image_url,omitempty"`
}

// ToWireResponse encodes a provider answer.
func ToWireResponse(r CompletionResponse) (WireResponse, error) {
	w := WireResponse{Text: r.Text, ImageURL: r.ImageURL}
	if r.Object != nil {
		b, err := json.Marshal(r.Object)
		if err != nil {
			return WireResponse{}, err
		}
		w.Object = b
	}
	return w, nil
}

// Response decodes a wire answer.
func (w WireResponse) Response() (CompletionResponse, error) {
	r := CompletionResponse{Text: w.Text, ImageURL: w.ImageURL}
	if len(w.Object) > 0 {
		o, err := value.DecodeJSON(w.Object)
		if err != nil {
			return CompletionResponse{}, err
		}
		r.Object = o
	}
	return r, nil
}
