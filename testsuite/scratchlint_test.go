package testsuite

import (
	"errors"
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
// without a reason),
// alone in a fresh copy of the module, fails it naming the plant.
func TestScratchlint(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the lint on copies of the module")
	}
	bin := scratchlintBin(t)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := []string{"./engine/internal/builtins/", "./engine/internal/strutil/", "./engine/internal/vmem/", "./engine/internal/vops/", "./engine/value/"}
	clean := exec.Command(bin, pkgs...)
	clean.Dir = root
	if out, err := clean.CombinedOutput(); err != nil {
		t.Fatalf("scratchlint on the module: %v\n%s", err, out)
	}
	base := t.TempDir()
	copyModule(t, root, base)
	for _, p := range []struct{ name, file, code, want string }{
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
	} {
		t.Run(p.name, func(t *testing.T) {
			dir := t.TempDir()
			copyModule(t, base, dir)
			pkg := "builtins"
			if strings.Contains(p.file, "/value/") {
				pkg = "value"
			}
			if err := os.WriteFile(filepath.Join(dir, p.file), []byte("package "+pkg+"\n\n"+p.code), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, pkgs...)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("scratchlint with %s planted: %v, want a failing exit\n%s", p.name, err, out)
			}
			if !strings.Contains(string(out), "zz_plant.go") || !strings.Contains(string(out), p.want) {
				t.Errorf("no report of the plant (%q) in:\n%s", p.want, out)
			}
		})
	}
}
