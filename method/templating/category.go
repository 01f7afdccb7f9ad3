// Package templating is Pipelex's template layer on top of the Jinja
// engine: the template categories (basic, expression, html, markdown,
// mermaid, llm_prompt, img_gen_prompt) with their environment options and
// extra filters (format, tag, with_images, escape_script_tag, markdown),
// the sigil preprocessor, and the host types templates see (ImageContent).
// It uses only the engine's public API; it may import goldmark, which the
// engine packages must not.
package templating

import (
	"fmt"
	"slices"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/value"
)

// Category names the kind of a template; it fixes autoescape, whitespace
// handling and which extra filters exist.
type Category string

// The categories.
const (
	Basic        Category = "basic"
	Expression   Category = "expression"
	HTML         Category = "html"
	Markdown     Category = "markdown"
	Mermaid      Category = "mermaid"
	LLMPrompt    Category = "llm_prompt"
	ImgGenPrompt Category = "img_gen_prompt"
)

// All lists every category in a fixed order (for tables and docs).
var All = []Category{Basic, Expression, HTML, Markdown, Mermaid, LLMPrompt, ImgGenPrompt}

// Spec is what a category means for the environment.
type Spec struct {
	Autoescape   bool
	TrimBlocks   bool
	LstripBlocks bool
	// Filters are the extra filter names, sorted.
	Filters []string
}

var specs = map[Category]Spec{
	Basic:        {Filters: []string{"format", "tag"}},
	Expression:   {},
	HTML:         {Autoescape: true, TrimBlocks: true, LstripBlocks: true, Filters: []string{"escape_script_tag", "format", "markdown", "tag"}},
	Markdown:     {TrimBlocks: true, LstripBlocks: true, Filters: []string{"escape_script_tag", "format", "tag"}},
	Mermaid:      {},
	LLMPrompt:    {Filters: []string{"format", "tag", "with_images"}},
	ImgGenPrompt: {Filters: []string{"format", "tag", "with_images"}},
}

// Valid reports whether c is a known category.
func (c Category) Valid() bool { _, ok := specs[c]; return ok }

// Spec returns the category's options; ok is false for an unknown category.
func (c Category) Spec() (Spec, bool) {
	s, ok := specs[c]
	return s, ok
}

// HasExtraFilter reports whether the category registers the named
// Pipelex filter.
func (c Category) HasExtraFilter(name string) bool {
	s := specs[c]
	_, found := slices.BinarySearch(s.Filters, name)
	return found
}

// ExtraFilterNames are every filter this package can register, sorted.
var ExtraFilterNames = []string{"escape_script_tag", "format", "markdown", "tag", "with_images"}

// Config are the per-environment settings beyond the category.
type Config struct {
	// Strict selects strict undefined (document templates); {% if x %}
	// still probes presence.
	Strict bool
	// Limits are the parse and render limits (zero: engine defaults).
	Limits budget.Limits
}

// NewEnvironment builds an engine environment for the category with the
// style driving tag and format. The environment holds no render's state:
// the image registry with_images, tag and format use is the render's
// (RenderOptions.Host, an *ImageRegistry; none: each with_images call
// uses a temporary registry, as Pipelex does without one).
func NewEnvironment(cat Category, style Style) (*engine.Environment, error) {
	return NewEnvironmentWith(cat, style, Config{})
}

// NewEnvironmentWith is NewEnvironment with explicit settings.
func NewEnvironmentWith(cat Category, style Style, cfg Config) (*engine.Environment, error) {
	s, ok := specs[cat]
	if !ok {
		return nil, fmt.Errorf("unknown template category %q", string(cat))
	}
	filters, err := extraFilters(cat, style)
	if err != nil {
		return nil, err
	}
	return engine.NewEnvironment(engine.Options{
		Autoescape:      s.Autoescape,
		TrimBlocks:      s.TrimBlocks,
		LstripBlocks:    s.LstripBlocks,
		StrictUndefined: cfg.Strict,
		Limits:          cfg.Limits,
		Filters:         filters,
	})
}

// extraFilters returns the category's extra filters bound to style.
func extraFilters(cat Category, style Style) (map[string]engine.Filter, error) {
	s, ok := specs[cat]
	if !ok {
		return nil, fmt.Errorf("unknown template category %q", string(cat))
	}
	style, err := style.Resolved()
	if err != nil {
		return nil, err
	}
	f := &filterSet{style: style}
	filters := make(map[string]engine.Filter, len(s.Filters))
	for _, name := range s.Filters {
		filters[name] = f.byName(name)
	}
	return filters, nil
}

// filterSet binds the filters of one environment to its style; the
// image registry is the render's (imagesOf).
type filterSet struct {
	style Style
}

// imagesOf is the image registry of the render c belongs to, or nil.
func imagesOf(c value.Ctx) *ImageRegistry {
	reg, _ := engine.HostState(c).(*ImageRegistry)
	return reg
}

// byName is the Pipelex filter name: an engine.Filter that returns its
// own failures (a bad argument, an undefined value) as errors; a failure
// of the value model or the meter deep inside the calls it makes (a
// budget refusal) unwinds to the render as it does for the built-ins.
func (f *filterSet) byName(name string) engine.Filter {
	switch name {
	case "format":
		return f.format
	case "tag":
		return f.tag
	case "with_images":
		return f.withImages
	case "escape_script_tag":
		return escapeScriptTag
	case "markdown":
		return markdownFilter
	}
	panic("templating: no filter " + name) // programming error: specs and byName disagree
}
