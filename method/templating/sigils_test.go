package templating

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
)

func TestExpandSigils(t *testing.T) {
	// The rules of the newest Pipelex preprocessor
	// (pipelex/cogt/templating/template_preprocessor.py: _AT_SIGIL_PATTERN,
	// _DOLLAR_SIGIL_PATTERN, rewrite_template_sigils); the expected values
	// are what its regular expressions produce.
	tests := []struct{ name, in, want string }{
		{"tag alone on its line", "Read this:\n@note\nnow", "Read this:\n{{ note|tag(\"note\") }}\nnow"},
		{"tag inline is text", "Read @note now", "Read @note now"},
		{"tag indented keeps its blanks", "  \t@note \t\nx", "  \t{{ note|tag(\"note\") }} \t\nx"},
		{"tag then text is text", "@note.", "@note."},
		{"optional", "@?extra", `{% if extra %}{{ extra|tag("extra") }}{% endif %}`},
		{"format", "Total: $total", `Total: {{ total|format() }}`},
		{"dotted", "@order.customer", `{{ order.customer|tag("order.customer") }}`},
		{"format trailing dot", "See $note.", `See {{ note|format() }}.`},
		{"escape at", "a @@b", "a @b"},
		{"escape at alone", "@@b", "@b"},
		{"escape dollar", "cost $$x", "cost $x"},
		{"email", "mail ada@example.com", "mail ada@example.com"},
		{"word before dollar", "micro$name US$name é$x", "micro$name US$name é$x"},
		{"money", "pay $10", "pay $10"},
		{"jquery", "$(sel)", "$(sel)"},
		{"shell brace", "${HOME}", "${HOME}"},
		{"no space before opener expands", "$user(note) $user's $user\"x\" $f{y}", `{{ user|format() }}(note) {{ user|format() }}'s {{ user|format() }}"x" {{ f|format() }}{y}`},
		{"space then opener is code", `$user (aside) $user "q" $u 'r' $g {x}`, `$user (aside) $user "q" $u 'r' $g {x}`},
		{"tab then opener is code", "$user\t(x)", "$user\t(x)"},
		{"dotted path backtracks before an opener", "$a.b.c (x)", `{{ a.b|format() }}.c (x)`},
		{"css", "@media{}", "@media{}"},
		{"before jinja output", "$v{{ w }}", `{{ v|format() }}{{ w }}`},
		{"inside jinja untouched", `{{ "@x $y" }}`, `{{ "@x $y" }}`},
		{"statement then sigil on the line", `{% set a = "@x" %}@a`, `{% set a = "@x" %}@a`},
		{"comment untouched", "{# @x #}", "{# @x #}"},
		{"bare sigils", "@ $ @? @.", "@ $ @? @."},
		{"start of line", "@a\n$b", "{{ a|tag(\"a\") }}\n{{ b|format() }}"},
		{"crlf normalized", "x\r\n@a\r\ny\rz", "x\n{{ a|tag(\"a\") }}\ny\nz"},
		{"no sigils", "plain", "plain"},
		{"raw block untouched", "{% raw %}@x $y{% endraw %}\n@z", "{% raw %}@x $y{% endraw %}\n{{ z|tag(\"z\") }}"},
		{"raw with dashes", "{%- raw -%}@x{%- endraw %}", "{%- raw -%}@x{%- endraw %}"},
		{"unclosed raw", "{% raw %}@x", "{% raw %}@x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ExpandSigils(tc.in); got != tc.want {
				t.Errorf("ExpandSigils(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func FuzzExpandSigils(f *testing.F) {
	for _, s := range []string{"@a", "@?a.b", "$x", "a@b", "$1", "{{ @a }}", "{% raw %}@a", "@@$$", "@a{", "$a(", "{#"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := ExpandSigils(s)
		if !strings.ContainsAny(s, "@$") && out != s {
			t.Fatalf("changed a sigil-free source: %q -> %q", s, out)
		}
	})
}

// TestValidateSigils: validate_template_sigils of the newest Pipelex
// (template_preprocessor.py, _validate_at_sigil_alone_on_line): an inline
// "@" or "@?" whose root is a declared input is a load error; other inline
// "@" words pass; a sigil alone on its line but for non-ASCII padding gets
// its own message.
func TestValidateSigils(t *testing.T) {
	declared := func(n string) bool { return n == "name" || n == "order" }
	for _, tc := range []struct {
		src, want string
		line      int
	}{
		{"hello @name inline", "Inline `@name` is not allowed on line 1", 1},
		{"ok\nsee @?order.id here", "Inline `@?order.id` is not allowed on line 2", 2},
		{"\u00a0@name", "is padded with non-ASCII whitespace", 1},
		{"@name\n  @order  ", "", 0},
		{"@media screen {}\nmail a@name.com\n@@name inline", "", 0},
		{"hello @other inline", "", 0},
		{"{{ '@name' }} x", "Inline `@name`", 1},
	} {
		err := ValidateSigils(tc.src, declared)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%q: %v", tc.src, err)
			}
			continue
		}
		se, ok := err.(*SigilError)
		if !ok || !strings.Contains(se.Msg, tc.want) || se.Line != tc.line {
			t.Errorf("%q: %v, want %q on line %d", tc.src, err, tc.want, tc.line)
		}
	}
}

