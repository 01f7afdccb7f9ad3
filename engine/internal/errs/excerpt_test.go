package errs

import (
	"strings"
	"testing"
)

// TestCaretExcerpt: the excerpt's caret points at the column (tabs kept),
// a long line is cut around it, and control characters never pass.
func TestCaretExcerpt(t *testing.T) {
	if got := Excerpt("t", "one\n\tab}} x", 2, 4); got != caret("t", 2, 4, "\tab}} x") {
		t.Errorf("Excerpt of line 2: %q", got)
	}
	if got := Excerpt("t", "one", 2, 1); got != "" {
		t.Errorf("Excerpt of a line past the end: %q", got)
	}
	got := caret("t.j2", 2, 4, "\tab}} x")
	want := "  --> t.j2:2:4\n  |\n2 | \tab}} x\n  | \t  ^\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// A long line is windowed around the column, and the caret still
	// points at the same character.
	long := strings.Repeat("a", 300) + "X" + strings.Repeat("b", 300)
	ex := caret("t", 1, 301, long)
	lines := strings.Split(ex, "\n")
	src, mark := lines[2], lines[3]
	if len(src) > excerptWidth+20 {
		t.Errorf("excerpt not bounded: %d bytes", len(src))
	}
	if i := strings.IndexByte(mark, '^'); i < 0 || src[i] != 'X' {
		t.Errorf("caret misplaced:\n%s\n%s", src, mark)
	}
	// Control characters from an untrusted template never reach the terminal.
	if ex := caret("t", 1, 1, "a\x1b[31mb"); strings.Contains(ex, "\x1b") {
		t.Errorf("escape sequence passed through: %q", ex)
	}
}
