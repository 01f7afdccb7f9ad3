package templating

import "fmt"

// TagStyle is how the tag filter wraps a value.
type TagStyle string

// The tag styles.
const (
	TagXML            TagStyle = "xml"
	TagTicks          TagStyle = "ticks"
	TagSquareBrackets TagStyle = "square_brackets"
	TagNone           TagStyle = "no_tag"
)

// TextFormat is how the format filter renders a value.
type TextFormat string

// The text formats.
const (
	FormatPlain    TextFormat = "plain"
	FormatMarkdown TextFormat = "markdown"
	FormatHTML     TextFormat = "html"
	FormatJSON     TextFormat = "json"
)

// Style drives the tag and format filters. The zero value is
// the default: xml tags, plain text.
type Style struct {
	TagStyle   TagStyle   `json:"tag_style,omitempty"`
	TextFormat TextFormat `json:"text_format,omitempty"`
}

// DefaultStyle is xml tags with plain text (Pipelex's configured default).
var DefaultStyle = Style{TagStyle: TagXML, TextFormat: FormatPlain}

// Resolved fills empty fields with the defaults and rejects unknown ones.
func (s Style) Resolved() (Style, error) {
	if s.TagStyle == "" {
		s.TagStyle = DefaultStyle.TagStyle
	}
	if s.TextFormat == "" {
		s.TextFormat = DefaultStyle.TextFormat
	}
	switch s.TagStyle {
	case TagXML, TagTicks, TagSquareBrackets, TagNone:
	default:
		return s, fmt.Errorf("unknown tag style %q", string(s.TagStyle))
	}
	if _, err := ParseTextFormat(string(s.TextFormat)); err != nil {
		return s, err
	}
	return s, nil
}

// ParseTextFormat checks a text format name.
func ParseTextFormat(s string) (TextFormat, error) {
	switch f := TextFormat(s); f {
	case FormatPlain, FormatMarkdown, FormatHTML, FormatJSON:
		return f, nil
	}
	return "", fmt.Errorf("unknown text format %q", s)
}

// wrapTag wraps body per style; name may be empty (ticks then drops the
// label, xml and square brackets fall back to "data").
func wrapTag(style TagStyle, name, body string) string {
	switch style {
	case TagNone:
		return body
	case TagTicks:
		if name == "" {
			return "```\n" + body + "\n```"
		}
		return name + ": ```\n" + body + "\n```"
	case TagSquareBrackets:
		if name == "" {
			name = "data"
		}
		return "[" + name + "]\n" + body + "\n[/" + name + "]"
	}
	if name == "" {
		name = "data"
	}
	return "<" + name + ">\n" + body + "\n</" + name + ">"
}

// tagOverhead bounds what wrapTag adds around the body, for charging.
func tagOverhead(name string) int64 { return int64(3*len(name)) + 16 }
