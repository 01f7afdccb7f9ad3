package method

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/method/templating"
	"github.com/jinjabox/jinjabox/policy"
)

// PipeCompose: a template rendered in its category (basic, markdown,
// html, mermaid), or a construct: an object built field by field from
// fixed values, paths into memory and small templates.

// ComposeFields are PipeCompose's own fields: Template xor Construct.
type ComposeFields struct {
	Template  *ComposeTemplate `json:"template,omitempty"`
	Construct *Construct       `json:"construct,omitempty"`
}

var kindCompose = &Kind{
	Name: KindCompose,
	Keys: []string{"template", "construct"},
	fields: func(p *Pipe) []string {
		var s set
		s.add("template", p.Template != nil)
		s.add("construct", p.Construct != nil)
		return s
	},
	check: checkCompose,
	run:   runCompose,
}

func checkCompose(c *pipeCheck) {
	p := c.p
	// Pipelex's PipeComposeBlueprint.validate_output.
	if p.Output != "" && ParseConceptSpec(p.Output).List {
		c.add("output", CodeInvalidPipe, "PipeCompose produces one output, not "+strconv.Quote(p.Output))
	}
	u := used{}
	// failed: what the pipe reads is unknown (a template that does not
	// parse, or a shape Pipelex refuses before it looks at the inputs),
	// so no input is reported unused.
	failed := false
	defer func() { c.requireAllUsed(u, failed) }()
	switch {
	case p.Template != nil && p.Construct != nil:
		c.add("template", CodeInvalidPipe, "template and construct are mutually exclusive")
		failed = true
	case p.Template == nil && p.Construct == nil:
		c.add("template", CodeInvalidPipe, "a template or a construct is required")
		failed = true
	case p.Template != nil:
		t := p.Template
		switch t.Category {
		case templating.Basic, templating.Markdown, templating.HTML, templating.Mermaid:
		default:
			c.add("template", CodeInvalidPipe, "category must be basic, markdown, html or mermaid, not "+strconv.Quote(string(t.Category)))
			failed = true
			return
		}
		if t.TemplatingStyle != nil {
			if _, err := t.TemplatingStyle.Resolved(); err != nil {
				c.add("templating_style", CodeInvalidPipe, err.Error())
			}
		}
		extra := map[string]bool{}
		for _, k := range sortedKeys(t.ExtraContext) {
			extra[k] = true
		}
		info := c.checkTemplate(tmplField{field: "template", src: t.Template, cat: t.Category, sigils: composeSigils(t.Category), extra: extra})
		failed = info == nil
		u.addFacts(info)
	default:
		failed = !c.construct(p.Construct, "", u)
	}
}

// composeSigils: Pipelex preprocesses every compose template, whatever its
// category (PipeCompose renders through preprocess_template), so sigils
// expand in html and mermaid too; the newest rules leave CSS at-rules,
// inline "@" words and "$" next to a word as text.
func composeSigils(c templating.Category) bool {
	return true
}

// construct checks a construct's fields, collecting the inputs they use;
// it reports whether every template parsed.
func (c *pipeCheck) construct(k *Construct, prefix string, u used) bool {
	ok := true
	for _, f := range k.Fields {
		path := prefix + f.Name
		field := "construct field '" + path + "'"
		if f.Name == "" || policy.IsPrivateName(f.Name) {
			c.add(field, CodePrivateName, "construct field names may not be empty or start with an underscore")
		}
		switch f.Method {
		case FieldFrom:
			c.checkPath(field, f.From, true)
			c.checkFromFields(field, f.From)
			u.addPath(f.From)
			if f.KeyedBy != "" {
				c.checkPath(field, f.KeyedBy, false)
			}
		case FieldTemplate:
			info := c.checkTemplate(tmplField{field: field, src: f.Template, cat: templating.Basic, sigils: true})
			ok = ok && info != nil
			u.addFacts(info)
		case FieldNested:
			ok = c.construct(f.Nested, path+".", u) && ok
		}
	}
	return ok
}

