package templating

import (
	"sync"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/policy"
)

// StuffArtefact is the template surface of a method input (a Pipelex
// "stuff", Pipelex's StuffArtefact): content fields readable by dot, bracket and get(key, default),
// the four declared metadata names, and the methods get, iter_keys,
// iter_items and iter_values. The wrapped object itself is unreachable.
// The surface is declared on the type (artefactMeta, artefactMethods),
// never taken from an instance.
type StuffArtefact struct {
	name, concept, contentClass, code string
	content                           *value.DictData
	// str is how the artefact prints, made once (the content never
	// changes): the engine asks for it at every print and to size every
	// container holding the artefact (value.Size), so a render that
	// takes the length of a list of artefacts would otherwise format
	// each. A Once, since renders from a prepared context share the
	// artefact.
	strOnce sync.Once
	str     string
}

// artefactMeta are the readable underscore names, in iter_items order.
var artefactMeta = []string{"_stuff_name", "_content_class", "_concept_code", "_stuff_code"}

// The metadata names are declared to the engine's literal name rule (P4),
// which then leaves them to the lookup chokepoint: they read on an
// artefact (ReadsPrivate) and are refused on anything else.
func init() { policy.DeclareSurfaceNames(artefactMeta...) }

// artefactMethods are the declared template-callable methods.
var artefactMethods = map[string]bool{"get": true, "iter_keys": true, "iter_items": true, "iter_values": true}

// artefactHostMethods are the methods the host type (Pipelex's
// StuffArtefact, and the RootModel/pydantic base of its earlier version)
// has but does not declare: reading one is a security error rather than
// undefined (Undeclared), so a probe learns nothing and a typo in a method
// name is reported as what it is. A content field of the same name wins.
var artefactHostMethods = map[string]bool{
	"render_for_tag_async": true, "default_tag_name": true, "render_with_images": true,
	"rendered_for_template_async": true, "rendered_str": true, "render_tagged_for_jinja2": true,
	"model_dump": true, "model_dump_json": true, "model_copy": true, "model_validate": true,
	"model_construct": true, "model_fields": true, "model_extra": true, "dict": true, "json": true,
	"copy": true, "items": true, "keys": true, "values": true, "update": true, "pop": true,
	"setdefault": true, "mro": true,
}

// NewStuffArtefact builds an artefact; content is JSON-shaped data (a map
// of content fields) copied in through the boundary.
func NewStuffArtefact(name, concept, contentClass, code string, content any) (*StuffArtefact, error) {
	v, err := engine.ToValue(content)
	if err != nil {
		return nil, err
	}
	d := v.DictData()
	if v.Kind() != value.Dict {
		d = value.NewDict(1)
		d.SetStr("text", v)
	}
	return &StuffArtefact{name: name, concept: concept, contentClass: contentClass, code: code, content: d}, nil
}

// SealData implements value.Sealer: an artefact in a prepared context
// (shared by concurrent renders) has its content's caches filled first.
func (a *StuffArtefact) SealData() { value.Seal(value.FromDict(a.content)) }

// TemplateSurface marks StuffArtefact as a declared surface.
func (a *StuffArtefact) TemplateSurface() {}

// TypeName implements value.ObjectImpl.
func (a *StuffArtefact) TypeName() string { return "StuffArtefact" }

// Undeclared implements DeclaredSurface: the host type's methods that are
// not on the template surface.
func (a *StuffArtefact) Undeclared(name string) bool { return artefactHostMethods[name] }

// ReadsPrivate implements DeclaredSurface: the readable underscore names
// (registered with the literal name rule by init).
func (a *StuffArtefact) ReadsPrivate(name string) bool {
	for _, m := range artefactMeta {
		if m == name {
			return true
		}
	}
	return false
}

func (a *StuffArtefact) meta(name string) (value.Value, bool) {
	switch name {
	case "_stuff_name":
		return value.FromString(a.name), true
	case "_content_class":
		return value.FromString(a.contentClass), true
	case "_concept_code":
		return value.FromString(a.concept), true
	case "_stuff_code":
		return value.FromString(a.code), true
	}
	return value.Value{}, false
}

// field resolves a content field or a metadata name (what get() sees).
func (a *StuffArtefact) field(name string) (value.Value, bool) {
	if v, ok := a.meta(name); ok {
		return v, true
	}
	return a.content.GetStr(name)
}

// Attr implements value.ObjectImpl.
func (a *StuffArtefact) Attr(c value.Ctx, name string) (value.Value, bool) {
	if v, ok := a.meta(name); ok {
		return v, true
	}
	if artefactMethods[name] {
		return value.FromCallable(&artefactMethod{a: a, name: name}), true
	}
	if v, ok := a.content.GetStr(name); ok {
		return v, true
	}
	return value.Value{}, false
}

// Item implements subscripts: content fields and metadata; any other key
// falls back to the attribute lookup (Pipelex's __getitem__ is getattr).
func (a *StuffArtefact) Item(c value.Ctx, key value.Value) (value.Value, bool) {
	if !key.IsString() {
		return value.Value{}, false
	}
	return a.field(key.Str())
}

// Iter iterates the content field names.
func (a *StuffArtefact) Iter(c value.Ctx) []value.Value { return a.content.Keys() }

// Len is the number of content fields.
func (a *StuffArtefact) Len() int { return a.content.Len() }

// TemplateString is how the artefact prints: its text for text content,
// else its content fields.
func (a *StuffArtefact) TemplateString() string {
	a.strOnce.Do(func() {
		if a.content.Len() == 1 {
			if t, ok := a.content.GetStr("text"); ok {
				a.str = value.ToString(t)
				return
			}
		}
		a.str = value.ToString(value.FromDict(a.content))
	})
	return a.str
}

type artefactMethod struct {
	a    *StuffArtefact
	name string
}

func (m *artefactMethod) CallName() string { return "StuffArtefact." + m.name }

func (m *artefactMethod) Call(c value.Ctx, args *value.Args) value.Value {
	a := m.a
	switch m.name {
	case "get":
		var p [2]value.Value
		args.Bind("get", []string{"key", "default"}, p[:])
		if p[0].IsMissing() {
			fail(engine.KindType, "get() missing required argument 'key'")
		}
		def := value.NoneValue
		if !p[1].IsMissing() {
			def = p[1]
		}
		if p[0].IsString() {
			if v, ok := a.field(p[0].Str()); ok {
				return v
			}
		}
		return def
	}
	if args.Len() != 0 {
		failf(engine.KindType, "%s() takes no arguments", m.name)
	}
	n := a.content.Len() + len(artefactMeta)
	c.Charge(int64(n)*(budget.Elem+budget.Slot), "StuffArtefact."+m.name)
	out := make([]value.Value, 0, n)
	for i := 0; i < a.content.Len(); i++ {
		k, v := a.content.KeyAt(i), a.content.ValAt(i)
		switch m.name {
		case "iter_keys":
			out = append(out, k)
		case "iter_values":
			out = append(out, v)
		default:
			out = append(out, value.NewTuple([]value.Value{k, v}))
		}
	}
	for _, name := range artefactMeta {
		v, _ := a.meta(name)
		switch m.name {
		case "iter_keys":
			out = append(out, value.FromString(name))
		case "iter_values":
			out = append(out, v)
		default:
			out = append(out, value.NewTuple([]value.Value{value.FromString(name), v}))
		}
	}
	return value.NewList(out)
}
