package templating

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ExpandSigils rewrites Pipelex prompt sigils into Jinja before parsing,
// by the rules of the newest Pipelex preprocessor
// (pipelex/cogt/templating/template_preprocessor.py, rewrite_template_sigils):
//
//	$var        -> {{ var|format() }}                              (inline)
//	@var        -> {{ var|tag("var") }}                            (alone on its line)
//	@?var       -> {% if var %}{{ var|tag("var") }}{% endif %}     (alone on its line)
//
// var is ident(.ident)*, an ident an ASCII letter or "_" then ASCII
// letters, digits and "_". Line endings become "\n" first. "@@" and "$$"
// are literal "@" and "$".
//
//   - "$" expands when no word character (a letter, a number or "_", as
//     Python's \w) is just before it (so "micro$oft" and "US$name" stay
//     text) and the path is not followed by spaces or tabs and then "(",
//     "{", a quote (shell code: `$foo "x"`); with nothing between, an
//     opener is prose and the sigil expands ("$user(note)", "$user's").
//     A dotted path whose end is followed so expands without its last
//     segment, as Python's regex backtracks to.
//   - "@" and "@?" expand only when the sigil is the whole line, but for
//     ASCII spaces and tabs around it (kept); an inline "@name" is text
//     (ValidateSigils refuses it when name is a declared input).
//
// One departure, a choice: text inside {{ }}, {% %}, {# #} and raw
// blocks is copied unchanged (Pipelex rewrites it too, which can only
// break the Jinja an author wrote there).
func ExpandSigils(src string) string {
	src = normalizeNewlines(src)
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
		var n int
		var ok bool
		if ch == '$' {
			n, ok = expandDollar(&sb, src, i)
		} else {
			n, ok = expandAtLine(&sb, src, i)
		}
		if !ok {
			sb.WriteByte(ch)
			i++
			continue
		}
		i = n
	}
	return sb.String()
}

// expandDollar expands the "$" sigil at src[i] (Pipelex's
// _DOLLAR_SIGIL_PATTERN); it returns the index after the consumed text.
func expandDollar(sb *strings.Builder, src string, i int) (int, bool) {
	if i > 0 {
		if r, _ := utf8.DecodeLastRuneInString(src[:i]); isWordRune(r) {
			return 0, false
		}
	}
	path, end := scanPath(src, i+1)
	for path != "" && shellOpener(src, end) {
		// the regex backtracks to a shorter path, which "." follows
		dot := strings.LastIndexByte(path, '.')
		if dot < 0 {
			return 0, false
		}
		path, end = path[:dot], i+1+dot
	}
	if path == "" {
		return 0, false // covers digits, "(", "{", quotes, spaces
	}
	sb.WriteString("{{ " + path + "|format() }}")
	return end, true
}

// shellOpener reports spaces or tabs (at least one) then "(", "{" or a
// quote at src[k:]: a shell or code construct, not a sigil.
func shellOpener(src string, k int) bool {
	j := k
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	return j > k && j < len(src) && strings.IndexByte("({\"'", src[j]) >= 0
}

// expandAtLine expands the "@" or "@?" sigil at src[i] when it is alone on
// its line with ASCII spaces and tabs around it (Pipelex's
// _AT_SIGIL_PATTERN); the leading blanks were already copied, the trailing
// ones are kept.
func expandAtLine(sb *strings.Builder, src string, i int) (int, bool) {
	ls := strings.LastIndexByte(src[:i], '\n') + 1
	le := strings.IndexByte(src[i:], '\n')
	if le < 0 {
		le = len(src) - i
	}
	if !atLine(src[ls : i+le]) {
		return 0, false
	}
	sig, path, _ := atCandidate(src, i)
	if sig == "@?" {
		sb.WriteString("{% if " + path + " %}{{ " + path + "|tag(\"" + path + "\") }}{% endif %}")
	} else {
		sb.WriteString("{{ " + path + "|tag(\"" + path + "\") }}")
	}
	return i + len(sig) + len(path), true
}

// ValidateSigils is the newest Pipelex's load-time check
// (template_preprocessor.py, validate_template_sigils): an "@" or "@?"
// sigil that is not alone on its line is an error when its root is one of
// the pipe's declared inputs (an inline "@name" meant "$name", or belongs
// on a line of its own); other inline "@" words (CSS at-rules, decorators,
// addresses) pass. A sigil alone on its line but padded with non-ASCII
// spaces gets its own message. Like Pipelex, it reads the whole template,
// Jinja tags included.
func ValidateSigils(src string, declared func(name string) bool) error {
	if !strings.Contains(src, "@") {
		return nil
	}
	src = strings.ReplaceAll(normalizeNewlines(src), "@@", "\x00\x00")
	for n, line := range strings.Split(src, "\n") {
		if !strings.Contains(line, "@") || atLine(line) {
			continue
		}
		if stripped := strings.TrimSpace(line); atLine(stripped) {
			if sig, path, ok := atCandidate(stripped, 0); ok && declared(rootOf(path)) {
				return &SigilError{Line: n + 1, Msg: "`" + sig + path + "` on line " + strconv.Itoa(n+1) +
					" is padded with non-ASCII whitespace (e.g. NBSP, EM SPACE, often from rich-text copy-paste). " +
					"Only ASCII space/tab is recognized as line indentation. Replace non-ASCII whitespace with " +
					"regular spaces, or escape with `@@` if you intend a literal `@`."}
			}
			continue
		}
		for k := 0; k < len(line); k++ {
			if line[k] != '@' {
				continue
			}
			if k > 0 {
				if r, _ := utf8.DecodeLastRuneInString(line[:k]); isWordRune(r) {
					continue
				}
			}
			sig, path, ok := atCandidate(line, k)
			if !ok || !declared(rootOf(path)) {
				continue
			}
			return &SigilError{Line: n + 1, Msg: "Inline `" + sig + path + "` is not allowed on line " + strconv.Itoa(n+1) +
				": the `" + sig + "` sigil produces tag-wrapped block content and must appear alone on its own line. " +
				"Did you mean `$" + path + "` (inline value), or move `" + sig + path + "` onto its own line? " +
				"Escape with `@@` if you intend a literal `@`."}
		}
	}
	return nil
}

// normalizeNewlines makes "\r\n" and "\r" line endings "\n", as
// Pipelex's _normalize_and_escape does before either pass.
func normalizeNewlines(src string) string {
	if !strings.Contains(src, "\r") {
		return src
	}
	return strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n")
}

// SigilError is Pipelex's TemplateSigilSyntaxError: a sigil a template
// cannot hold, found when the bundle loads.
type SigilError struct {
	Line int
	Msg  string
}

func (e *SigilError) Error() string { return e.Msg }

// atLine reports whether line is one "@" or "@?" sigil with ASCII spaces
// and tabs around it.
func atLine(line string) bool {
	t := strings.Trim(line, " \t")
	if !strings.HasPrefix(t, "@") {
		return false
	}
	j := 1
	if j < len(t) && t[j] == '?' {
		j++
	}
	path, end := scanPath(t, j)
	return path != "" && end == len(t)
}

// atCandidate reads "@" or "@?" and a path at line[k:].
func atCandidate(line string, k int) (sig, path string, ok bool) {
	j := k + 1
	sig = "@"
	if j < len(line) && line[j] == '?' {
		sig, j = "@?", j+1
	}
	path, _ = scanPath(line, j)
	return sig, path, path != ""
}

// rootOf is a dotted path's first segment.
func rootOf(path string) string {
	root, _, _ := strings.Cut(path, ".")
	return root
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

// isWordRune is Python's \w for one code point: a letter, a number or
// "_".
func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}
