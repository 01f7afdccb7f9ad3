package methodfile

import (
	"strings"
	"testing"
)

// TestDocPositions: every key and value of the tree knows its line and
// column, keys keep document order, and a string knows where its text
// starts (after """ and the newline TOML trims).
func TestDocPositions(t *testing.T) {
	src := strings.Join([]string{
		`a = 1`,                            // 1
		`[t]`,                              // 2
		`s.x = "v"`,                        // 3
		`ml = """`,                         // 4
		`text"""`,                          // 5
		`[t.sub]`,                          // 6
		`z = [ { k = 'q' }, 0x1F, 1_000 ]`, // 7
		`[[arr]]`,                          // 8
		`n = 1.5`,                          // 9
		`[[arr]]`,                          // 10
		`n = -2`,                           // 11
		`[arr.inner]`,                      // 12
		`b = true`,                         // 13
	}, "\n")
	root, err := parseDoc([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	get := func(path ...string) *tnode {
		n := root
		for _, p := range path {
			switch {
			case n.kind == kArray:
				i := int(p[0] - '0')
				n = n.items[i]
			default:
				n = n.get(p)
			}
			if n == nil {
				t.Fatalf("no %v", path)
			}
		}
		return n
	}
	tests := []struct {
		path      []string
		line, col int
		val       any
	}{
		{[]string{"a"}, 1, 1, int64(1)},
		{[]string{"t"}, 2, 2, nil},
		{[]string{"t", "s"}, 3, 1, nil},
		{[]string{"t", "s", "x"}, 3, 3, "v"},
		{[]string{"t", "ml"}, 4, 1, "text"},
		{[]string{"t", "sub"}, 6, 4, nil},
		{[]string{"t", "sub", "z", "0", "k"}, 7, 9, "q"},
		{[]string{"t", "sub", "z", "1"}, 7, 20, int64(31)},
		{[]string{"t", "sub", "z", "2"}, 7, 26, int64(1000)},
		{[]string{"arr", "0", "n"}, 9, 1, 1.5},
		{[]string{"arr", "1", "n"}, 11, 1, int64(-2)},
		{[]string{"arr", "1", "inner", "b"}, 13, 1, true},
	}
	for _, tc := range tests {
		n := get(tc.path...)
		if n.at.line != tc.line || n.at.col != tc.col || (tc.val != nil && n.val != tc.val) {
			t.Errorf("%v: at %d:%d val %v, want %d:%d %v", tc.path, n.at.line, n.at.col, n.val, tc.line, tc.col, tc.val)
		}
	}
	if c := get("t", "ml").content; c.line != 5 || c.col != 1 {
		t.Errorf("multi-line string text starts at %d:%d", c.line, c.col)
	}
	if c := get("t", "s", "x").content; c.line != 3 || c.col != 8 {
		t.Errorf("string text starts at %d:%d", c.line, c.col)
	}
	if got := strings.Join(root.keys, ","); got != "a,t,arr" {
		t.Errorf("key order %s", got)
	}
}
