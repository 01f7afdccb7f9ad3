package policy

// Surface declares what a host Go type exposes to templates (a template
// surface such as a Pipelex artefact, rule P12): the methods a template may
// call and the underscore names it may read. Everything else is either a
// plain field name (read as data) or refused: an undeclared underscore name
// is a security error, an undeclared method name too.
type Surface struct {
	// TypeName is the name used in messages.
	TypeName string
	// Methods are the template-callable method names.
	Methods []string
	// Readable are the underscore names the type declares readable
	// (metadata such as "_stuff_name"); they are exempt from the private
	// name rule on this type only.
	Readable []string
}

// Callable reports whether name is a declared method.
func (s *Surface) Callable(name string) bool {
	return s != nil && contains(s.Methods, name)
}

// CanRead reports whether an attribute name may be read on the surface:
// any non-private name, or a private name the surface declares.
func (s *Surface) CanRead(name string) bool {
	if !IsPrivateName(name) {
		return true
	}
	return s != nil && contains(s.Readable, name)
}

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

// Declares reports whether a private name is declared readable by any of
// the surfaces (the parser uses it to defer the P4 check to render time).
func Declares(surfaces []*Surface, name string) bool {
	for _, s := range surfaces {
		if s != nil && contains(s.Readable, name) {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
