package engine

import (
	"strings"
	"sync"
	"testing"
)

// Constant call arguments are built once at parse time and shared by
// every call and every render (syntax.CallArgs.Fixed): a call that adds
// to them (a call block passes caller) must copy, and concurrent renders
// must never see another's arguments.
func TestFixedArgsAreNeverModified(t *testing.T) {
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	src := `{% macro m(a, b=2) %}[{{ a }}{{ b }}{{ caller() }}]{% endmacro %}` +
		`{% for i in range(3) %}{% call m(1, b=3) %}{{ i }}{% endcall %}{% endfor %}` +
		`{{ 'abcdef'|truncate(5, True, '~', 0) }}{{ ['x', 'y']|join('-') }}{{ m is callable }}`
	tpl, err := env.Parse("fixed", src)
	if err != nil {
		t.Fatal(err)
	}
	const want = "[130][131][132]abcd~x-yTrue" // Jinja2 3.1.2
	var wg sync.WaitGroup
	errc := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				out, err := tpl.Render(nil)
				if err != nil || out != want {
					errc <- strings.TrimSpace(out) + " " + errString(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for e := range errc {
		t.Errorf("got %s, want %q", e, want)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
