package strutil

import (
	"strings"
	"testing"
	"unicode"
)

// TestQuoteStringMatchesPython: a str's repr, every ASCII byte (through
// the escape table and the quote rules) and printable and unprintable
// non-ASCII runes, is Python 3's repr (the want column is its output).
func TestQuoteStringMatchesPython(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~\x7fé\u0085😀\u2028", "'\\x00\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08\\t\\n\\x0b\\x0c\\r\\x0e\\x0f\\x10\\x11\\x12\\x13\\x14\\x15\\x16\\x17\\x18\\x19\\x1a\\x1b\\x1c\\x1d\\x1e\\x1f !\"#$%&\\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\\\]^_`abcdefghijklmnopqrstuvwxyz{|}~\\x7fé\\x85😀\\u2028'"},
		{"a'b", "\"a'b\""},
		{"a'b\"", "'a\\'b\"'"},
		{"\"", "'\"'"},
	} {
		if got := QuoteString(c.in); got != c.want {
			t.Errorf("QuoteString(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestIsPrint holds the table of printable BMP code points to
// unicode.IsPrint over every code point.
func TestIsPrint(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if isPrint(r) != unicode.IsPrint(r) {
			t.Errorf("%U: %v, unicode.IsPrint %v", r, isPrint(r), unicode.IsPrint(r))
		}
	}
}

// TestEscapeHTMLSizedOnce: escaping allocates its result once, at its
// exact size, however much the escapes grow the text (10 MB of '<' went
// through seven arrays to 40 MB: 176 MB peak), and its result is
// markupsafe's.
func TestEscapeHTMLSizedOnce(t *testing.T) {
	for _, s := range []string{strings.Repeat("<", 100000), strings.Repeat("a&'\"b>", 20000), "x" + strings.Repeat("&", 50000)} {
		want := strings.NewReplacer("<", "&lt;", ">", "&gt;", "&", "&amp;", "'", "&#39;", `"`, "&#34;").Replace(s)
		if got := EscapeHTML(s); got != want {
			t.Fatalf("EscapeHTML(%q...) differs from markupsafe's escape", s[:10])
		}
		if a := testing.AllocsPerRun(3, func() { EscapeHTML(s) }); a != 1 {
			t.Errorf("EscapeHTML(%q...): %v allocations, want one", s[:10], a)
		}
	}
}
