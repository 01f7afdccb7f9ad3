package templating

import (
	"context"
	"sync"

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
	// The template is parsed under them too.
	Limits budget.Limits
	// WorkUnits, when positive, lowers this render's work units below
	// Limits' (a task-wide meter's remainder) without changing the
	// environment or the parse: the render either finishes with the
	// same output or fails on work_units.
	WorkUnits int64
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

// Render renders src once in the category, parse and render: the
// one-off form of Set.Render. Errors are *engine.Error.
func Render(cat Category, style Style, name, src string, data map[string]any, rc RenderConfig) (Rendered, error) {
	return NewSet().Render(cat, style, name, src, data, rc)
}

// Environments is a cache of environments, one per category, style and
// settings, safe for concurrent use: what a host rendering one-off
// templates from several goroutines (the activities) keeps, so no render
// builds an environment. It holds no template.
type Environments struct {
	mu sync.Mutex
	m  map[envKey]*engine.Environment
}

// Render parses src in the cached environment of its category and
// renders it with rc's image registry (nil: a fresh one).
func (e *Environments) Render(cat Category, style Style, name, src string, data map[string]any, rc RenderConfig) (Rendered, error) {
	t, err := e.Parse(cat, style, name, src, rc)
	if err != nil {
		return Rendered{}, err
	}
	return renderParsed(t, data, rc)
}

// Parse parses src (sigils expanded when rc.Sigils) in the cached
// environment of its category, style and rc's settings: what Render
// renders, for a caller that renders it from a prepared context
// (RenderPrepared).
func (e *Environments) Parse(cat Category, style Style, name, src string, rc RenderConfig) (*engine.Template, error) {
	cfg := Config{Strict: rc.Strict, Limits: rc.Limits}
	k := envKey{cat: cat, style: style, strict: cfg.Strict, limits: cfg.Limits}
	e.mu.Lock()
	env, ok := e.m[k]
	if !ok {
		var err error
		if env, err = NewEnvironmentWith(cat, style, cfg); err != nil {
			e.mu.Unlock()
			return nil, err
		}
		if e.m == nil {
			e.m = map[envKey]*engine.Environment{}
		}
		e.m[k] = env
	}
	e.mu.Unlock()
	return env.Parse(name, Prepare(src, rc.Sigils))
}

// Set holds one engine environment per category, style, strictness and
// limits, and the templates parsed in them, each parsed once: what a
// runner renders a bundle's templates with. An environment holds no
// render's state (the image registry is the render's), so renders share
// nothing but the parsed trees. A Set is not safe for concurrent use.
type Set struct {
	envs map[envKey]*engine.Environment
	tpls map[tplKey]parsed
}

type envKey struct {
	cat    Category
	style  Style
	strict bool
	limits budget.Limits
}

type tplKey struct {
	env    envKey
	name   string
	src    string
	sigils bool
}

// parsed is a parse's outcome, kept so a failing source is not parsed
// again either.
type parsed struct {
	t   *engine.Template
	err error
}

// NewSet returns an empty set.
func NewSet() *Set {
	return &Set{envs: map[envKey]*engine.Environment{}, tpls: map[tplKey]parsed{}}
}

// Parsed is the number of templates the set has parsed.
func (s *Set) Parsed() int { return len(s.tpls) }

// Environment returns the set's environment for the category, style and
// settings, built on first use.
func (s *Set) Environment(cat Category, style Style, cfg Config) (*engine.Environment, error) {
	k := envKey{cat: cat, style: style, strict: cfg.Strict, limits: cfg.Limits}
	if env, ok := s.envs[k]; ok {
		return env, nil
	}
	env, err := NewEnvironmentWith(cat, style, cfg)
	if err != nil {
		return nil, err
	}
	s.envs[k] = env
	return env, nil
}

// Parse parses src in the category (sigils expanded when rc.Sigils)
// under rc's limits, once per name, source and settings.
func (s *Set) Parse(cat Category, style Style, name, src string, rc RenderConfig) (*engine.Template, error) {
	cfg := Config{Strict: rc.Strict, Limits: rc.Limits}
	k := tplKey{env: envKey{cat: cat, style: style, strict: cfg.Strict, limits: cfg.Limits}, name: name, src: src, sigils: rc.Sigils}
	if p, ok := s.tpls[k]; ok {
		return p.t, p.err
	}
	env, err := s.Environment(cat, style, cfg)
	if err != nil {
		return nil, err
	}
	t, err := env.Parse(name, Prepare(src, rc.Sigils))
	s.tpls[k] = parsed{t, err}
	return t, err
}

// Render renders src in the category with rc's image registry (nil: a
// fresh one for this render) as the render's state. The parse is the
// set's: a source rendered again is not parsed again. Units count the
// render only.
func (s *Set) Render(cat Category, style Style, name, src string, data map[string]any, rc RenderConfig) (Rendered, error) {
	t, err := s.Parse(cat, style, name, src, rc)
	if err != nil {
		return Rendered{}, err
	}
	return renderParsed(t, data, rc)
}

// renderParsed renders a parsed template, copying data in, with rc's
// image registry (nil: a fresh one) as the render's state.
func renderParsed(t *engine.Template, data map[string]any, rc RenderConfig) (Rendered, error) {
	return renderWith(rc, func(ro engine.RenderOptions) (engine.Result, error) { return t.RenderResult(data, ro) })
}

// RenderPrepared renders a parsed template (Set.Parse, Environments.Parse)
// from a prepared context (PrepareData) with rc's image registry (nil: a
// fresh one) as the render's state: the output, error and units of a
// render of the same template that copies the context's data in, without
// the copy. Nothing the render does changes c, so renders from one
// context may run at once.
func RenderPrepared(t *engine.Template, c *engine.Prepared, rc RenderConfig) (Rendered, error) {
	return renderWith(rc, func(ro engine.RenderOptions) (engine.Result, error) { return t.RenderPrepared(c, ro) })
}

// renderWith runs one render (render, under the options of rc) and
// collects its outcome: the one place a render's options and result are
// made, whichever way its data comes in.
func renderWith(rc RenderConfig, render func(engine.RenderOptions) (engine.Result, error)) (Rendered, error) {
	reg := rc.Images
	if reg == nil {
		reg = NewImageRegistry()
	}
	ro := engine.RenderOptions{Limits: rc.Limits, Host: reg, Context: rc.Context}
	if rc.WorkUnits > 0 {
		ro.Limits.WorkUnits = rc.WorkUnits // the engine takes the smaller of this and the environment's
	}
	res, err := render(ro)
	if err != nil {
		return Rendered{}, err
	}
	return Rendered{Text: res.Output, Images: reg.Images(), Units: res.Units}, nil
}
