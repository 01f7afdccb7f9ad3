package builtins

import "testing"

// TestEntityTable holds html5Entities' lookup to the generated table:
// every name finds its own text, and a name that is not an entity (empty,
// before the first, after the last, a prefix or an extension of one, a
// different case) finds none.
func TestEntityTable(t *testing.T) {
	m := html5EntityTable()
	if html5Entities().len() != len(m) {
		t.Fatalf("%d entries, want %d", html5Entities().len(), len(m))
	}
	for name, want := range m {
		if got, ok := html5Entities().lookup(name); !ok || got != want {
			t.Errorf("%q: %q %v, want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"", "A", "AAAA", "zzzzz", "amp;;", "am", "ampx", "AmP", "\xff"} {
		if _, want := m[name]; want {
			t.Fatalf("%q is an entity: the case is wrong", name)
		}
		if got, ok := html5Entities().lookup(name); ok {
			t.Errorf("%q: found %q, want none", name, got)
		}
	}
}
