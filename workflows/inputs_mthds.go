package workflows

import (
	"fmt"

	"github.com/jinjabox/jinjabox/engine/value"
)

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
					c = bareSpec(cs)
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

// bareSpec drops the domain or native qualifier of a concept spec.
func bareSpec(c string) string {
	spec := ParseConceptSpec(c)
	spec.Name = BareConcept(spec.Name)
	return spec.String()
}
