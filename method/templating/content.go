package templating

import (
	"strings"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/value"
)

// This file renders values as text for format, tag and with_images. What
// a value can render as is decided by its Go type (a switch on the
// concrete type or an interface the type implements), never by reading
// or calling something the value holds: a dict holding a
// "render_with_images" key is data, not a protocol.

// TextRenderable is implemented by host types that know how to render
// themselves in a text format (Pipelex's TextFormatRenderable).
type TextRenderable interface {
	RenderText(c value.Ctx, tf TextFormat) value.Value
}

// charge spends units for op before the caller allocates.
func charge(c value.Ctx, n int64, op string) {
	c.Charge(n, op)
}

// chargeSize charges the byte size of v (bounded by what is left) so a
// later ToString or encoding of v is paid for before it allocates.
func chargeSize(c value.Ctx, v value.Value, factor int64, op string) {
	left := c.Meter().Left()
	size := value.Size(v, left)
	charge(c, budget.Mul(size, factor), op)
}

// artefactFields returns the content field names and values of an
// artefact, in content order.
func artefactFields(c value.Ctx, a *StuffArtefact) ([]string, []value.Value) {
	keys := a.Iter(c)
	charge(c, int64(len(keys))*budget.Elem, "reading artefact fields")
	names := make([]string, 0, len(keys))
	vals := make([]value.Value, 0, len(keys))
	for _, k := range keys {
		v, _ := a.Item(c, k)
		names = append(names, k.Str())
		vals = append(vals, v)
	}
	return names, vals
}

// textOnly returns the text of an artefact whose content is one text field.
func textOnly(names []string, vals []value.Value) (value.Value, bool) {
	if len(names) == 1 && names[0] == "text" {
		return vals[0], true
	}
	return value.Value{}, false
}

// renderArtefact renders an artefact's content in a text format. HTML
// results are markup (escaped here), the others plain strings.
func renderArtefact(c value.Ctx, a *StuffArtefact, tf TextFormat) value.Value {
	names, vals := artefactFields(c, a)
	for _, v := range vals {
		chargeSize(c, v, 2, "rendering artefact")
	}
	if t, ok := textOnly(names, vals); ok {
		s := value.ToString(t)
		switch tf {
		case FormatHTML:
			charge(c, budget.Mul(int64(len(s)), budget.EscapeFactor), "rendering artefact")
			if t.IsSafe() {
				return value.Safe(s)
			}
			return value.Safe(value.EscapeHTML(s))
		case FormatJSON:
			charge(c, budget.Mul(int64(len(s)), budget.EscapeFactor), "rendering artefact")
			return value.FromString(jsonString(s))
		}
		return value.FromString(s)
	}
	var sb strings.Builder
	switch tf {
	case FormatJSON:
		d := value.NewDict(len(names))
		for i, n := range names {
			d.SetStr(n, vals[i])
		}
		return value.FromString(toJSON(c, value.FromDict(d)))
	case FormatHTML:
		sb.WriteString("<ul>\n")
		for i, n := range names {
			charge(c, budget.Mul(value.Size(vals[i], c.Meter().Left()), budget.EscapeFactor), "rendering artefact")
			sb.WriteString("<li><strong>" + value.EscapeHTML(n) + "</strong>: " + value.Escape(plainValue(vals[i])).Str() + "</li>\n")
		}
		sb.WriteString("</ul>")
		return value.Safe(sb.String())
	case FormatMarkdown:
		for i, n := range names {
			if i > 0 {
				sb.WriteByte('\n')
			}
			sb.WriteString("- **" + n + "**: " + value.ToString(plainValue(vals[i])))
		}
		return value.FromString(sb.String())
	}
	for i, n := range names {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(n + ": " + value.ToString(plainValue(vals[i])))
	}
	return value.FromString(sb.String())
}

// plainValue maps host images to their URL for text rendering.
func plainValue(v value.Value) value.Value {
	if img, ok := imageOf(nil, v); ok {
		return value.FromString(img.URL)
	}
	return v
}

// formatValue is the format filter's rendering of v in tf: artefacts and
// TextRenderable types render themselves, anything else is unchanged.
func formatValue(c value.Ctx, v value.Value, tf TextFormat) value.Value {
	if v.Kind() != value.Object {
		return v
	}
	switch o := v.ObjectImpl().(type) {
	case *StuffArtefact:
		return renderArtefact(c, o, tf)
	case TextRenderable:
		return o.RenderText(c, tf)
	}
	return v
}

// undefinedFilterError is the undefined error for a filter applied to an
// undefined value.
func undefinedFilterError(filter, detail string) error {
	return engine.NewError(engine.KindUndefined, "Cannot use "+filter+" filter on undefined value"+detail)
}
