package method

import (
	"fmt"
	"strings"

	"github.com/jinjabox/jinjabox/engine/value"
)

// LoadInputs decodes run inputs: a JSON object of name to
// {"concept": ..., "content": ...}; a bare string is Text; an array of
// such objects (all of one concept), or one such object whose content is
// an array, is a list input. A concept may be
// qualified ("native.Document", "domain.Concept"); a run resolves the
// concepts in its pipe's domain (Library.ResolveInputs).
func LoadInputs(data []byte) (*Memory, error) {
	raw, err := value.DecodeJSON(data)
	if err != nil {
		return nil, fmt.Errorf("inputs: %w", err)
	}
	om, ok := raw.(*value.OrderedMap)
	if !ok {
		return nil, fmt.Errorf("inputs: top level must be an object")
	}
	m := NewMemory()
	for i, name := range om.Keys {
		if name == "" || strings.HasPrefix(name, "_") || strings.Contains(name, ".") {
			return nil, fmt.Errorf("inputs: %q is not a plain public name", name)
		}
		s := Stuff{Name: name, Concept: ConceptText}
		switch v := om.Values[i].(type) {
		case string:
			s.Content = v
		case []any:
			l, err := listInput(name, v)
			if err != nil {
				return nil, err
			}
			s = l
		case *value.OrderedMap:
			for j, k := range v.Keys {
				switch k {
				case "concept":
					c, ok := v.Values[j].(string)
					if !ok {
						return nil, fmt.Errorf("inputs: %q: concept must be a string", name)
					}
					s.Concept = nativeSpec(c)
				case "content":
					s.Content = v.Values[j]
				case "code":
					c, _ := v.Values[j].(string)
					s.Code = c
				default:
					return nil, fmt.Errorf("inputs: %q: unknown key %q", name, k)
				}
			}
		default:
			return nil, fmt.Errorf("inputs: %q must be a string or an object", name)
		}
		if _, isList := s.Content.([]any); isList {
			// {"concept": "X", "content": [...]} is a list of X, as
			// Pipelex's inputs templates write a multiple input.
			if spec := ParseConceptSpec(s.Concept); !spec.List {
				spec.List = true
				s.Concept = spec.String()
			}
		}
		s.Content = NormalizeContent(s.Concept, s.Content)
		m = m.With(s)
	}
	return m, nil
}

// listInput decodes a list input: a JSON array of {"concept", "content"}
// objects (or bare strings, which are Text), all of one concept.
func listInput(name string, items []any) (Stuff, error) {
	s := Stuff{Name: name}
	concept := ""
	contents := make([]any, 0, len(items))
	for i, it := range items {
		c, content := ConceptText, any(nil)
		switch v := it.(type) {
		case string:
			content = v
		case *value.OrderedMap:
			for j, k := range v.Keys {
				switch k {
				case "concept":
					cs, ok := v.Values[j].(string)
					if !ok {
						return s, fmt.Errorf("inputs: %q item %d: concept must be a string", name, i)
					}
					c = nativeSpec(cs)
				case "content":
					content = v.Values[j]
				default:
					return s, fmt.Errorf("inputs: %q item %d: unknown key %q", name, i, k)
				}
			}
		default:
			return s, fmt.Errorf("inputs: %q item %d must be a string or an object", name, i)
		}
		if spec := ParseConceptSpec(c); spec.List {
			return s, fmt.Errorf("inputs: %q item %d: an item's concept cannot be a list (%q)", name, i, c)
		}
		if concept != "" && c != concept {
			return s, fmt.Errorf("inputs: %q item %d has concept %q, not %q like the items before it", name, i, c, concept)
		}
		concept = c
		contents = append(contents, NormalizeContent(c, content))
	}
	if concept == "" {
		concept = ConceptAnything
	}
	s.Concept, s.Content = concept+"[]", contents
	return s, nil
}

// nativeSpec drops the native qualifier of a concept spec.
func nativeSpec(c string) string {
	spec := ParseConceptSpec(c)
	spec.Name = canonicalNative(spec.Name)
	return spec.String()
}
