// Package categories holds the Pipelex-style template categories (basic,
// expression, html, markdown, mermaid, llm_prompt, img_gen_prompt), their
// environment options and extra filters (format, tag, with_images,
// escape_script_tag, markdown), and the sigil preprocessor. It sits on top
// of the public engine API; it may import goldmark, which the core engine
// packages must not.
package categories

import (
	"fmt"
	"slices"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine"
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
	// Limits are the per-render limits (zero: engine defaults).
	Limits budget.Limits
	// Images is the registry with_images, tag and format register images
	// in. Nil means each with_images call uses a temporary registry (as
	// Pipelex does without one), so numbering restarts per call; the
	// render helpers below always pass a fresh per-render registry.
	Images *ImageRegistry
}

// NewEnvironment builds an engine environment for the category with the
// style driving tag and format. Each call returns an independent
// environment; filters close over style and registry, never globals.
func NewEnvironment(cat Category, style TemplatingStyle) (*engine.Environment, error) {
	return NewEnvironmentWith(cat, style, Config{})
}

// NewEnvironmentWith is NewEnvironment with explicit settings.
func NewEnvironmentWith(cat Category, style TemplatingStyle, cfg Config) (*engine.Environment, error) {
	s, ok := specs[cat]
	if !ok {
		return nil, fmt.Errorf("unknown template category %q", string(cat))
	}
	filters, err := extraFilters(cat, style, cfg.Images)
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

// extraFilters returns the category's extra filters bound to style and
// images (nil: a temporary registry per with_images call).
func extraFilters(cat Category, style TemplatingStyle, images *ImageRegistry) (map[string]engine.FilterFunc, error) {
	s, ok := specs[cat]
	if !ok {
		return nil, fmt.Errorf("unknown template category %q", string(cat))
	}
	style, err := style.Resolved()
	if err != nil {
		return nil, err
	}
	f := &filterSet{style: style, images: images}
	filters := make(map[string]engine.FilterFunc, len(s.Filters))
	for _, name := range s.Filters {
		filters[name] = f.byName(name)
	}
	return filters, nil
}

// filterSet binds the filters of one environment to its style and
// registry.
type filterSet struct {
	style  TemplatingStyle
	images *ImageRegistry
}

func (f *filterSet) byName(name string) engine.FilterFunc {
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
	panic("categories: no filter " + name) // programming error: specs and byName disagree
}
