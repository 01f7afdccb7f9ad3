package testsuite

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestEmbedModule runs the tests of examples/embed, a module of its own
// that requires jinjabox through a replace to this clone, as a program
// embedding the engine does today: it renders a struct with json tags,
// a pointer, a map[string]int, a []bool and a time.Time and checks the
// page byte for byte. Its go.mod and go.sum must be tidy, or the
// module would not build for a user either (-mod=readonly).
func TestEmbedModule(t *testing.T) {
	testModule(t, "examples/embed")
}

// testModule checks a module of its own under this repository (dir,
// slash-separated from the root) as a user would build it: tidy, vetted,
// its tests passing, with -mod=readonly.
func testModule(t *testing.T, dir string) {
	t.Helper()
	goBin := goTool(t)
	for _, args := range [][]string{
		{"mod", "tidy", "-diff"},
		{"vet", "./..."},
		{"test", "-count=1", "./..."},
	} {
		cmd := exec.Command(goBin, args...)
		cmd.Dir = filepath.Join("..", filepath.FromSlash(dir))
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %v in %s: %v\n%s", args, dir, err, out)
		}
	}
}

// TestModTidy keeps go.mod and go.sum as go mod tidy leaves them: every
// direct dependency marked direct, nothing unused (issue 33).
func TestModTidy(t *testing.T) {
	goBin := goTool(t)
	cmd := exec.Command(goBin, "mod", "tidy", "-diff")
	cmd.Dir = ".."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go mod tidy -diff: %v\n%s", err, out)
	}
}

// TestPlaygroundInBrowser runs playground/browsertest, a module of its own
// (so the browser driver is never jinjabox's dependency): the playground
// page in a real headless Chromium, typed into as a person would. It
// skips, saying so, without a chromium on PATH; .ci/run installs one.
func TestPlaygroundInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("no chromium on PATH (apt-get install chromium): the playground's browser test needs one")
	}
	testModule(t, "playground/browsertest")
}
