package errs

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// sourceLine returns line n (1-based) of src without its terminator.
func sourceLine(src string, n int) (string, bool) {
	for i := 1; ; i++ {
		j := strings.IndexByte(src, '\n')
		if i == n {
			if j >= 0 {
				src = src[:j]
			}
			return strings.TrimSuffix(src, "\r"), true
		}
		if j < 0 {
			return "", false
		}
		src = src[j+1:]
	}
}

// excerptWidth bounds the excerpt: a minified template can have one huge
// line and the diagnostic must stay readable (and bounded).
const excerptWidth = 100

// Excerpt is the caret excerpt of line (1-based) of src at col (in code
// points, as LineCol counts them), under a header naming name, like a
// compiler diagnostic, or "" when src has no such line:
//
//	 --> t.j2:1:8
//	  |
//	1 | {{ a + }}
//	  |        ^
//
// A long line is cut to excerptWidth code points around col; control
// characters are replaced (Sanitize).
func Excerpt(name, src string, line, col int) string {
	text, ok := sourceLine(src, line)
	if !ok {
		return ""
	}
	return caret(name, line, col, text)
}

// caret renders the excerpt block. col counts code points, as errs.LineCol
// does; tabs are kept in the caret's padding so it lines up in a terminal.
func caret(name string, line, col int, text string) string {
	runes := []rune(text)
	if col < 1 {
		col = 1
	}
	if col > len(runes)+1 {
		col = len(runes) + 1
	}
	start, end := 0, len(runes)
	prefix, suffix := "", ""
	if len(runes) > excerptWidth {
		start = max(0, col-1-excerptWidth/2)
		end = min(len(runes), start+excerptWidth)
		if start > 0 {
			prefix = "..."
		}
		if end < len(runes) {
			suffix = "..."
		}
	}
	var pad strings.Builder
	pad.WriteString(strings.Repeat(" ", len(prefix)))
	for _, r := range runes[start : col-1] {
		if r == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
	}
	shown := prefix + Sanitize(string(runes[start:end])) + suffix
	num := fmt.Sprint(line)
	gutter := strings.Repeat(" ", len(num))
	return fmt.Sprintf("%s--> %s:%d:%d\n%s |\n%s | %s\n%s | %s^\n",
		gutter+" ", name, line, col, gutter, num, shown, gutter, pad.String())
}

// Sanitize replaces control characters (other than tab) so an untrusted
// template cannot drive the terminal through an error message.
func Sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' {
			return r
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError {
			return '?'
		}
		return r
	}, s)
}
