package method

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/engine/value"
)

// Concept is a named content type. A concept with fields is structured;
// its content is an object with those fields.
type Concept struct {
	Description string `json:"description,omitempty"`
	// Refines names the concept this one specialises (a native such as
	// Text, Image or Choice, or another concept of the bundle). A concept
	// with neither Refines nor Fields is text-like (Pipelex's rule).
	Refines string `json:"refines,omitempty"`
	// Fields in declaration order.
	Fields []Field `json:"fields,omitempty"`
}

// Field is one field of a structured concept.
type Field struct {
	Name string `json:"name"`
	// Type is text, integer, number, boolean, list, object, or a concept
	// name (Image, or a structured concept).
	Type        string `json:"type"`
	Required    bool   `json:"required,omitempty"`
	Description string `json:"description,omitempty"`
	// Choices restrict a text field to these values.
	Choices []string `json:"choices,omitempty"`
	// ItemType is a list field's item type (a field type or a concept).
	ItemType string `json:"item_type,omitempty"`
	// ConceptRef is the concept of a field of type "concept" (or of a
	// list's items when ItemType is "concept").
	ConceptRef string `json:"concept_ref,omitempty"`
}

// FieldTypes are the scalar and container types of a structure field;
// any other type names a concept.
var FieldTypes = []string{"boolean", "concept", "date", "datetime", "dict", "integer", "list", "number", "object", "text", "time"}

// IsFieldType reports whether t is a field type rather than a concept.
func IsFieldType(t string) bool {
	_, ok := slices.BinarySearch(FieldTypes, t)
	return ok
}

// Native concepts.
const (
	ConceptText     = "Text"
	ConceptImage    = "Image"
	ConceptHTML     = "Html"
	ConceptNumber   = "Number"
	ConceptAnything = "Anything"
)

// NativeConcepts need no declaration.
// The list is sorted (IsNativeConcept searches it); the Pipelex natives
// beyond the first five are described in native.go.
var NativeConcepts = []string{
	ConceptAnything, ConceptChoice, ConceptComposite, ConceptDate, ConceptDocument,
	ConceptDynamic, ConceptHTML, ConceptImage, ConceptImgGenPrompt, ConceptJSON,
	ConceptLLMPrompt, ConceptNumber, ConceptPDF, ConceptPage, ConceptRating,
	ConceptSearchResult, ConceptText, ConceptTextAndImages, ConceptYesNo,
}

// The Pipelex native concepts beyond Text, Image, Html, Number and
// Anything. Their content shapes follow Pipelex's content classes.
const (
	ConceptDocument      = "Document"      // {"url", "mime_type"}
	ConceptPDF           = "PDF"           // a Document that is a PDF
	ConceptPage          = "Page"          // {"text_and_images": {"text": {"text"}, "images": [...]}, "page_view"?}
	ConceptTextAndImages = "TextAndImages" // {"text": {"text"}, "images": [...]}
	ConceptJSON          = "JSON"          // {"json_obj": ...}
	ConceptYesNo         = "YesNo"         // {"yes_no": bool}
	ConceptChoice        = "Choice"        // {"choice": key}
	ConceptRating        = "Rating"        // {"level": int}
	ConceptSearchResult  = "SearchResult"  // {"answer", "sources": [...]}
	ConceptComposite     = "Composite"     // named parts
	ConceptDynamic       = "Dynamic"       // any object
	ConceptDate          = "Date"          // {"date", "time"?}
	ConceptLLMPrompt     = "LLMPrompt"     // text
	ConceptImgGenPrompt  = "ImgGenPrompt"  // text
)

// NativePrefix qualifies a native concept ("native.Text").
const NativePrefix = "native."

// textLike are the natives whose content is {"text": ...}.
var textLike = map[string]bool{ConceptText: true, ConceptLLMPrompt: true, ConceptImgGenPrompt: true}

// ConceptSpec is a parsed concept reference: "Name", "Name[]" (a list),
// "Name[3]" (a list of exactly 3), "Name?" (optional), "Name!" (must be
// present).
type ConceptSpec struct {
	Name     string
	List     bool
	Optional bool
	// Count is the exact length of a "[N]" list (0: any length).
	Count int
	// Required is the "!" suffix: the stuff must be present and not empty.
	Required bool
}

// ParseConceptSpec parses a concept reference. It is lenient (a malformed
// suffix stays part of the name, which validation then reports as an
// unknown concept); CheckConceptSpec reports the malformation itself.
func ParseConceptSpec(s string) ConceptSpec {
	var c ConceptSpec
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "?") {
		c.Optional = true
		s = strings.TrimSuffix(s, "?")
	} else if strings.HasSuffix(s, "!") {
		c.Required = true
		s = strings.TrimSuffix(s, "!")
	}
	if strings.HasSuffix(s, "[]") {
		c.List = true
		s = strings.TrimSuffix(s, "[]")
	} else if n, rest, ok := countSuffix(s); ok {
		// "[1]" is the single form with its count written out, as
		// Pipelex's parse_concept_with_multiplicity collapses it: never a
		// one-item list, and it takes a presence marker like a bare ref.
		c.List, c.Count = n != 1, n
		if n == 1 {
			c.Count = 0
		}
		s = rest
	}
	c.Name = s
	return c
}

