package templating

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/internal/msgtext"
)

// format is value|format(text_format=None): a registered image gives its
// placeholder; an artefact or TextRenderable type renders itself in the
// text format (argument, else the style's); anything else is unchanged.
func (f *filterSet) format(c value.Ctx, v value.Value, args *value.Args) (value.Value, error) {
	tf, err := f.textFormatArg("format", args)
	if err != nil {
		return value.Value{}, err
	}
	if tok, ok := f.registeredToken(c, v); ok {
		return value.FromString(tok), nil
	}
	return formatValue(c, v, tf), nil
}

// textFormatArg binds the filter's one optional argument, text_format: a
// format name, else (absent or None) the style's format.
func (f *filterSet) textFormatArg(filter string, args *value.Args) (TextFormat, error) {
	var p [1]value.Value
	args.Bind(filter, []string{"text_format"}, p[:])
	if p[0].IsMissing() || p[0].IsNone() {
		return f.style.TextFormat, nil
	}
	t, err := ParseTextFormat(value.ToString(p[0]))
	if err != nil {
		return t, engine.NewError(engine.KindRender, err.Error())
	}
	return t, nil
}

// tag is value|tag(tag_name=None): the value's text wrapped per the
// style's tag style. An artefact's default tag name is its stuff name.
func (f *filterSet) tag(c value.Ctx, v value.Value, args *value.Args) (value.Value, error) {
	var p [1]value.Value
	args.Bind("tag", []string{"tag_name"}, p[:])
	name := ""
	if !p[0].IsMissing() && !p[0].IsNone() {
		name = value.ToString(p[0])
	}
	if v.IsUndefined() {
		detail := ""
		if name != "" {
			detail = " with tag_name " + msgtext.Quote(name)
		}
		return value.Value{}, undefinedFilterError("tag", detail)
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
	if f.style.TagStyle == TagNone && body.IsSafe() {
		return body, nil // Pipelex hands the value back: markup stays markup
	}
	text := value.ToString(body)
	charge(c, int64(len(text))+tagOverhead(name), "tag filter")
	// Pipelex builds the tagged text with an f-string
	// (pipelex/tools/jinja2/jinja2_filters.py: render_any_tagged_for_jinja2):
	// a plain str, a markup body's text taken as it is. Under autoescape
	// Jinja2 then escapes all of it when it is printed, the tag's brackets
	// and name included.
	return value.FromString(wrapTag(f.style.TagStyle, name, text)), nil
}

// escapeScriptTag is value|escape_script_tag as Pipelex defines it
// (pipelex/tools/jinja2/jinja2_filters.py: escape_script_tag,
// re.sub(r"</script>", r"<\/script>", value, flags=re.IGNORECASE)): every
// "</script>" in any case, by Python's case-insensitive matching (which
// also takes U+017F for s and U+0130, U+0131 for i), becomes the
// lowercase "<\/script>". Non-strings are returned unchanged; a string,
// markup included, comes back a plain string, as re.sub returns str.
func escapeScriptTag(c value.Ctx, v value.Value, args *value.Args) (value.Value, error) {
	if args.Len() != 0 {
		return value.Value{}, engine.NewError(engine.KindType, "escape_script_tag() takes no arguments")
	}
	if !v.IsString() {
		return v, nil
	}
	s := v.Str()
	charge(c, int64(len(s))*2, "escape_script_tag")
	return value.FromString(replaceScriptClose(s)), nil
}

// scriptLetters are the runes Python's re.IGNORECASE matches for each
// letter of "script".
var scriptLetters = [6][]rune{
	{'s', 'S', 0x17F}, {'c', 'C'}, {'r', 'R'}, {'i', 'I', 0x130, 0x131}, {'p', 'P'}, {'t', 'T'},
}

// scriptCloseAt returns the length of a case-insensitive "</script>" at
// the start of s, or 0.
func scriptCloseAt(s string) int {
	if len(s) < 9 || s[0] != '<' || s[1] != '/' {
		return 0
	}
	i := 2
	for _, set := range scriptLetters {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !slices.Contains(set, r) {
			return 0
		}
		i += size
	}
	if i < len(s) && s[i] == '>' {
		return i + 1
	}
	return 0
}

// replaceScriptClose is the linear scan behind escape_script_tag.
func replaceScriptClose(s string) string {
	var sb strings.Builder
	last := 0
	for i := 0; i+9 <= len(s); i++ {
		if s[i] != '<' {
			continue
		}
		if n := scriptCloseAt(s[i:]); n > 0 {
			if sb.Len() == 0 {
				sb.Grow(len(s) + 8)
			}
			sb.WriteString(s[last:i])
			sb.WriteString(`<\/script>`)
			last = i + n
			i = last - 1
		}
	}
	if last == 0 {
		return s
	}
	sb.WriteString(s[last:])
	return sb.String()
}
