package engine

import (
	"testing"

	"github.com/jinjabox/jinjabox/engine/errs"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/policy"
)

// testSurface is a host type declaring its template surface (P12) the way
// a host's own types do (the method layer's input artefact is one): one
// content field, one readable underscore name, one host method that is
// not on the surface.
type testSurface struct{ tag, text string }

func init() { policy.DeclareSurfaceNames("_surface_tag") }

func (*testSurface) TemplateSurface() {}
func (*testSurface) TypeName() string { return "TestSurface" }

func (*testSurface) ReadsPrivate(name string) bool { return name == "_surface_tag" }
func (*testSurface) Undeclared(name string) bool   { return name == "host_method" }

func (s *testSurface) Attr(c value.Ctx, name string) (value.Value, bool) {
	switch name {
	case "_surface_tag":
		return value.FromString(s.tag), true
	case "text":
		return value.FromString(s.text), true
	case "host_method":
		value.Throwf(errs.Security, "a template may not read %s", errs.Quote(name))
	}
	return value.Value{}, false
}

func (s *testSurface) Item(c value.Ctx, key value.Value) (value.Value, bool) {
	if !key.IsString() {
		return value.Value{}, false
	}
	return s.Attr(c, key.Str())
}

// TestDeclaredSurface holds the generic mechanism: a name a host declares
// passes the literal rule and reads on its surface only; it is refused on
// a plain dict (by attribute: a dict's own key read by subscript is data,
// P2) and on undefined; other underscore names stay refused.
func TestDeclaredSurface(t *testing.T) {
	s := &testSurface{tag: "t1", text: "hello"}
	data := map[string]any{"s": s, "d": map[string]any{"_surface_tag": 1}}
	runSandboxCases(t, Options{}, []sandboxCase{
		{"dot", "{{ s._surface_tag }}", data, 0, "t1"},
		{"bracket", "{{ s['_surface_tag'] }}", data, 0, "t1"},
		{"attr-filter", "{{ s|attr('_surface_tag') }}", data, 0, "t1"},
		{"field", "{{ s.text }}", data, 0, "hello"},
		{"on-dict", "{{ d._surface_tag }}", data, errs.Security, ""},
		{"on-undefined", "{{ nope._surface_tag }}", data, errs.Security, ""},
		{"undeclared-underscore", "{{ s._other }}", data, errs.Security, ""},
		{"host-method", "{{ s.host_method }}", data, errs.Security, ""},
	})
}
