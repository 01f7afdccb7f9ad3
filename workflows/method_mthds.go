package workflows

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/engine/value"
)

// This file holds the parts of the method model that Pipelex method files
// (.mthds, .plx; package methodfile) need beyond the JSON bundle: the
// rest of Pipelex's native concepts, refinement, the PipeParallel,
// PipeFunc and PipeExtract kinds, model references and judge questions.
// Everything is additive: a bundle that uses none of it behaves as before.

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

// PipeExt are the pipe fields of Pipelex method files. It is embedded in
// Pipe, so its fields read as Pipe's own and encode flat in JSON.
type PipeExt struct {
	// Model is a model reference: "$preset", "@alias", "~waterfall" or a
	// model id, resolved through ModelConfig (PipeLLM, PipeJudge,
	// PipeImgGen, PipeSearch, PipeExtract).
	Model string `json:"model,omitempty"`
	// ModelSettings are the other keys of a model table
	// (model = { model = "...", temperature = 0.2 }), passed to the
	// provider as they are.
	ModelSettings map[string]any `json:"model_settings,omitempty"`

	// PipeImgGen: aspect_ratio and size are exclusive.
	AspectRatio string `json:"aspect_ratio,omitempty"`
	Size        string `json:"size,omitempty"`

	// PipeSearch filters (dates are YYYY-MM-DD).
	FromDate       string   `json:"from_date,omitempty"`
	ToDate         string   `json:"to_date,omitempty"`
	IncludeDomains []string `json:"include_domains,omitempty"`
	ExcludeDomains []string `json:"exclude_domains,omitempty"`
	IncludeImages  bool     `json:"include_images,omitempty"`

	// PipeExtract: the pipe reads its one Document, PDF or Image input.
	MaxPageImages int  `json:"max_page_images,omitempty"`
	PageViews     bool `json:"page_views,omitempty"`

	// PipeFunc: a Go function registered in a FuncRegistry.
	FunctionName string `json:"function_name,omitempty"`

	// PipeParallel: every branch runs on the same memory (branches cannot
	// see each other's results); AddEachOutput stores each branch's
	// output under its result name, CombinedOutput (a concept) bundles
	// them into one object keyed by result name. One of the two is
	// required. Without CombinedOutput, the pipe's output is the last
	// branch's.
	Branches       []Step `json:"branches,omitempty"`
	AddEachOutput  bool   `json:"add_each_output,omitempty"`
	CombinedOutput string `json:"combined_output,omitempty"`

	// PipeJudge, the Pipelex file shape: Evidence is the prompt rendered
	// and sent as the material to judge (the file's "prompt" when a
	// question is also given), Questions asks several questions at once,
	// each answer filling the output concept's field of that name.
	Evidence  string          `json:"evidence,omitempty"`
	Questions []JudgeQuestion `json:"questions,omitempty"`
}

// JudgeQuestion is one question of a PipeJudge: a yes/no question
// (Criteria, Threshold), a choice (Options) or a rating (Levels).
type JudgeQuestion struct {
	// Field is the output field the answer fills.
	Field     string            `json:"field"`
	Question  string            `json:"question"`
	Options   map[string]string `json:"options,omitempty"`
	Levels    []string          `json:"levels,omitempty"`
	Criteria  map[string]string `json:"criteria,omitempty"`
	Threshold float64           `json:"threshold,omitempty"`
}

// Judgement kinds.
const (
	JudgeYesNo  = "yes_no"
	JudgeChoice = "choice"
	JudgeRating = "rating"
)

// Kind is the question's kind, from its fields.
func (q JudgeQuestion) Kind() string {
	switch {
	case len(q.Options) > 0:
		return JudgeChoice
	case len(q.Levels) > 0:
		return JudgeRating
	}
	return JudgeYesNo
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
// dotted) into domain and code; an unqualified name has no domain.
func SplitConceptRef(name string) (domain, code string) {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[:i], name[i+1:]
	}
	return "", name
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

// BaseConcept follows refinements from name to the native concept whose
// content shape it has: Text for text-like concepts (a declared concept
// with neither fields nor refines, or one refining Text), Image, Document
// (PDF too), ..., or name itself for a structured concept. A cycle stops
// at the concept where it closes.
func BaseConcept(concepts map[string]*Concept, name string) string {
	name = BareConcept(name)
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
		c, ok := concepts[name]
		if !ok {
			return name
		}
		switch {
		case c.Refines != "":
			name = BareConcept(c.Refines)
		case len(c.Fields) == 0:
			return ConceptText
		default:
			return name
		}
	}
	return name
}

// FieldsOf returns the fields of a structured concept (following
// refinements to the first concept with fields).
func FieldsOf(concepts map[string]*Concept, name string) []Field {
	name = BareConcept(name)
	for range 32 {
		c, ok := concepts[name]
		if !ok {
			return nil
		}
		if len(c.Fields) > 0 || c.Refines == "" {
			return c.Fields
		}
		name = BareConcept(c.Refines)
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

// classOf is the _content_class of a concept: its base native's class,
// so a concept refining Image is an image to the Pipelex filters.
func classOf(concepts map[string]*Concept, name string) string {
	if c, ok := nativeClasses[BaseConcept(concepts, name)]; ok {
		return c
	}
	return contentClass(BareConcept(name))
}

// NormalizeContentFor is NormalizeContent after following refinements,
// so "Email" refining Text takes {"text": ...} from a bare string, and a
// Document takes {"url": ...}.
func NormalizeContentFor(concepts map[string]*Concept, concept string, content any) any {
	spec := ParseConceptSpec(concept)
	if items, ok := content.([]any); ok && spec.List {
		out := make([]any, len(items))
		for i, it := range items {
			out[i] = NormalizeContentFor(concepts, spec.Name, it)
		}
		return out
	}
	base := BaseConcept(concepts, spec.Name)
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
