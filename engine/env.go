package engine

import (
	"github.com/jinjabox/jinjabox/engine/errs"
	"github.com/jinjabox/jinjabox/engine/syntax"
)

// Environment holds the configuration, registries and trusted template set.
// It is immutable once built and safe for concurrent use.
type Environment struct {
	opts Options
}

// Template is a parsed template, immutable and safe for concurrent renders.
type Template struct {
	env  *Environment
	tree *syntax.Template
}

// NewEnvironment builds an environment.
func NewEnvironment(o Options) (*Environment, error) {
	return &Environment{opts: o}, nil
}

// Parse parses source under the environment's default limits.
func (e *Environment) Parse(name, source string) (*Template, error) {
	return nil, errs.New(errs.Internal, "not implemented yet")
}

// RenderString parses and renders source in one go, parse and render both
// charged to one meter under ro's limits.
func (e *Environment) RenderString(name, source string, data map[string]any, ro RenderOptions) (Result, error) {
	return Result{}, errs.New(errs.Internal, "not implemented yet")
}

// Render renders the template with data.
func (t *Template) Render(data map[string]any) (string, error) {
	r, err := t.RenderResult(data, RenderOptions{})
	return r.Output, err
}

// RenderResult renders with per-render options and reports the units spent.
func (t *Template) RenderResult(data map[string]any, ro RenderOptions) (Result, error) {
	return Result{}, errs.New(errs.Internal, "not implemented yet")
}

// RenderValue evaluates a template that is a lone {{ expr }} and returns
// the typed value; any other template renders to a string value.
func (t *Template) RenderValue(data map[string]any) (Value, error) {
	return Value{}, errs.New(errs.Internal, "not implemented yet")
}
