// Package policy says what a template may reach.
package policy

import "strings"

// IsPrivateName reports whether an attribute name is refused by the
// underscore rule (P1).
func IsPrivateName(name string) bool { return strings.HasPrefix(name, "_") }
