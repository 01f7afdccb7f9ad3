// Package workflows holds the method model (concepts, pipes, working
// memory), its validation, the path walker used outside templates, the
// model-provider interface and a deterministic pipe runner. Everything
// here is a pure function of its inputs (no goroutines, no clock, no map
// iteration on output paths), so the Temporal layer can run it as
// workflow and activity code.
package workflows

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/method/templating"
)

// Method is a bundle of concepts and pipes a platform runs for its
// customers. Every template in it is untrusted.
type Method struct {
	Domain      string `json:"domain,omitempty"`
	Description string `json:"description,omitempty"`
	// MainPipe is the pipe a run starts from.
	MainPipe string `json:"main_pipe"`
	// TemplatingStyle is the default style of tag and format.
	TemplatingStyle templating.TemplatingStyle `json:"templating_style,omitempty"`
	// Concepts are the bundle's structured concepts by name; the native
	// concepts (NativeConcepts) need no declaration.
	Concepts map[string]*Concept `json:"concepts,omitempty"`
	// Pipes by code.
	Pipes map[string]*Pipe `json:"pipes"`
}

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

// Pipe kinds.
const (
	KindLLM       = "PipeLLM"
	KindCompose   = "PipeCompose"
	KindCondition = "PipeCondition"
	KindBatch     = "PipeBatch"
	KindSequence  = "PipeSequence"
	KindJudge     = "PipeJudge"
	KindImgGen    = "PipeImgGen"
	KindSearch    = "PipeSearch"
	// The kinds of Pipelex method files (see method_mthds.go).
	KindParallel = "PipeParallel"
	KindFunc     = "PipeFunc"
	KindExtract  = "PipeExtract"
)

// Pipe is one pipe of a method. Type says which of the kind-specific
// fields apply; the others must be empty (validation checks).
type Pipe struct {
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
	// Inputs maps input name to concept spec ("Text", "Ticket[]",
	// "Text?" for optional), in name order.
	Inputs map[string]string `json:"inputs,omitempty"`
	// Output is the output concept spec ("Reply", "Reply[]", "Text?").
	Output string `json:"output,omitempty"`
	// TemplatingStyle overrides the method's for this pipe's templates.
	TemplatingStyle *templating.TemplatingStyle `json:"templating_style,omitempty"`

	// PipeLLM, PipeImgGen, PipeSearch, PipeJudge (synonym of question).
	Prompt       string `json:"prompt,omitempty"`
	SystemPrompt string `json:"system_prompt,omitempty"`
	// Images are paths to images (image references) sent with the prompt
	// after the images the prompt itself references.
	Images []string `json:"images,omitempty"`
	// PipeImgGen.
	NegativePrompt string `json:"negative_prompt,omitempty"`
	// PipeSearch.
	MaxResults int `json:"max_results,omitempty"`

	// PipeCompose: Template xor Construct.
	Template  *ComposeTemplate `json:"template,omitempty"`
	Construct *Construct       `json:"construct,omitempty"`

	// PipeCondition.
	Expression               string            `json:"expression,omitempty"`
	ExpressionTemplate       string            `json:"expression_template,omitempty"`
	Outcomes                 map[string]string `json:"outcomes,omitempty"`
	DefaultOutcome           string            `json:"default_outcome,omitempty"`
	AddAliasFromExpressionTo string            `json:"add_alias_from_expression_to,omitempty"`

	// PipeBatch.
	BranchPipeCode string `json:"branch_pipe_code,omitempty"`
	InputListName  string `json:"input_list_name,omitempty"`
	InputItemName  string `json:"input_item_name,omitempty"`
	MaxConcurrency int    `json:"max_concurrency,omitempty"`

	// PipeSequence.
	Steps []Step `json:"steps,omitempty"`

	// PipeJudge.
	Question  string            `json:"question,omitempty"`
	Options   map[string]string `json:"options,omitempty"`
	Levels    []string          `json:"levels,omitempty"`
	Criteria  map[string]string `json:"criteria,omitempty"`
	Threshold float64           `json:"threshold,omitempty"`

	// Fields of Pipelex method files (kinds PipeParallel, PipeFunc,
	// PipeExtract, model references, judge questions); see PipeExt.
	PipeExt
}

