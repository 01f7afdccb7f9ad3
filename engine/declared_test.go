package engine

import (
	"testing"

	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/policy"
)

// testSurface is a host type declaring its template surface (P12) the way
// a host's own types do (the method layer's input artefact is one):
// content fields, two readable underscore names, the methods get and
// iter_keys, and host methods that are not on the surface (Undeclared).
type testSurface struct {
	tag, id string
	keys    []string
	fields  map[string]value.Value
}

func newTestSurface(tag, id string, kv ...any) *testSurface {
	s := &testSurface{tag: tag, id: id, fields: map[string]value.Value{}}
	for i := 0; i+1 < len(kv); i += 2 {
		k := kv[i].(string)
		s.keys = append(s.keys, k)
		switch v := kv[i+1].(type) {
		case string:
			s.fields[k] = value.FromString(v)
		case int:
			s.fields[k] = value.FromInt(int64(v))
		}
	}
	return s
}

func init() { policy.DeclareSurfaceNames("_surface_tag", "_surface_id") }

var testSurfaceHostMethods = map[string]bool{"host_method": true, "model_dump": true, "items": true}

func (*testSurface) TemplateSurface() {}
func (*testSurface) TypeName() string { return "TestSurface" }

func (*testSurface) ReadsPrivate(name string) bool {
	return name == "_surface_tag" || name == "_surface_id"
}
func (*testSurface) Undeclared(name string) bool { return testSurfaceHostMethods[name] }

func (s *testSurface) Attr(c value.Ctx, name string) (value.Value, bool) {
	switch name {
	case "_surface_tag":
		return value.FromString(s.tag), true
	case "_surface_id":
		return value.FromString(s.id), true
	case "get", "iter_keys":
		return value.FromCallable(&testSurfaceMethod{s, name}), true
	}
	v, ok := s.fields[name]
	return v, ok
}

func (s *testSurface) Item(c value.Ctx, key value.Value) (value.Value, bool) {
	if !key.IsString() {
		return value.Value{}, false
	}
	return s.Attr(c, key.Str())
}

type testSurfaceMethod struct {
	s    *testSurface
	name string
}

func (m *testSurfaceMethod) CallName() string { return "TestSurface." + m.name }

func (m *testSurfaceMethod) Call(c value.Ctx, args *value.Args) value.Value {
	if m.name == "get" && len(args.Pos) > 0 && args.Pos[0].IsString() {
		if v, ok := m.s.fields[args.Pos[0].Str()]; ok {
			return v
		}
		return value.NoneValue
	}
	out := make([]value.Value, 0, len(m.s.keys))
	for _, k := range m.s.keys {
		out = append(out, value.FromString(k))
	}
	return value.NewList(out)
}

// TestDeclaredSurface holds the generic mechanism: a name a host declares
// passes the literal rule and reads on its surface only; it is refused on
// a plain dict (by attribute: a dict's own key read by subscript is data,
// P2) and on undefined; other underscore names stay refused.
func TestDeclaredSurface(t *testing.T) {
	s := newTestSurface("t1", "i1", "text", "hello")
	data := map[string]any{"s": s, "d": map[string]any{"_surface_tag": 1}}
	runSandboxCases(t, Options{}, []sandboxCase{
		{"dot", "{{ s._surface_tag }}", data, 0, "t1"},
		{"bracket", "{{ s['_surface_tag'] }}", data, 0, "t1"},
		{"attr-filter", "{{ s|attr('_surface_tag') }}", data, 0, "t1"},
		{"field", "{{ s.text }}", data, 0, "hello"},
		{"method", "{{ s.get('text') }}{{ s.iter_keys() }}", data, 0, "hello['text']"},
		{"on-dict", "{{ d._surface_tag }}", data, KindSecurity, ""},
		{"on-undefined", "{{ nope._surface_tag }}", data, KindSecurity, ""},
		{"undeclared-underscore", "{{ s._other }}", data, KindSecurity, ""},
		{"host-method", "{{ s.host_method }}", data, KindSecurity, ""},
	})
}
