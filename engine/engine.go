// Package engine is the public face of jinjabox's closed Jinja2
// interpreter: an immutable Environment, parsed Templates and render
// results with the work units spent.
package engine

import (
	"context"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/builtins"
	"github.com/jinjabox/jinjabox/engine/errs"
	"github.com/jinjabox/jinjabox/engine/syntax"
	"github.com/jinjabox/jinjabox/engine/value"
)

// Error is the engine's one error type; use errors.As to get it.
type Error = errs.Error

// ErrorKind is the closed set of error kinds.
type ErrorKind = errs.Kind

// The error kinds.
const (
	KindSyntax    = errs.Syntax
	KindUndefined = errs.Undefined
	KindSecurity  = errs.Security
	KindBudget    = errs.Budget
	KindType      = errs.Type
	KindRender    = errs.Render
	KindInternal  = errs.Internal
)

// Value is a template value (the closed value model).
type Value = value.Value

// FilterFunc, TestFunc: application-registered builtins (trusted code).
type (
	FilterFunc = builtins.FilterFunc
	TestFunc   = builtins.TestFunc
)

// Options configure an Environment. The zero value is Jinja2's defaults
// with the default budget.
type Options struct {
	Autoescape          bool
	TrimBlocks          bool
	LstripBlocks        bool
	KeepTrailingNewline bool
	// Delimiters; the zero value means Jinja2's. syntax.NunjitsuDelimiters
	// gives ${{ }}.
	Delimiters syntax.Delimiters
	// StrictUndefined makes printing, iterating or testing the truth of an
	// undefined value an error (Jinja2's StrictUndefined).
	StrictUndefined bool
	// Limits are the default per-render limits (zero fields: defaults).
	Limits budget.Limits
	// Seed seeds the deterministic generator behind random and lipsum.
	Seed uint64
	// Templates is a trusted in-memory template set for include, import,
	// extends and from. Untrusted templates get none.
	Templates map[string]string
	// Filters, Tests and Globals add to (or replace) the defaults. They
	// are fixed when the environment is built.
	Filters map[string]FilterFunc
	Tests   map[string]TestFunc
	Globals map[string]any
}

// RenderOptions override per-render settings.
type RenderOptions struct {
	// Limits for this render; each non-zero field replaces the
	// environment's (the smaller wins for work units).
	Limits budget.Limits
	// Host is per-render state of the host's registered filters (an image
	// registry, say): they read it from their value.Ctx through the Host
	// method (HostState). The engine never reads or copies it, so an
	// Environment holds no render's state and renders share nothing.
	Host any
	// Context, when set, lets the host cancel the render (activities and
	// servers: a deadline, a client gone). The evaluator polls it at its
	// charge points, every CancelCheckUnits work units or 16 charges,
	// whichever comes first, so a cancelled render stops within that much
	// work and returns a render error that wraps ErrCanceled and ctx.Err()
	// (errors.Is(err, ErrCanceled) and errors.Is(err,
	// context.DeadlineExceeded) hold). Workflow code
	// leaves it nil: there the meter alone bounds a render,
	// deterministically, and nothing is polled.
	Context context.Context
}

// HostState returns the Host of the render c belongs to (RenderOptions),
// or nil: what a registered filter calls to reach its per-render state.
// A Ctx of the host's own (a test's) provides one with a Host method.
func HostState(c value.Ctx) any {
	if h, ok := c.(interface{ Host() any }); ok {
		return h.Host()
	}
	return nil
}

// CancelCheckUnits is how much work a render does between two polls of
// RenderOptions.Context (about 0.1 ms at the calibrated cost per unit).
const CancelCheckUnits = 1 << 16

// Result is a successful render.
type Result struct {
	Output string
	// Units is the work units the render spent; for RenderString, which
	// parses and renders on one meter, the parse's units too.
	Units int64
}