// DefaultMaxConcurrency is PipeBatch's default.
const DefaultMaxConcurrency = 8

// Step is one step of a PipeSequence.
type Step struct {
	Pipe string `json:"pipe"`
	// Result names the step's output in working memory (default: the
	// pipe code).
	Result string `json:"result,omitempty"`
	// BatchOver and BatchAs run the step once per item (both or neither).
	BatchOver string `json:"batch_over,omitempty"`
	BatchAs   string `json:"batch_as,omitempty"`
}

// ComposeTemplate is PipeCompose's template mode. In JSON it is either a
// string (category basic) or an object.
type ComposeTemplate struct {
	Template        string                      `json:"template"`
	Category        templating.Category         `json:"category,omitempty"`
	TemplatingStyle *templating.TemplatingStyle `json:"templating_style,omitempty"`
	// ExtraContext is merged into the render context (plain JSON data).
	ExtraContext map[string]any `json:"extra_context,omitempty"`
	// StrictUndefined renders as a document template: using an undefined
	// value is an error, though {% if x %} still probes presence.
	StrictUndefined bool `json:"strict_undefined,omitempty"`
}

// UnmarshalJSON accepts a bare string or the object form.
func (t *ComposeTemplate) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = ComposeTemplate{Template: s, Category: templating.Basic}
		return nil
	}
	type plain ComposeTemplate
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	// Decode extra_context again keeping numbers exact and key order (the
	// standard decoder would turn 1 into 1.0 when printed).
	var raw struct {
		ExtraContext json.RawMessage `json:"extra_context"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if len(raw.ExtraContext) > 0 && string(raw.ExtraContext) != "null" {
		ec, err := value.DecodeJSONObject(raw.ExtraContext)
		if err != nil {
			return fmt.Errorf("extra_context: %w", err)
		}
		p.ExtraContext = ec
	}
	if p.Category == "" {
		p.Category = templating.Basic
	}
	*t = ComposeTemplate(p)
	return nil
}

// ConstructMethod is how one construct field gets its value.
type ConstructMethod int

// The construct field methods.
const (
	FieldFixed    ConstructMethod = iota + 1 // a literal value
	FieldFrom                                // {"from": "a.b.c"[, "list_to_dict_keyed_by": "k"]}
	FieldTemplate                            // {"template": "..."}
	FieldNested                              // a nested construct
)

// Construct is PipeCompose's construct mode: fields in declaration order.
type Construct struct {
	Fields []ConstructField
}

// ConstructField is one field of a construct.
type ConstructField struct {
	Name   string
	Method ConstructMethod
	// Fixed is the literal (FieldFixed), plain JSON data.
	Fixed any
	// From and KeyedBy are the paths of FieldFrom.
	From    string
	KeyedBy string
	// Template is FieldTemplate's source (category basic, sigils on).
	Template string
	// Nested is FieldNested's construct.
	Nested *Construct
}

// UnmarshalJSON decodes an object keeping its key order, then classifies
// each field.
func (c *Construct) UnmarshalJSON(b []byte) error {
	raw, err := value.DecodeJSON(b)
	if err != nil {
		return err
	}
	om, ok := raw.(*value.OrderedMap)
	if !ok {
		return fmt.Errorf("construct must be an object")
	}
	out, err := constructFrom(om)
	if err != nil {
		return err
	}
	*c = *out
	return nil
}

// MarshalJSON writes the construct back in its JSON form.
func (c *Construct) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, f := range c.Fields {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(f.Name)
		buf.Write(k)
		buf.WriteByte(':')
		var v any
		switch f.Method {
		case FieldFixed:
			v = plainJSON(f.Fixed)
		case FieldFrom:
			m := map[string]string{"from": f.From}
			if f.KeyedBy != "" {
				m["list_to_dict_keyed_by"] = f.KeyedBy
			}
			v = m
		case FieldTemplate:
			v = map[string]string{"template": f.Template}
		case FieldNested:
			v = f.Nested
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		buf.Write(b)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

func constructFrom(om *value.OrderedMap) (*Construct, error) {
	c := &Construct{}
	for i, name := range om.Keys {
		f := ConstructField{Name: name}
		switch v := om.Values[i].(type) {
		case *value.OrderedMap:
			keys := slices.Clone(v.Keys)
			slices.Sort(keys)
			get := func(k string) (string, bool, error) {
				j := slices.Index(v.Keys, k)
				if j < 0 {
					return "", false, nil
				}
				s, ok := v.Values[j].(string)
				if !ok {
					return "", true, fmt.Errorf("construct field %q: %s must be a string", name, k)
				}
				return s, true, nil
			}
			from, hasFrom, err := get("from")
			if err != nil {
				return nil, err
			}
			tmpl, hasTmpl, err := get("template")
			if err != nil {
				return nil, err
			}
			keyed, hasKeyed, err := get("list_to_dict_keyed_by")
			if err != nil {
				return nil, err
			}
			switch {
			case hasFrom && hasTmpl:
				return nil, fmt.Errorf("construct field %q: from and template are mutually exclusive", name)
			case hasFrom:
				for _, k := range keys {
					if k != "from" && k != "list_to_dict_keyed_by" {
						return nil, fmt.Errorf("construct field %q: a from table allows only from and list_to_dict_keyed_by, not %q", name, k)
					}
				}
				f.Method, f.From, f.KeyedBy = FieldFrom, from, keyed
			case hasTmpl:
				if len(keys) != 1 {
					return nil, fmt.Errorf("construct field %q: a template table allows only template", name)
				}
				f.Method, f.Template = FieldTemplate, tmpl
			case hasKeyed:
				return nil, fmt.Errorf("construct field %q: list_to_dict_keyed_by needs from", name)
			default:
				if len(v.Keys) == 0 {
					return nil, fmt.Errorf("construct field %q: empty construct", name)
				}
				nested, err := constructFrom(v)
				if err != nil {
					return nil, err
				}
				f.Method, f.Nested = FieldNested, nested
			}
		default:
			f.Method, f.Fixed = FieldFixed, v
		}
		c.Fields = append(c.Fields, f)
	}
	if len(c.Fields) == 0 {
		return nil, fmt.Errorf("empty construct")
	}
	return c, nil
}

// plainJSON turns decoded data (OrderedMap, json.Number) into values
// encoding/json writes back faithfully.
func plainJSON(x any) any {
	switch t := x.(type) {
	case *value.OrderedMap:
		m := make(map[string]any, len(t.Keys))
		for i, k := range t.Keys {
			m[k] = plainJSON(t.Values[i])
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = plainJSON(e)
		}
		return out
	}
	return x
}

// LoadMethod decodes a method bundle from JSON. Unknown fields are
// errors (a misspelt template field must not be silently ignored). It
// checks only the JSON shape; ValidateMethod checks the meaning.
func LoadMethod(data []byte) (*Method, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Method
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("method: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("method: trailing data after the document")
	}
	return &m, nil
}

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
		c.List, c.Count = true, n
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

// InputNames returns a pipe's input names, sorted (determinism).
func (p *Pipe) InputNames() []string { return sortedKeys(p.Inputs) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// style returns the templating style for one of the pipe's templates.
func (m *Method) style(p *Pipe, override *templating.TemplatingStyle) templating.TemplatingStyle {
	s := m.TemplatingStyle
	for _, o := range []*templating.TemplatingStyle{p.TemplatingStyle, override} {
		if o == nil {
			continue
		}
		if o.TagStyle != "" {
			s.TagStyle = o.TagStyle
		}
		if o.TextFormat != "" {
			s.TextFormat = o.TextFormat
		}
	}
	return s
}

// IsNativeConcept reports whether name is a native concept.
func IsNativeConcept(name string) bool {
	_, ok := slices.BinarySearch(NativeConcepts, name)
	return ok
}