// String writes the spec back.
func (c ConceptSpec) String() string {
	s := c.Name
	switch {
	case c.Count > 0:
		s += "[" + strconv.Itoa(c.Count) + "]"
	case c.List:
		s += "[]"
	}
	if c.Optional {
		s += "?"
	}
	if c.Required {
		s += "!"
	}
	return s
}

// IsNativeConcept reports whether name is a native concept.
func IsNativeConcept(name string) bool {
	_, ok := slices.BinarySearch(NativeConcepts, name)
	return ok
}

// countSuffix splits "Name[N]" into N and "Name".
func countSuffix(s string) (int, string, bool) {
	if !strings.HasSuffix(s, "]") {
		return 0, s, false
	}
	i := strings.LastIndexByte(s, '[')
	if i < 0 {
		return 0, s, false
	}
	digits := s[i+1 : len(s)-1]
	if digits == "" || len(digits) > 6 || strings.Trim(digits, "0123456789") != "" {
		return 0, s, false
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n <= 0 {
		return 0, s, false
	}
	return n, s[:i], true
}

// CheckConceptSpec reports what is malformed in a concept reference: an
// empty name, a bad suffix ("[x]", "[0]", "?!"), or a name that is not a
// concept code (PascalCase, optionally qualified by a snake_case domain).
func CheckConceptSpec(s string) error {
	spec := ParseConceptSpec(s)
	name := spec.Name
	if name == "" {
		return errorf("empty concept reference %q", s)
	}
	if strings.ContainsAny(name, "[]?! ") {
		return errorf("malformed concept reference %q (suffixes are [], [N] with N > 0, then ? or !)", s)
	}
	if addr, rest, ok := splitAddress(name); ok {
		if addr == "" || strings.ContainsAny(addr, " \t") {
			return errorf("concept reference %q: malformed package alias %q", s, addr)
		}
		name = rest
	}
	dom, code := SplitConceptRef(name)
	if dom != "" && !isSnakeCase(dom) {
		return errorf("concept reference %q: domain %q is not snake_case", s, dom)
	}
	if !isPascalCase(code) {
		return errorf("concept reference %q: %q is not a PascalCase concept code", s, code)
	}
	return nil
}

// SplitConceptRef splits "domain.Concept" (the domain may itself be
// dotted) into domain and code; an unqualified name has no domain. An
// address prefix ("alias->") stays on the domain.
func SplitConceptRef(name string) (domain, code string) {
	prefix := ""
	if addr, rest, ok := splitAddress(name); ok {
		prefix, name = addr+"->", rest
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return prefix + name[:i], name[i+1:]
	}
	return prefix, name
}

// BareConcept drops a "native." or "domain." qualifier: run inputs name
// concepts either way, and a method's memory uses bare codes.
func BareConcept(name string) string {
	_, code := SplitConceptRef(name)
	return code
}

func isPascalCase(s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func isSnakeCase(s string) bool {
	if s == "" {
		return false
	}
	for _, part := range strings.Split(s, ".") {
		if part == "" || part[0] < 'a' || part[0] > 'z' {
			return false
		}
		for i := 0; i < len(part); i++ {
			c := part[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
				return false
			}
		}
	}
	return true
}

// IsSnakeCase reports whether s is a snake_case domain code.
func IsSnakeCase(s string) bool { return isSnakeCase(s) }

// Concepts indexes concepts by canonical reference: a native's code
// ("Text"), or a library concept's "domain.Code" ("Code" in the unnamed
// domain). A Library builds it; refinements inside it are canonical.
type Concepts map[string]*Concept

// canonicalNative drops the "native." prefix of a native reference.
func canonicalNative(name string) string {
	if c, ok := strings.CutPrefix(name, NativePrefix); ok && IsNativeConcept(c) {
		return c
	}
	return name
}

// Base follows refinements from name to the native concept whose
// content shape it has: Text for text-like concepts (a declared concept
// with neither fields nor refines, or one refining Text), Image, Document
// (PDF too), ..., or name itself for a structured concept. A cycle stops
// at the concept where it closes.
func (cs Concepts) Base(name string) string {
	name = canonicalNative(name)
	for range 32 { // refinement chains are short; a cycle must not loop
		if IsNativeConcept(name) {
			switch {
			case textLike[name]:
				return ConceptText
			case name == ConceptPDF:
				return ConceptDocument
			}
			return name
		}
		c, ok := cs[name]
		if !ok {
			return name
		}
		switch {
		case c.Refines != "":
			name = canonicalNative(c.Refines)
		case len(c.Fields) == 0:
			return ConceptText
		default:
			return name
		}
	}
	return name
}

// Fields returns the fields of a structured concept (following
// refinements to the first concept with fields).
func (cs Concepts) Fields(name string) []Field {
	name = canonicalNative(name)
	for range 32 {
		c, ok := cs[name]
		if !ok {
			return nil
		}
		if len(c.Fields) > 0 || c.Refines == "" {
			return c.Fields
		}
		name = canonicalNative(c.Refines)
	}
	return nil
}

// nativeClasses are the _content_class names of the native concepts.
var nativeClasses = map[string]string{
	ConceptText: "TextContent", ConceptImage: "ImageContent", ConceptHTML: "HtmlContent",
	ConceptNumber: "NumberContent", ConceptDocument: "DocumentContent", ConceptPage: "PageContent",
	ConceptTextAndImages: "TextAndImagesContent", ConceptJSON: "JSONContent", ConceptYesNo: "YesNoContent",
	ConceptChoice: "ChoiceContent", ConceptRating: "RatingContent", ConceptSearchResult: "SearchResultContent",
	ConceptDate: "DateContent",
}

// class is the _content_class of a concept: its base native's class,
// so a concept refining Image is an image to the Pipelex filters; a
// structured concept's class is its code.
func (cs Concepts) class(name string) string {
	if c, ok := nativeClasses[cs.Base(name)]; ok {
		return c
	}
	return BareConcept(name)
}

// compatible reports whether content of concept tested can stand where
// concept wanted is expected (Pipelex's Concept.are_concept_compatible):
// the same concept, Dynamic or Anything on either side, the same content
// class (text-like concepts are all text), or tested refining wanted
// (through its chain), or both refining one concept.
func (cs Concepts) compatible(tested, wanted string) bool {
	tested, wanted = canonicalNative(tested), canonicalNative(wanted)
	if tested == wanted || tested == ConceptDynamic || wanted == ConceptDynamic || wanted == ConceptAnything || tested == ConceptAnything {
		return true
	}
	if bt, bw := cs.Base(tested), cs.Base(wanted); bt == bw && IsNativeConcept(bt) && bt != ConceptComposite {
		return true
	}
	for name, i := tested, 0; i < 32; i++ {
		c, ok := cs[name]
		if !ok || c.Refines == "" {
			break
		}
		name = canonicalNative(c.Refines)
		if name == wanted {
			return true
		}
	}
	ct, cw := cs[tested], cs[wanted]
	return ct != nil && cw != nil && ct.Refines != "" && ct.Refines == cw.Refines
}

// fitsField reports whether a branch's output of concept tested can fill
// a field typed as concept wanted, as Pipelex's PipeParallel decides it:
// the branch's structure class must be the field's or a subclass of it,
// and a refining concept's class is a subclass of its refined concept's.
// So tested is wanted, or refines it through its chain, or wanted is a
// native whose content class tested's base shares (a text-like concept
// is text). Dynamic and Anything are not checked.
func (cs Concepts) fitsField(tested, wanted string) bool {
	tested, wanted = canonicalNative(tested), canonicalNative(wanted)
	switch {
	case tested == wanted, tested == ConceptDynamic, tested == ConceptAnything, wanted == ConceptDynamic, wanted == ConceptAnything:
		return true
	case IsNativeConcept(wanted) && wanted != ConceptComposite && cs.Base(tested) == cs.Base(wanted):
		return true
	}
	for name, i := tested, 0; i < 32; i++ {
		c, ok := cs[name]
		if !ok || c.Refines == "" {
			return false
		}
		name = canonicalNative(c.Refines)
		if name == wanted {
			return true
		}
	}
	return false
}

// Normalize is NormalizeContent after following refinements, so "Email"
// refining Text takes {"text": ...} from a bare string, and a Document
// takes {"url": ...}.
func (cs Concepts) Normalize(concept string, content any) any {
	spec := ParseConceptSpec(concept)
	if items, ok := content.([]any); ok && spec.List {
		out := make([]any, len(items))
		for i, it := range items {
			out[i] = cs.Normalize(spec.Name, it)
		}
		return out
	}
	base := cs.Base(spec.Name)
	switch t := content.(type) {
	case string:
		switch base {
		case ConceptDocument:
			return textContentKey("url", t)
		case ConceptChoice:
			return textContentKey("choice", t)
		case ConceptSearchResult:
			return &value.OrderedMap{Keys: []string{"answer", "sources"}, Values: []any{t, []any{}}}
		}
	case bool:
		if base == ConceptYesNo {
			return textContentKey("yes_no", t)
		}
	}
	return NormalizeContent(base, content)
}

func textContentKey(k string, v any) any {
	return orderedOf(k, v)
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

func orderedOf(k string, v any) *value.OrderedMap {
	return &value.OrderedMap{Keys: []string{k}, Values: []any{v}}
}
