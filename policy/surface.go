package policy

// surfaceReadable are the underscore names that the registered template
// surfaces declare readable (P12: the metadata of a Pipelex input
// artefact). Literal uses of them are not refused before rendering (P4):
// the lookup chokepoint checks them at render time, on the receiver, and
// refuses them on anything that is not a surface declaring them.
var surfaceReadable = map[string]bool{
	"_stuff_name":    true,
	"_content_class": true,
	"_concept_code":  true,
	"_stuff_code":    true,
}

// SurfaceReadable reports whether a registered template surface declares
// the underscore name readable (its check is deferred to render time).
func SurfaceReadable(name string) bool { return surfaceReadable[name] }
