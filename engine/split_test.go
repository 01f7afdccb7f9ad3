package engine

import "testing"

// TestWhitespaceSplit holds str.split and rsplit on whitespace to Python:
// every non-ASCII space (split steps over other bytes without decoding
// them), text whose bytes resemble a space's, and invalid UTF-8, whose
// every invalid byte is a U+FFFD. The first rows' outputs are Jinja2
// 3.1.2's.
func TestWhitespaceSplit(t *testing.T) {
	spaces := "a\u00a0b\u2028c\u3000d\u0085e\u1680f\u2009g\u202fh\u205fi\x1cj"
	cases := []struct{ src, want string }{
		{"{{ s.split() }}", "['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']"},
		{"{{ s.rsplit() }}", "['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']"},
		{"{{ s.split(None, 2) }}", `['a', 'b', 'c\u3000d\x85e\u1680f\u2009g\u202fh\u205fi\x1cj']`},
		{"{{ s.rsplit(None, 2) }}", `['a\xa0b\u2028c\u3000d\x85e\u1680f\u2009g\u202fh', 'i', 'j']`},
		{"{{ ' é  ü\u00a0ÿ\u2029 '.split() }}", "['é', 'ü', 'ÿ']"},
		{"{{ ' é  ü\u00a0ÿ\u2029 '.rsplit() }}", "['é', 'ü', 'ÿ']"},
		{"{{ '\u2000\u200a\u200bx¡y©z'.split() }}", `['\u200bx¡y©z']`},
		{"{{ '\u2000\u200a\u200bx¡y©z'.rsplit() }}", `['\u200bx¡y©z']`},
		{"{{ '\ua000\u3000\ua000'.split() }}", "['ꀀ', 'ꀀ']"},
		{"{{ '\ua000\u3000\ua000'.rsplit() }}", "['ꀀ', 'ꀀ']"},
		{"{{ '\u00e2\u0080\u0080a \u00c2'.split() }}", `['â\x80\x80a', 'Â']`},
		{"{{ '\u00e2\u0080\u0080a \u00c2'.rsplit(None, 1) }}", `['â\x80\x80a', 'Â']`},
		// invalid UTF-8: a lone lead, a truncated space (E2 80), a byte
		// that starts nothing; each invalid byte one U+FFFD
		{"{{ '\xff a\xe2\x80 b\xc2'.split() }}", "['\ufffd', 'a\ufffd\ufffd', 'b\ufffd']"},
		{"{{ '\xff a\xe2\x80 b\xc2'.rsplit(None, 1) }}", "['\ufffd a\ufffd\ufffd', 'b\ufffd']"},
		{"{{ '\xe2\x80\x80\xff\xe3\x80\x80'.split() }}", "['\ufffd']"},
		{"{{ ('\xff' * 3).split()|first|length }}", "3"},
	}
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		res, err := env.RenderString("t", c.src, map[string]any{"s": spaces}, RenderOptions{})
		if err != nil || res.Output != c.want {
			t.Errorf("%q: %q, %v; want %q", c.src, res.Output, err, c.want)
		}
	}
}
