package method

import (
	"slices"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/policy"
)

// reservedFieldNames are the structure field names Pipelex reserves
// (concept_structure_blueprint.RESERVED_FIELD_NAMES: the pipe-run
// parameter keys, pydantic's model attributes, the artefact metadata).
var reservedFieldNames = []string{
	"_concept_code", "_content", "_content_class", "_dynamic_output_concept", "_nb_output", "_stuff_code", "_stuff_name",
	"model_computed_fields", "model_config", "model_copy", "model_dump", "model_dump_json", "model_extra",
	"model_fields", "model_fields_set", "model_validate", "model_validate_json",
}

// pythonKeywords are Python's keywords (keyword.kwlist), which a field
// name may not be.
var pythonKeywords = []string{
	"False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
	"elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
	"not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
}

// admittedFieldName is Pipelex's is_admitted_structure_field_name: a
// Python identifier (ASCII here), not a keyword, not reserved, not
// starting with an underscore.
func admittedFieldName(name string) bool {
	if name == "" || name[0] == '_' || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return !slices.Contains(pythonKeywords, name) && !slices.Contains(reservedFieldNames, name)
}

// reservedDomains are the first domain segments Pipelex reserves.
var reservedDomains = []string{"mthds", "native", "pipelex"}

// reservedDomain reports whether a domain starts with a reserved segment.
func reservedDomain(d string) bool {
	first, _, _ := strings.Cut(d, ".")
	return slices.Contains(reservedDomains, first)
}

// conceptCycles reports the cycles in refines and in the concepts fields
// name (LibraryManager._topological_load_concepts and
// _detect_concept_cycles): each cycle once, from its smallest member.
func (v *validator) conceptCycles() {
	l := v.lib
	edges := func(ref string, structure bool) []string {
		c := l.concepts[ref]
		if c == nil {
			return nil
		}
		if !structure {
			if c.Refines == "" {
				return nil
			}
			return []string{c.Refines}
		}
		var out []string
		for _, f := range c.Fields {
			for _, t := range []string{f.Type, f.ItemType, f.ConceptRef} {
				if _, ok := l.concepts[t]; ok {
					out = append(out, t)
				}
			}
		}
		return out
	}
	for _, structure := range []bool{false, true} {
		reported := map[string]bool{}
		for _, start := range l.crefs {
			e := l.conceptAt[start]
			if e.Address != "" || reported[start] {
				continue
			}
			// Depth-first from start: a path back to start is a cycle.
			var path []string
			onPath := map[string]bool{}
			var walk func(ref string) []string
			walk = func(ref string) []string {
				if ref == start && len(path) > 0 {
					return append(slices.Clone(path), ref)
				}
				if onPath[ref] || len(path) > 64 {
					return nil
				}
				onPath[ref] = true
				path = append(path, ref)
				defer func() { path = path[:len(path)-1] }()
				for _, n := range edges(ref, structure) {
					if cyc := walk(n); cyc != nil {
						return cyc
					}
				}
				return nil
			}
			cyc := walk(start)
			if cyc == nil || slices.Min(cyc) != start {
				continue
			}
			for _, r := range cyc {
				reported[r] = true
			}
			what := "refines"
			if structure {
				what = "structure references"
			}
			v.bundleProblem(e.Bundle, "concept "+e.Code, CodeInvalidConcept, "cycle in concept "+what+": "+strings.Join(cyc, " -> "))
		}
	}
}

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
		v.bundleProblem(b, field, CodeInvalidMethod, "cannot declare a concept named like a native concept: "+strconv.Quote(name)+" is natively available")
	} else if !isPascalCase(name) {
		v.bundleProblem(b, field, CodeInvalidConcept, "concept code "+strconv.Quote(name)+" is not PascalCase")
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
		switch {
		case f.Name == "" || policy.IsPrivateName(f.Name):
			v.bundleProblem(b, fld, CodePrivateName, "field name "+strconv.Quote(f.Name)+" is empty or starts with an underscore (reserved for Pipelex)")
		case !admittedFieldName(f.Name):
			v.bundleProblem(b, fld, CodeInvalidConcept, "field name "+strconv.Quote(f.Name)+" is not a Python identifier, is a Python keyword, or is reserved")
		}
		if !IsFieldType(f.Type) && !known(f.Type) {
			v.bundleProblem(b, fld, CodeUnknownConcept, "field "+strconv.Quote(f.Name)+" has unknown type "+strconv.Quote(f.Type))
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
