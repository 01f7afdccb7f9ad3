package testsuite

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// scratchlintBin is bin/scratchlint (JINJABOX_SCRATCHLINT, built by make
// test), or tools/scratchlint built into a temporary directory.
func scratchlintBin(t *testing.T) string {
	return toolBin(t, "JINJABOX_SCRATCHLINT", "scratchlint")
}

// TestScratchlint holds the scratch rule of docs/INVARIANTS.md: the
// engine's builtins and value model pass the scratch lint as they are, and
// each plant (a []rune of a string in a builtin, an input-sized make and
// an append in a loop before any charge, a bulk append or copy of
// items holding pointers, such items appended in a loop without vmem.Grown
// (after a charge, so only that rule can report it), a substring search
// of the standard library with a needle from the input, a //scratch:ok
// without a reason, an input-sized array of values made without
// vmem.Fresh in the value model and in the evaluator, a vmem.Fresh of
// live items, a //fresh:ok without a reason), each in a file of its own
// in a copy of the module, fails it with a report of that file by the
// plant's rule.
func TestScratchlint(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the lint on copies of the module")
	}
	bin := scratchlintBin(t)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := []string{"./engine/internal/builtins/", "./engine/internal/strutil/", "./engine/internal/vmem/", "./engine/internal/vops/", "./engine/value/", "./engine/"}
	clean := exec.Command(bin, pkgs...)
	clean.Dir = root
	if out, err := clean.CombinedOutput(); err != nil {
		t.Fatalf("scratchlint on the module: %v\n%s", err, out)
	}
	plants := []struct{ name, file, code, want string }{
		{"rune array", "engine/internal/builtins/zz_plant.go",
			"func plantRunes(s string) int { return len([]rune(s)) }\n", "[]rune of a string"},
		{"make", "engine/internal/builtins/zz_plant.go",
			"func plantMake(s string) []byte { return make([]byte, len(s)) }\n", "make with a size from the input"},
		{"append in a loop", "engine/value/zz_plant.go",
			"func plantAppend(s string) (out []byte) {\n\tfor i := 0; i < len(s); i++ {\n\t\tout = append(out, s[i], s[i])\n\t}\n\treturn out\n}\n", "append in a loop"},
		{"bulk copy of values", "engine/value/zz_plant.go",
			"func plantConcat(a, b []Value) []Value { return append(a, b...) }\n", "bulk copy of items holding pointers"},
		{"copy of strings", "engine/internal/builtins/zz_plant.go",
			"func plantCopy(a, b []string) int { return copy(a, b) }\n", "bulk copy of items holding pointers"},
		{"growth of values in a loop", "engine/value/zz_plant.go",
			"func plantGrow(a []Value, n int) []Value {\n\tCharge()\n\tfor i := 0; i < n; i++ {\n\t\ta = append(a, a[0])\n\t}\n\treturn a\n}\n\nfunc Charge() {}\n", "its growth"},
		{"long-needle search", "engine/internal/builtins/zz_plant.go",
			"import \"strings\"\n\nfunc plantSearch(s, sub string) int { return strings.Index(s, sub) + strings.Count(s, \"ab\") }\n", "Rabin-Karp"},
		{"bare exemption", "engine/internal/builtins/zz_plant.go",
			"func plantBare(s string) []byte {\n\t//scratch:ok\n\treturn make([]byte, len(s))\n}\n", "needs its reason"},
		{"fresh array of values", "engine/value/zz_plant.go",
			"func plantFresh(n int) []Value {\n\tCharge()\n\treturn make([]Value, n)\n}\n\nfunc Charge() {}\n", "wrap it in vmem.Fresh"},
		{"fresh array in the evaluator", "engine/zz_plant.go",
			"import \"github.com/jinjabox/jinjabox/engine/value\"\n\nfunc plantFresh(n int) []value.KV { return make([]value.KV, 0, n) }\n", "wrap it in vmem.Fresh"},
		{"fresh of live items", "engine/value/zz_plant.go",
			"import \"github.com/jinjabox/jinjabox/engine/internal/vmem\"\n\nfunc plantLive(s []Value) []Value { return vmem.Fresh(s) }\n", "other than a make"},
		{"bare fresh exemption", "engine/value/zz_plant.go",
			"func plantBareFresh(n int) []Value {\n\tCharge()\n\t//fresh:ok\n\treturn make([]Value, n)\n}\n\nfunc Charge() {}\n", "//fresh:ok needs its reason"},
	}
	// Every plant in one copy of the module, each in a file of its own
	// (one lint run, not one a plant): each file must be reported, by
	// its rule.
	dir := t.TempDir()
	copyModule(t, root, dir)
	for i, p := range plants {
		pkg := "builtins"
		if strings.Contains(p.file, "/value/") {
			pkg = "value"
		} else if filepath.Dir(p.file) == "engine" {
			pkg = "engine"
		}
		code := strings.ReplaceAll(p.code, "Charge()", fmt.Sprintf("Charge%d()", i))
		name := strings.Replace(p.file, "zz_plant.go", fmt.Sprintf("zz_plant%d.go", i), 1)
		if err := os.WriteFile(filepath.Join(dir, name), []byte("package "+pkg+"\n\n"+code), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, pkgs...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("scratchlint with the plants: %v, want a failing exit\n%s", err, out)
	}
	for i, p := range plants {
		file := fmt.Sprintf("zz_plant%d.go:", i)
		found := false
		for _, line := range strings.Split(string(out), "\n") {
			if strings.Contains(line, file) && strings.Contains(line, p.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("plant %q (%s): no report with %q in:\n%s", p.name, file, p.want, out)
		}
	}
}
