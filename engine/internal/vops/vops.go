// Package vops holds the value model's operations that the evaluator and
// the built-ins share but a host has no use for, written on package
// value's exported accessors so they need none of its private fields.
// They live here, not in value, to keep value's exported surface to what
// a host needs: the value model and the interfaces it implements.
package vops

import (
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/value"
)

// ThrowUndefined raises the undefined error for using u: its hint (why it
// is undefined: "'dict object' has no attribute 'x'"), else its name,
// else a generic message.
func ThrowUndefined(u value.Value) {
	errs.Throw(errs.Undefined, errs.UndefinedMessage(u.UndefHintText(), u.IsMissing(), u.UndefName()))
}
