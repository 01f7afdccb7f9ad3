package builtins

import "github.com/jinjabox/jinjabox/engine/value"

// LookupMethod returns the bound method name of a plain value (str, dict,
// list, tuple, int, float), through the audited allowlist in package policy.
// The underscore rule has already been applied by the caller.
func LookupMethod(c value.Ctx, recv value.Value, name string) (m value.Value, st MethodStatus, reason string) {
	return value.Value{}, MethodNotFound, ""
}
