package activities

import (
	"strings"

	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/method"
)

// The JSON schema of a structured answer, for the chat completions
// response_format json_schema. Strict mode (the model's output is
// constrained to the schema) takes a subset of JSON Schema: every
// property required, additionalProperties false on every object. An
// optional field is therefore required and nullable. A part whose
// structure the request does not carry (a nested concept's fields, a
// dict, a list of unknown items) is an open object or array, which strict
// mode cannot express: such a schema is sent non-strict, still naming
// every field. Objects are ordered maps because the model writes the
// properties in schema order, and the runner keeps the answer's order.

// objectSchema is the schema of an object of fields and whether strict
// mode can hold it.
func objectSchema(fields []method.Field) (*value.OrderedMap, bool) {
	strict := true
	keys := make([]string, 0, len(fields))
	props := make([]any, 0, len(fields))
	for _, f := range fields {
		s, ok := fieldSchema(f)
		strict = strict && ok
		keys = append(keys, f.Name)
		props = append(props, s)
	}
	return closedObject(keys, props), strict
}

// fieldSchema is one field's schema and whether strict mode can hold it.
func fieldSchema(f method.Field) (*value.OrderedMap, bool) {
	var s *value.OrderedMap
	ok := true
	switch f.Type {
	case "list":
		it := f.ItemType
		if it == "concept" {
			it = f.ConceptRef
		}
		var items *value.OrderedMap
		if it == "" {
			ok = false // items of unknown type: an open array
		} else {
			items, ok = typeSchema(it, nil)
		}
		s = obj("type", "array")
		if items != nil {
			s.Keys, s.Values = append(s.Keys, "items"), append(s.Values, items)
		}
	case "concept":
		s, ok = typeSchema(f.ConceptRef, nil)
	default:
		s, ok = typeSchema(f.Type, f.Choices)
	}
	if f.Description != "" {
		s.Keys, s.Values = append(s.Keys, "description"), append(s.Values, f.Description)
	}
	if !f.Required {
		nullable(s)
	}
	return s, ok
}

// typeSchema is the schema of a scalar field type or a concept.
func typeSchema(t string, choices []string) (*value.OrderedMap, bool) {
	switch t {
	case "text":
		if len(choices) > 0 {
			return obj("type", "string", "enum", choices), true
		}
		return obj("type", "string"), true
	case "integer":
		return obj("type", "integer"), true
	case "number":
		return obj("type", "number"), true
	case "boolean":
		return obj("type", "boolean"), true
	case "date":
		return obj("type", "string", "format", "date"), true
	case "datetime":
		return obj("type", "string", "format", "date-time"), true
	case "time":
		return obj("type", "string", "format", "time"), true
	case "list":
		return obj("type", "array"), false
	case method.ConceptImage:
		return closedObject([]string{"url"}, []any{obj("type", "string")}), true
	case method.ConceptText:
		return obj("type", "string"), true
	}
	// dict, object, or a structured concept whose fields the request
	// does not carry
	return obj("type", "object"), false
}

// nullable lets s also be null: a "type" becomes [type, "null"] and an
// enum gains null.
func nullable(s *value.OrderedMap) {
	for i, k := range s.Keys {
		switch k {
		case "type":
			if t, ok := s.Values[i].(string); ok {
				s.Values[i] = []string{t, "null"}
			}
		case "enum":
			if e, ok := s.Values[i].([]string); ok {
				l := make([]any, 0, len(e)+1)
				for _, c := range e {
					l = append(l, c)
				}
				s.Values[i] = append(l, nil)
			}
		}
	}
}

// closedObject is the schema of an object with exactly these
// properties, all required, as strict mode wants.
func closedObject(keys []string, props []any) *value.OrderedMap {
	return obj("type", "object", "properties", &value.OrderedMap{Keys: keys, Values: props},
		"required", append([]string{}, keys...), "additionalProperties", false)
}

// obj is an ordered map of alternating keys and values.
func obj(kv ...any) *value.OrderedMap {
	m := &value.OrderedMap{}
	for i := 0; i+1 < len(kv); i += 2 {
		m.Keys = append(m.Keys, kv[i].(string))
		m.Values = append(m.Values, kv[i+1])
	}
	return m
}

// schemaName is the response format's name: the output concept's name
// in the characters the API takes ([a-zA-Z0-9_-], at most 64).
func schemaName(req method.CompletionRequest) string {
	name := method.ParseConceptSpec(req.Output).Name
	if len(req.Fields) == 0 {
		name = "verdict"
	}
	name = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, name)
	if name == "" {
		name = "answer"
	}
	return name[:min(len(name), 64)]
}