// checkFromFields follows a from path's segments through the declared
// fields of its root input's concept, and reports the first segment that
// names no field of a structured concept. Pipelex finds the same path
// broken when validate dry-runs the pipe: StructuredContentComposer.
// _resolve_dotted_path raises StructuredContentComposerValueError
// ("Cannot resolve path ...: attribute ... not found"), which
// PipeCompose._dry_run_operator_pipe lets through unless the inputs are
// mocks of a run. The walk stops, passing the path, wherever the shape is
// not declared: a list, a native or text-like concept, a scalar, dict or
// object field, Dynamic or Anything; so it never refuses a path that can
// resolve.
func (c *pipeCheck) checkFromFields(field, path string) {
	segs, err := ParsePath(path)
	if err != nil || len(segs) < 2 {
		return
	}
	spec, ok := c.p.Inputs[segs[0]]
	if !ok {
		return
	}
	ps := ParseConceptSpec(spec)
	if ps.List {
		return
	}
	name, ok := c.resolveConcept(ps.Name)
	if !ok {
		return
	}
	cs := c.v.lib.Concepts()
	for i, seg := range segs[1:] {
		if IsNativeConcept(name) || cs.Base(name) != name {
			return
		}
		fields := cs.Fields(name)
		j := slices.IndexFunc(fields, func(f Field) bool { return f.Name == seg })
		if j < 0 {
			names := make([]string, len(fields))
			for k, f := range fields {
				names[k] = f.Name
			}
			c.add(field, CodeInvalidPath, "from path "+strconv.Quote(path)+": "+strconv.Quote(strings.Join(segs[:i+1], "."))+
				" is a "+BareConcept(name)+", which has no field "+strconv.Quote(seg)+" (its fields: "+strings.Join(names, ", ")+")")
			return
		}
		f := fields[j]
		switch {
		case f.Type == "concept" && f.ConceptRef != "":
			name = f.ConceptRef
		case !IsFieldType(f.Type):
			name = f.Type
		default:
			return // a scalar, list, dict or object: no declared shape below
		}
		if name = canonicalNative(name); !IsNativeConcept(name) {
			if _, ok := cs[name]; !ok {
				return
			}
		}
	}
}

func runCompose(x *invocation) (*Stuff, []Stuff, error) {
	p := x.p
	if t := p.Template; t != nil {
		out, err := x.renderWith("template", t.Category, x.style(t.TemplatingStyle), t.Template, t.ExtraContext,
			templating.RenderConfig{Sigils: composeSigils(t.Category), Strict: t.StrictUndefined})
		if err != nil {
			return nil, nil, err
		}
		def := ConceptText
		if t.Category == templating.HTML {
			def = ConceptHTML
		}
		return x.stuff(p.outputOr(def), textContent(out)), nil, nil
	}
	if p.Construct == nil {
		return nil, nil, x.fail("template", engine.NewError(engine.KindRender, "a template or a construct is required"))
	}
	obj, err := x.construct(p.Construct, "", x.mem.PathRoot())
	if err != nil {
		return nil, nil, err
	}
	return x.stuff(p.outputOr(ConceptAnything), obj), nil, nil
}

func (x *invocation) construct(c *Construct, prefix string, root map[string]any) (*value.OrderedMap, error) {
	out := &value.OrderedMap{}
	for _, f := range c.Fields {
		path := prefix + f.Name
		field := "construct field '" + path + "'"
		var v any
		var err error
		switch f.Method {
		case FieldFixed:
			v = f.Fixed
		case FieldFrom:
			if f.KeyedBy != "" {
				v, err = ListToDictKeyedBy(root, f.From, f.KeyedBy)
			} else {
				v, err = WalkPath(root, f.From)
			}
			if err != nil {
				err = x.fail(field, err)
			}
		case FieldTemplate:
			v, err = x.render(field, templating.Basic, x.style(nil), f.Template, true, nil)
		case FieldNested:
			v, err = x.construct(f.Nested, path+".", root)
		}
		if err != nil {
			return nil, err
		}
		out.Keys = append(out.Keys, f.Name)
		out.Values = append(out.Values, v)
	}
	return out, nil
}

// ComposeTemplate is PipeCompose's template mode. In JSON it is either a
// string (category basic) or an object.
type ComposeTemplate struct {
	Template        string              `json:"template"`
	Category        templating.Category `json:"category,omitempty"`
	TemplatingStyle *templating.Style   `json:"templating_style,omitempty"`
	// ExtraContext is merged into the render context (plain JSON data).
	ExtraContext map[string]any `json:"extra_context,omitempty"`
	// StrictUndefined renders as a document template: using an undefined
	// value is an error, though {% if x %} still probes presence.
	StrictUndefined bool `json:"strict_undefined,omitempty"`
}

