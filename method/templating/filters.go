package templating

import (
	"strings"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/errs"
	"github.com/jinjabox/jinjabox/engine/value"
)

// format is value|format(text_format=None): a registered image gives its
// placeholder; an artefact or TextRenderable type renders itself in the
// text format (argument, else the style's); anything else is unchanged.
func (f *filterSet) format(c value.Ctx, v value.Value, args *value.Args) value.Value {
	tf := f.textFormatArg("format", args)
	if tok, ok := f.registeredToken(c, v); ok {
		return value.FromString(tok)
	}
	return formatValue(c, v, tf)
}

// textFormatArg binds the filter's one optional argument, text_format: a
// format name, else (absent or None) the style's format.
func (f *filterSet) textFormatArg(filter string, args *value.Args) TextFormat {
	var p [1]value.Value
	args.Bind(filter, []string{"text_format"}, p[:])
	if p[0].IsMissing() || p[0].IsNone() {
		return f.style.TextFormat
	}
	t, err := ParseTextFormat(value.ToString(p[0]))
	if err != nil {
		value.Throw(errs.Render, err.Error())
	}
	return t
}

// tag is value|tag(tag_name=None): the value's text wrapped per the
// style's tag style. An artefact's default tag name is its stuff name.
func (f *filterSet) tag(c value.Ctx, v value.Value, args *value.Args) value.Value {
	var p [1]value.Value
	args.Bind("tag", []string{"tag_name"}, p[:])
	name := ""
	if !p[0].IsMissing() && !p[0].IsNone() {
		name = value.ToString(p[0])
	}
	if v.IsUndefined() {
		detail := ""
		if name != "" {
			detail = " with tag_name " + errs.Quote(name)
		}
		throwUndefinedFilter("tag", detail)
	}
	var body value.Value
	if tok, ok := f.registeredToken(c, v); ok {
		body = value.FromString(tok)
	} else if v.Kind() == value.Object {
		if a, ok := v.ObjectImpl().(*StuffArtefact); ok && name == "" {
			name = a.name
		}
		body = formatValue(c, v, f.style.TextFormat)
	} else {
		body = v
	}
	chargeSize(c, body, 2, "tag filter")
	text := value.ToString(body)
	factor := int64(1)
	if c.Autoescape() {
		factor = budget.EscapeFactor
	}
	charge(c, budget.Mul(int64(len(text))+tagOverhead(name), factor), "tag filter")
	if c.Autoescape() {
		// The wrapper is markup; the body and name are text unless the
		// body already is markup.
		if !body.IsSafe() {
			text = value.EscapeHTML(text)
		}
		return value.Safe(wrapTag(f.style.TagStyle, value.EscapeHTML(name), text))
	}
	return value.FromString(wrapTag(f.style.TagStyle, name, text))
}

// escapeScriptTag is value|escape_script_tag: every case-insensitive
// "</script" becomes "<\/script" so text can sit inside a script element
// (JSON embedding). Non-strings are returned unchanged; markup stays
// markup.
func escapeScriptTag(c value.Ctx, v value.Value, args *value.Args) value.Value {
	if args.Len() != 0 {
		value.Throw(errs.Type, "escape_script_tag() takes no arguments")
	}
	if !v.IsString() {
		return v
	}
	s := v.Str()
	charge(c, int64(len(s))*2, "escape_script_tag")
	out := replaceScriptClose(s)
	if v.IsSafe() {
		return value.Safe(out)
	}
	return value.FromString(out)
}

// replaceScriptClose is the linear scan behind escape_script_tag.
func replaceScriptClose(s string) string {
	const pat = "</script"
	var sb strings.Builder
	last := 0
	for i := 0; i+len(pat) <= len(s); i++ {
		if s[i] == '<' && s[i+1] == '/' && strings.EqualFold(s[i+2:i+len(pat)], "script") {
			if sb.Len() == 0 {
				sb.Grow(len(s) + 8)
			}
			sb.WriteString(s[last : i+1])
			sb.WriteString(`\/`)
			sb.WriteString(s[i+2 : i+len(pat)])
			last = i + len(pat)
			i = last - 1
		}
	}
	if last == 0 {
		return s
	}
	sb.WriteString(s[last:])
	return sb.String()
}
