package method

import (
	"strconv"

	"github.com/jinjabox/jinjabox/policy"
)

// concept checks one concept of a bundle: its code, refines, and the
// fields of its structure.
func (v *validator) concept(e *ConceptEntry) {
	b, name, c := e.Bundle, e.Code, e.Concept
	field := "concept " + name
	sc := refScope{e.Address, e.Domain}
	known := func(ref string) bool {
		_, ok := v.lib.resolveConcept(sc, ref)
		return ok
	}
	if IsNativeConcept(name) {
		v.bundleProblem(b, field, CodeInvalidMethod, "redefines a native concept")
	}
	if c.Refines != "" {
		rf := field + " refines"
		if err := CheckConceptSpec(c.Refines); err != nil || ParseConceptSpec(c.Refines).String() != c.Refines {
			v.bundleProblem(b, rf, CodeInvalidMethod, "refines must be a plain concept code, not "+strconv.Quote(c.Refines))
		} else if !known(c.Refines) {
			v.bundleProblem(b, rf, CodeUnknownConcept, "refines unknown concept "+strconv.Quote(c.Refines))
		} else if c.Refines == e.Ref {
			v.bundleProblem(b, rf, CodeInvalidMethod, "a concept cannot refine itself")
		}
		if len(c.Fields) > 0 {
			// Pipelex: a concept cannot have both refines and structure.
			v.bundleProblem(b, field, CodeInvalidMethod, "a concept has refines or a structure, not both")
		}
	}
	for _, f := range c.Fields {
		fld := field + " field " + f.Name
		if f.Name == "" || policy.IsPrivateName(f.Name) {
			v.bundleProblem(b, field, CodePrivateName, "field name "+strconv.Quote(f.Name)+" is empty or starts with an underscore")
		}
		if !IsFieldType(f.Type) && !known(f.Type) {
			v.bundleProblem(b, fld, CodeUnknownConcept, "field "+strconv.Quote(f.Name)+" has unknown type "+strconv.Quote(f.Type))
		}
		if len(f.Choices) > 0 && f.Type != "text" {
			v.bundleProblem(b, fld, CodeInvalidMethod, "choices apply to text fields only")
		}
		switch f.Type {
		case "concept":
			if f.ConceptRef == "" {
				v.bundleProblem(b, fld, CodeInvalidMethod, "a field of type concept needs concept_ref")
			} else if !known(f.ConceptRef) {
				v.bundleProblem(b, fld, CodeUnknownConcept, "concept_ref names unknown concept "+strconv.Quote(f.ConceptRef))
			}
		case "list":
			switch f.ItemType {
			case "", "text", "integer", "number", "boolean", "date", "dict":
			case "concept":
				if f.ConceptRef == "" {
					v.bundleProblem(b, fld, CodeInvalidMethod, "a list of concepts needs concept_ref")
				} else if !known(f.ConceptRef) {
					v.bundleProblem(b, fld, CodeUnknownConcept, "concept_ref names unknown concept "+strconv.Quote(f.ConceptRef))
				}
			default:
				if !known(f.ItemType) {
					v.bundleProblem(b, fld, CodeUnknownConcept, "unknown item_type "+strconv.Quote(f.ItemType))
				}
			}
		default:
			if f.ItemType != "" {
				v.bundleProblem(b, fld, CodeInvalidMethod, "item_type applies to list fields only")
			}
			if f.ConceptRef != "" && f.Type != "concept" {
				v.bundleProblem(b, fld, CodeInvalidMethod, "concept_ref applies to fields of type concept (or lists of them) only")
			}
		}
	}
}
