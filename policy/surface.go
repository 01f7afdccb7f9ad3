package policy

import "sync"

// The registry of surface-declared underscore names (P12). A host package
// whose template surfaces declare underscore names readable (their
// metadata) registers those names once, from an init function. Literal uses
// of a registered name are not refused before rendering (P4): the lookup
// chokepoint checks them at render time, on the receiver, and refuses them
// on anything that is not a surface declaring them. The engine itself
// registers nothing: which names exist is the host's business.
var (
	surfaceMu       sync.RWMutex
	surfaceReadable = map[string]bool{}
)

// DeclareSurfaceNames registers underscore names that a host's template
// surface declares readable. It panics on a name the underscore rule does
// not cover, which would need no declaration.
func DeclareSurfaceNames(names ...string) {
	surfaceMu.Lock()
	defer surfaceMu.Unlock()
	for _, n := range names {
		if !IsPrivateName(n) {
			panic("policy: surface name " + n + " is not an underscore name")
		}
		surfaceReadable[n] = true
	}
}

// SurfaceReadable reports whether a registered template surface declares
// the underscore name readable (its check is deferred to render time).
func SurfaceReadable(name string) bool {
	surfaceMu.RLock()
	defer surfaceMu.RUnlock()
	return surfaceReadable[name]
}
