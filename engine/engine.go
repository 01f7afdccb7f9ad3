// Package engine is the public face of jinjabox's closed Jinja2
// interpreter: an immutable Environment, parsed Templates and render
// results with the work units spent.
package engine

import (
	"context"
	"io/fs"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/syntax"
	"github.com/jinjabox/jinjabox/engine/value"
)

// Value is a template value (the closed value model).
type Value = value.Value

// Filter is a filter the application registers (Options.Filters): trusted
// Go code that the template calls as `v|name(args)`. It returns the
// filter's value, or an error that fails the render: an *Error keeps its
// kind (a KindType error for a wrong argument, say), any other error
// becomes a KindRender error that wraps it, so errors.Is and errors.As
// reach the filter's own error through the render's. A filter charges the
// work it does through c (value.Ctx) before doing it, as the built-in
// filters do: what it leaves uncharged, the budget cannot bound.
type Filter func(c value.Ctx, v Value, args *value.Args) (Value, error)

// Test is a test the application registers (Options.Tests), called as
// `v is name(args)`; its error fails the render as a Filter's does.
type Test func(c value.Ctx, v Value, args *value.Args) (bool, error)

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
	// Limits are the per-render limits (zero fields: the budget's
	// defaults), and the ceilings of every render's own
	// (RenderOptions.Limits).
	Limits budget.Limits
	// Seed seeds the deterministic generator behind random and lipsum.
	Seed uint64
	// Templates is a trusted in-memory template set for include, import,
	// extends and from. Untrusted templates get none.
	Templates map[string]string
	// FS is a trusted template set read from a file system (os.DirFS,
	// embed.FS, fstest.MapFS): a name (a slash-separated path, as fs.FS
	// names files) that Templates does not hold is read from FS on first
	// use, parsed once and kept for the environment's life. A file longer
	// than the source limit is refused before it is read whole. Reading a
	// file is I/O: an environment used in Temporal workflow code takes its
	// templates from Templates, which are in memory and never change.
	FS fs.FS
	// Regex enables the regular-expression filters regex_search,
	// regex_replace, regex_findall and regex_escape (Ansible's names,
	// arguments and results), on Go's RE2 syntax: linear-time matching,
	// no backreferences or lookaround, each compile and scan charged
	// before it runs. Off by default: Jinja2 has none.
	Regex bool
	// Filters, Tests and Globals add to (or replace) the defaults. They
	// are fixed when the environment is built.
	Filters map[string]Filter
	Tests   map[string]Test
	Globals map[string]any
}

// RenderOptions override per-render settings.
type RenderOptions struct {
	// Limits for this render: each non-zero field lowers the
	// environment's; it replaces it only where the environment leaves it
	// at its default. An environment's limit is a ceiling: no render
	// raises it.
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
