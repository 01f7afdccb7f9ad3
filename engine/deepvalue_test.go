package engine

import (
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

// deepValueStack is the goroutine stack the deep values' renders get in
// TestDeepValuesFitSmallStack: a value 90,000 levels deep must be sized,
// hashed and refused without a Go recursion as deep as it is.
const deepValueStack = 4 << 20

// deepValueTemplates build a list or a tuple nested 90,000 deep one level
// a loop step (the red team's redteam/deep and redteam/cpu shapes), then
// print it, convert it to JSON, hash it, and size it for a repr.
var deepValueTemplates = []struct{ name, src, want string }{
	{"print-list", `{% set ns = namespace(l=[]) %}{% for i in range(300) %}{% for j in range(300) %}{% set ns.l = [ns.l] %}{% endfor %}{% endfor %}{{ ns.l }}`, "budget"},
	{"tojson-list", `{% set ns = namespace(l=[]) %}{% for i in range(300) %}{% for j in range(300) %}{% set ns.l = [ns.l] %}{% endfor %}{% endfor %}{{ ns.l|tojson|length }}`, "render"},
	{"unique-tuple", `{% set ns = namespace(l=()) %}{% for i in range(300) %}{% for j in range(300) %}{% set ns.l = (ns.l,) %}{% endfor %}{% endfor %}{{ [ns.l, ns.l]|unique|list|length }}`, "1"},
	{"join-tuple", `{% set ns = namespace(l=()) %}{% for i in range(300) %}{% for j in range(300) %}{% set ns.l = (ns.l,) %}{% endfor %}{% endfor %}{{ [ns.l]|join|length }}`, "budget"},
	{"in-dict-tuple", `{% set ns = namespace(l=()) %}{% for i in range(300) %}{% for j in range(300) %}{% set ns.l = (ns.l,) %}{% endfor %}{% endfor %}{{ ns.l in {} }}`, "False"},
}

// TestDeepValuesFitSmallStack renders deepValueTemplates in a subprocess
// whose goroutine stacks are held to deepValueStack: each must end as
// expected, never in Go's fatal stack overflow. A list or tuple knows its
// size from its items' when it is made (value.NewList, NewTuple) and a
// tuple's hash is computed innermost first from a stack of its own, so
// neither walks the chain by recursion.
func TestDeepValuesFitSmallStack(t *testing.T) {
	if os.Getenv("JINJABOX_DEEPVALUE_CHILD") == "1" {
		debug.SetMaxStack(deepValueStack)
		env, err := NewEnvironment(Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range deepValueTemplates {
			res, err := env.RenderString(c.name, c.src, nil, RenderOptions{})
			got := res.Output
			if err != nil {
				got = err.(*Error).Kind.String()
			}
			fmt.Printf("deep value %s: %s\n", c.name, got)
		}
		return
	}
	if testing.Short() {
		t.Skip("renders values 90,000 levels deep in a subprocess")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDeepValuesFitSmallStack$", "-test.v")
	cmd.Env = append(os.Environ(), "JINJABOX_DEEPVALUE_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the deep values crashed or failed the subprocess (%v):\n%s", err, lastLines(string(out), 30))
	}
	for _, c := range deepValueTemplates {
		if want := "deep value " + c.name + ": " + c.want + "\n"; !strings.Contains(string(out), want) {
			t.Errorf("%s: want %q in the subprocess's output:\n%s", c.name, want, lastLines(string(out), 30))
		}
	}
}
