// Package builtins holds Jinja2's filters, tests and globals, and the
// audited methods of plain values, one file per family. Every builtin
// receives the render's value.Ctx first and charges its work on it before
// it allocates.
package builtins

import "github.com/jinjabox/jinjabox/engine/value"

// FilterFunc is a filter: v|name(args).
type FilterFunc func(c value.Ctx, v value.Value, args *value.Args) value.Value

// TestFunc is a test: v is name(args).
type TestFunc func(c value.Ctx, v value.Value, args *value.Args) bool

// Filters are the default filters by name, filled by each family's init.
var Filters = map[string]FilterFunc{}

// UnwrappedFilter is a default filter without its registered wrapper: a
// caller charges the budget.Step "filter <name>" the wrapper charges, at
// the wrapper's place (just before the call), then calls it.
type UnwrappedFilter FilterFunc

// Unwrapped are the default filters by name as UnwrappedFilter, for the
// evaluator's filter expressions: the wrapper's charge, an interface call
// a filter call, becomes the evaluator's inlined one.
var Unwrapped = map[string]UnwrappedFilter{}

// Tests are the default tests by name, filled by each family's init.
var Tests = map[string]TestFunc{}

// GlobalFuncs are the default global callables (range, lipsum, dict,
// cycler, joiner, namespace), filled by each family's init.
var GlobalFuncs = map[string]value.CallableImpl{}

// MethodStatus is the outcome of a plain-value method lookup.
type MethodStatus uint8

// Method lookup outcomes.
const (
	// MethodNotFound: not on the value's surface; the caller falls back
	// (a dict to its keys) or yields undefined.
	MethodNotFound MethodStatus = iota
	// MethodFound: the returned value is a bound method callable.
	MethodFound
	// MethodRefused: the method exists on the type but is refused by policy
	// (security error); reason explains why.
	MethodRefused
)