// pipelexRewrite is rewrite_template_sigils of the newest Pipelex
// (pipelex/cogt/templating/template_preprocessor.py): its two regular
// expressions and escapes, run by Python for TestExpandSigilsAgainstPipelex.
const pipelexRewrite = `
import re, json, sys
AT = re.compile(r"^([ \t]*)(@\??)([a-zA-Z_][a-zA-Z0-9_]*(?:\.[a-zA-Z_][a-zA-Z0-9_]*)*)([ \t]*)$", re.MULTILINE)
DOL = re.compile(r"(?<!\w)(\$)([a-zA-Z_][a-zA-Z0-9_]*(?:\.[a-zA-Z_][a-zA-Z0-9_]*)*)(?![a-zA-Z0-9_])(?![ \t]+[({\"'])")
def at(m):
    v = m.group(3)
    r = '{%% if %s %%}{{ %s|tag("%s") }}{%% endif %%}' % (v, v, v) if m.group(2) == '@?' else '{{ %s|tag("%s") }}' % (v, v)
    return m.group(1) + r + m.group(4)
def rw(t):
    t = t.replace("\r\n", "\n").replace("\r", "\n").replace("@@", "\x00A\x00").replace("$$", "\x00D\x00")
    t = DOL.sub(lambda m: "{{ %s|format() }}" % m.group(2), t)
    t = AT.sub(at, t)
    return t.replace("\x00A\x00", "@").replace("\x00D\x00", "$")
json.dump([rw(t) for t in json.load(sys.stdin)], sys.stdout)
`

// TestExpandSigilsAgainstPipelex compares ExpandSigils with Pipelex's own
// regular expressions on random text built from the characters the rules
// read (no Jinja delimiters: there jinjabox departs on purpose).
func TestExpandSigilsAgainstPipelex(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: the comparison with Pipelex's regular expressions needs it")
	}
	seed := rand.Uint64()
	rng := rand.New(rand.NewPCG(seed, 2))
	t.Logf("seed %d", seed)
	pieces := []string{"@", "$", "@?", "a", "b_1", ".", " ", "\t", "\n", "\r\n", "(", "'", "\"", "é", "9", "x.y", "@@", "$$", "\u00a0", "{", "}"}
	var in []string
	for range 2000 {
		var sb strings.Builder
		for range 1 + rng.IntN(12) {
			sb.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := sb.String()
		if strings.Contains(s, "{{") || strings.Contains(s, "{%") || strings.Contains(s, "{#") {
			continue
		}
		in = append(in, s)
	}
	want := pythonMap(t, py, pipelexRewrite, in)
	for i, s := range in {
		if got := ExpandSigils(s); got != want[i] {
			t.Errorf("ExpandSigils(%q) = %q, Pipelex %q", s, got, want[i])
		}
	}
}

// pythonMap runs script with python py on the JSON list in and returns the
// JSON list of strings it writes: each Pipelex definition applied.
func pythonMap(t *testing.T, py, script string, in []string) []string {
	t.Helper()
	raw, _ := json.Marshal(in)
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = bytes.NewReader(raw)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	var want []string
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	return want
}