// UnmarshalJSON accepts a bare string or the object form.
func (t *ComposeTemplate) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = ComposeTemplate{Template: s, Category: templating.Basic}
		return nil
	}
	type plain ComposeTemplate
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	// Decode extra_context again keeping numbers exact and key order (the
	// standard decoder would turn 1 into 1.0 when printed).
	var raw struct {
		ExtraContext json.RawMessage `json:"extra_context"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if len(raw.ExtraContext) > 0 && string(raw.ExtraContext) != "null" {
		ec, err := value.DecodeJSONObject(raw.ExtraContext)
		if err != nil {
			return fmt.Errorf("extra_context: %w", err)
		}
		p.ExtraContext = ec
	}
	if p.Category == "" {
		p.Category = templating.Basic
	}
	*t = ComposeTemplate(p)
	return nil
}

// ConstructMethod is how one construct field gets its value.
type ConstructMethod int

// The construct field methods.
const (
	FieldFixed    ConstructMethod = iota + 1 // a literal value
	FieldFrom                                // {"from": "a.b.c"[, "list_to_dict_keyed_by": "k"]}
	FieldTemplate                            // {"template": "..."}
	FieldNested                              // a nested construct
)

// Construct is PipeCompose's construct mode: fields in declaration order.
type Construct struct {
	Fields []ConstructField
}

// ConstructField is one field of a construct.
type ConstructField struct {
	Name   string
	Method ConstructMethod
	// Fixed is the literal (FieldFixed), plain JSON data.
	Fixed any
	// From and KeyedBy are the paths of FieldFrom.
	From    string
	KeyedBy string
	// Template is FieldTemplate's source (category basic, sigils on).
	Template string
	// Nested is FieldNested's construct.
	Nested *Construct
}

// UnmarshalJSON decodes an object keeping its key order, then classifies
// each field.
func (c *Construct) UnmarshalJSON(b []byte) error {
	raw, err := value.DecodeJSON(b)
	if err != nil {
		return err
	}
	om, ok := raw.(*value.OrderedMap)
	if !ok {
		return fmt.Errorf("construct must be an object")
	}
	out, err := constructFrom(om)
	if err != nil {
		return err
	}
	*c = *out
	return nil
}

// MarshalJSON writes the construct back in its JSON form.
func (c *Construct) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, f := range c.Fields {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(f.Name)
		buf.Write(k)
		buf.WriteByte(':')
		var v any
		switch f.Method {
		case FieldFixed:
			v = plainJSON(f.Fixed)
		case FieldFrom:
			m := map[string]string{"from": f.From}
			if f.KeyedBy != "" {
				m["list_to_dict_keyed_by"] = f.KeyedBy
			}
			v = m
		case FieldTemplate:
			v = map[string]string{"template": f.Template}
		case FieldNested:
			v = f.Nested
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		buf.Write(b)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

func constructFrom(om *value.OrderedMap) (*Construct, error) {
	c := &Construct{}
	for i, name := range om.Keys {
		f := ConstructField{Name: name}
		switch v := om.Values[i].(type) {
		case *value.OrderedMap:
			keys := slices.Clone(v.Keys)
			slices.Sort(keys)
			get := func(k string) (string, bool, error) {
				j := slices.Index(v.Keys, k)
				if j < 0 {
					return "", false, nil
				}
				s, ok := v.Values[j].(string)
				if !ok {
					return "", true, fmt.Errorf("construct field %q: %s must be a string", name, k)
				}
				return s, true, nil
			}
			from, hasFrom, err := get("from")
			if err != nil {
				return nil, err
			}
			tmpl, hasTmpl, err := get("template")
			if err != nil {
				return nil, err
			}
			keyed, hasKeyed, err := get("list_to_dict_keyed_by")
			if err != nil {
				return nil, err
			}
			switch {
			case hasFrom && hasTmpl:
				return nil, fmt.Errorf("construct field %q: from and template are mutually exclusive", name)
			case hasFrom:
				for _, k := range keys {
					if k != "from" && k != "list_to_dict_keyed_by" {
						return nil, fmt.Errorf("construct field %q: a from table allows only from and list_to_dict_keyed_by, not %q", name, k)
					}
				}
				f.Method, f.From, f.KeyedBy = FieldFrom, from, keyed
			case hasTmpl:
				if len(keys) != 1 {
					return nil, fmt.Errorf("construct field %q: a template table allows only template", name)
				}
				f.Method, f.Template = FieldTemplate, tmpl
			case hasKeyed:
				return nil, fmt.Errorf("construct field %q: list_to_dict_keyed_by needs from", name)
			default:
				if len(v.Keys) == 0 {
					return nil, fmt.Errorf("construct field %q: empty construct", name)
				}
				nested, err := constructFrom(v)
				if err != nil {
					return nil, err
				}
				f.Method, f.Nested = FieldNested, nested
			}
		default:
			f.Method, f.Fixed = FieldFixed, v
		}
		c.Fields = append(c.Fields, f)
	}
	if len(c.Fields) == 0 {
		return nil, fmt.Errorf("empty construct")
	}
	return c, nil
}

// plainJSON turns decoded data (OrderedMap, json.Number) into values
// encoding/json writes back faithfully.
func plainJSON(x any) any {
	switch t := x.(type) {
	case *value.OrderedMap:
		m := make(map[string]any, len(t.Keys))
		for i, k := range t.Keys {
			m[k] = plainJSON(t.Values[i])
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = plainJSON(e)
		}
		return out
	}
	return x
}
