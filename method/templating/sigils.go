package templating

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// ExpandSigils rewrites Pipelex prompt sigils into Jinja before parsing:
//
//	@var   -> {{ var|tag("var") }}
//	@?var  -> {% if var %}{{ var|tag("var") }}{% endif %}
//	$var   -> {{ var|format() }}
//
// var may be dotted (a.b.c); a trailing "." is left after the expansion.
// "@@" and "$$" are literal "@" and "$". "@" needs a non-word character
// (or the start) before it, so e-mail addresses stay text. "$" followed by
// a digit is money, not a sigil. A sigil followed by "(", "{" (but not
// "{{"), a quote, or by a word and then "(" or "{", is left alone (CSS
// at-rules, jQuery's $(...), shell ${...}). Text inside {{ }}, {% %} and
// {# #} is copied unchanged.
func ExpandSigils(src string) string {
	if !strings.ContainsAny(src, "@$") {
		return src
	}
	var sb strings.Builder
	sb.Grow(len(src) + 32)
	i := 0
	for i < len(src) {
		ch := src[i]
		if ch == '{' && i+1 < len(src) {
			if end, ok := jinjaClose(src[i+1]); ok {
				j := strings.Index(src[i+2:], end)
				if j < 0 {
					sb.WriteString(src[i:])
					return sb.String()
				}
				stop := i + 2 + j + len(end)
				if end == "%}" && isRawTag(src[i+2:stop-2]) {
					stop = rawEnd(src, stop)
				}
				sb.WriteString(src[i:stop])
				i = stop
				continue
			}
		}
		if ch != '@' && ch != '$' {
			sb.WriteByte(ch)
			i++
			continue
		}
		if i+1 < len(src) && src[i+1] == ch {
			sb.WriteByte(ch) // @@ and $$ escape
			i += 2
			continue
		}
		n, ok := expandAt(&sb, src, i)
		if !ok {
			sb.WriteByte(ch)
			i++
			continue
		}
		i = n
	}
	return sb.String()
}

// isRawTag reports whether the inside of a {% %} tag is "raw" (with
// optional whitespace-control dashes).
func isRawTag(inner string) bool {
	return strings.Trim(inner, " \t\r\n-+") == "raw"
}

// rawEnd returns the index just past the {% endraw %} closing a raw block
// whose opening tag ends at from (or len(src) when unclosed): raw text is
// copied without sigil expansion, as the parser will print it verbatim.
func rawEnd(src string, from int) int {
	i := from
	for {
		j := strings.Index(src[i:], "{%")
		if j < 0 {
			return len(src)
		}
		k := strings.Index(src[i+j+2:], "%}")
		if k < 0 {
			return len(src)
		}
		inner := src[i+j+2 : i+j+2+k]
		end := i + j + 2 + k + 2
		if strings.Trim(inner, " \t\r\n-+") == "endraw" {
			return end
		}
		i = end
	}
}

// jinjaClose returns the closing delimiter for "{" followed by b.
func jinjaClose(b byte) (string, bool) {
	switch b {
	case '{':
		return "}}", true
	case '%':
		return "%}", true
	case '#':
		return "#}", true
	}
	return "", false
}

// expandAt tries to expand the sigil at src[i]; it returns the index after
// the consumed text and whether it expanded.
func expandAt(sb *strings.Builder, src string, i int) (int, bool) {
	sigil := src[i]
	if sigil == '@' && i > 0 {
		r, _ := utf8.DecodeLastRuneInString(src[:i])
		if isWordRune(r) {
			return 0, false
		}
	}
	j := i + 1
	optional := false
	if sigil == '@' && j < len(src) && src[j] == '?' {
		optional = true
		j++
	}
	path, end := scanPath(src, j)
	if path == "" {
		return 0, false // covers digits, "(", "{", quotes, spaces
	}
	if followedByCall(src, end) {
		return 0, false
	}
	switch {
	case sigil == '$':
		sb.WriteString("{{ " + path + "|format() }}")
	case optional:
		sb.WriteString("{% if " + path + " %}{{ " + path + "|tag(\"" + path + "\") }}{% endif %}")
	default:
		sb.WriteString("{{ " + path + "|tag(\"" + path + "\") }}")
	}
	return end, true
}

// scanPath reads ident(.ident)* at src[j:]; a dot not followed by an
// identifier start is not part of the path.
func scanPath(src string, j int) (string, int) {
	start := j
	for {
		k := scanIdent(src, j)
		if k == j {
			break
		}
		j = k
		if j+1 < len(src) && src[j] == '.' && isIdentStart(src[j+1]) {
			j++
			continue
		}
		break
	}
	return src[start:j], j
}

func scanIdent(src string, j int) int {
	if j >= len(src) || !isIdentStart(src[j]) {
		return j
	}
	j++
	for j < len(src) && (isIdentStart(src[j]) || (src[j] >= '0' && src[j] <= '9')) {
		j++
	}
	return j
}

func isIdentStart(b byte) bool {
	return b == '_' || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')
}

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// followedByCall reports whether the word after a sigil is directly
// followed by "(" or "{" (not "{{"): a function call or a CSS block, not
// a sigil. A space in between keeps the sigil ("Ask @name (politely)").
func followedByCall(src string, k int) bool {
	if k >= len(src) {
		return false
	}
	switch src[k] {
	case '(':
		return true
	case '{':
		return !(k+1 < len(src) && src[k+1] == '{')
	}
	return false
}
