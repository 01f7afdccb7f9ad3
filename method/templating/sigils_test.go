package templating

import (
	"strings"
	"testing"
)

func TestExpandSigils(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"tag", "Read @note now", `Read {{ note|tag("note") }} now`},
		{"optional", "@?extra", `{% if extra %}{{ extra|tag("extra") }}{% endif %}`},
		{"format", "Total: $total", `Total: {{ total|format() }}`},
		{"dotted", "@order.customer", `{{ order.customer|tag("order.customer") }}`},
		{"trailing dot", "See @note.", `See {{ note|tag("note") }}.`},
		{"escape at", "a @@b", "a @b"},
		{"escape dollar", "cost $$x", "cost $x"},
		{"email", "mail ada@example.com", "mail ada@example.com"},
		{"unicode word before", "é@x", "é@x"},
		{"money", "pay $10", "pay $10"},
		{"jquery", "$(sel)", "$(sel)"},
		{"shell brace", "${HOME}", "${HOME}"},
		{"quote", `@"x"`, `@"x"`},
		{"call", "$fn(1)", "$fn(1)"},
		{"css", "@media{}", "@media{}"},
		{"space then paren keeps sigil", "@name (x)", `{{ name|tag("name") }} (x)`},
		{"before jinja output", "$v{{ w }}", `{{ v|format() }}{{ w }}`},
		{"inside jinja untouched", `{{ "@x $y" }}`, `{{ "@x $y" }}`},
		{"inside statement untouched", `{% set a = "@x" %}@a`, `{% set a = "@x" %}{{ a|tag("a") }}`},
		{"comment untouched", "{# @x #}", "{# @x #}"},
		{"bare sigils", "@ $ @? @.", "@ $ @? @."},
		{"start of line", "@a\n$b", "{{ a|tag(\"a\") }}\n{{ b|format() }}"},
		{"no sigils", "plain", "plain"},
		{"raw block untouched", "{% raw %}@x $y{% endraw %}@z", `{% raw %}@x $y{% endraw %}{{ z|tag("z") }}`},
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
