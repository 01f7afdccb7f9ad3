package categories

import (
	"context"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine"
)

// RenderConfig are the settings of one categorized render.
type RenderConfig struct {
	// Sigils expands @var, @?var and $var before parsing (prompt and
	// construct templates).
	Sigils bool
	// Strict selects strict undefined.
	Strict bool
	// Limits are this render's limits (zero fields: engine defaults).
	Limits budget.Limits
	// Images collects the images the template references. Nil: a fresh
	// registry for this render. Pass one registry to several renders
	// (system prompt, prompt) to number their images together.
	Images *ImageRegistry
	// Context cancels the render (engine.RenderOptions.Context): an
	// activity passes its own; workflow code leaves it nil.
	Context context.Context
}

// Rendered is a successful categorized render.
type Rendered struct {
	Text string
	// Images are the images of the registry after the render, in number
	// order ([Image 1] first).
	Images []ImageRef
	Units  int64
}

// Prepare returns the source the engine parses for a template of the
// category: sigils expanded when asked.
func Prepare(src string, sigils bool) string {
	if sigils {
		return ExpandSigils(src)
	}
	return src
}

// Render renders src in the category with a fresh environment bound to
// this render's image registry, so filters hold no state across renders.
// Errors are *engine.Error.
func Render(cat Category, style TemplatingStyle, name, src string, data map[string]any, rc RenderConfig) (Rendered, error) {
	reg := rc.Images
	if reg == nil {
		reg = NewImageRegistry()
	}
	env, err := NewEnvironmentWith(cat, style, Config{Strict: rc.Strict, Limits: rc.Limits, Images: reg})
	if err != nil {
		return Rendered{}, err
	}
	res, err := env.RenderString(name, Prepare(src, rc.Sigils), data, engine.RenderOptions{Limits: rc.Limits, Context: rc.Context})
	if err != nil {
		return Rendered{}, err
	}
	return Rendered{Text: res.Output, Images: reg.Images(), Units: res.Units}, nil
}
