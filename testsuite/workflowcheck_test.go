package testsuite

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// workflowcheckBin is bin/workflowcheck (built from tools/workflowcheck;
// `make test` builds it and names it in JINJABOX_WORKFLOWCHECK). When it
// is absent (a fresh clone running go test), the canary builds it from
// tools/workflowcheck into a temporary directory rather than skip: a
// fresh clone runs every suite of testsuite.
func workflowcheckBin(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("JINJABOX_WORKFLOWCHECK")
	if bin == "" {
		bin = filepath.Join("..", "bin", "workflowcheck")
	}
	abs, err := filepath.Abs(bin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(abs); err == nil {
		return abs
	}
	abs = filepath.Join(t.TempDir(), "workflowcheck")
	// go test puts its own GOROOT/bin first on the PATH.
	build := exec.Command("go", "build", "-o", abs, ".")
	build.Dir = filepath.Join("..", "tools", "workflowcheck")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s absent; building tools/workflowcheck: %v\n%s", bin, err, out)
	}
	t.Logf("%s absent: built tools/workflowcheck into %s", bin, abs)
	return abs
}

// plant is non-deterministic code the canary inserts at the top of a
// function's body, and the report it must produce.
type plant struct {
	file, fn, code, reason string
}

// Each plant sits in code workflow code reaches only through dynamic
// calls (the runner's kinds table, the engine's filter table) or deep in
// the engine, where upstream workflowcheck never looks.
var plants = []plant{
	// the engine's statement executor: the canary
	{"engine/stmt.go", `func (r *renderer) execStmts(`, "for range map[int]int{1: 1} {\n\t}", "iterates over map"},
	// a filter, reached through the filter table
	{"engine/builtins/filters_html.go", `func fUrlize(`, "for range map[string]bool{} {\n\t}", "iterates over map"},
	// a pipe kind's run, reached through the kinds table
	{"method/kind_llm.go", `func runLLM(`, "for range map[string]int{} {\n\t}", "iterates over map"},
	// a goroutine in the budget meter
	{"budget/budget.go", `func NewMeter(`, "go func() {}()", "starts goroutine"},
}

// TestWorkflowcheckCatchesMapIteration is the lint canary: `make lint`'s
// determinism check (scripts/workflowcheck.sh) passes on the module as it
// is, and fails on a copy with a map iteration or a goroutine planted in
// engine, method and budget code, naming each planted function. It holds
// that narrowing the exemptions (workflowcheck.config.yaml) and the
// -strict check make the gate real: upstream workflowcheck follows static
// calls only and never reaches the engine from jinjabox's workflows.
func TestWorkflowcheckCatchesMapIteration(t *testing.T) {
	if testing.Short() {
		t.Skip("runs workflowcheck twice over the module (about 10 s)")
	}
	bin := workflowcheckBin(t)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(root, "scripts", "workflowcheck.sh")

	start := time.Now()
	out, err := exec.Command(script, bin, root).CombinedOutput()
	if err != nil {
		t.Fatalf("workflowcheck on the module: %v (want a clean pass)\n%s", err, out)
	}
	t.Logf("clean module: passed in %v", time.Since(start).Round(time.Millisecond))

	dir := t.TempDir()
	copyModule(t, root, dir)
	for _, p := range plants {
		path := filepath.Join(dir, p.file)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		i := bytes.Index(src, []byte(p.fn))
		if i < 0 {
			t.Fatalf("%s: no %q to plant in (update the canary)", p.file, p.fn)
		}
		j := i + bytes.Index(src[i:], []byte("{\n")) + 2
		planted := append(append(append([]byte{}, src[:j]...), "\t"+p.code+"\n"...), src[j:]...)
		if err := os.WriteFile(path, planted, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	start = time.Now()
	out, err = exec.Command(script, bin, dir).CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("workflowcheck on the planted copy: %v, want a failing exit\n%s", err, out)
	}
	t.Logf("planted copy: failed (exit %d) in %v", exit.ExitCode(), time.Since(start).Round(time.Millisecond))
	report := string(out)
	for _, p := range plants {
		name := regexp.MustCompile(`func (\([^)]*\) )?(\w+)`).FindStringSubmatch(p.fn)[2]
		re := regexp.MustCompile(regexp.QuoteMeta(name) + ` is non-deterministic, reason: ` + regexp.QuoteMeta(p.reason) + ` at ` + regexp.QuoteMeta(p.file))
		if !re.MatchString(report) {
			t.Errorf("no report of %s (%s) in %s:\n%s", name, p.reason, p.file, report)
		}
	}
}

// copyModule copies the module's Go sources, go.mod, go.sum and the
// workflowcheck config from root to dir (no testdata, no nested module,
// no build outputs).
func copyModule(t *testing.T, root, dir string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch d.Name() {
			case ".git", "bin", "testdata", "tools", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") && rel != "go.mod" && rel != "go.sum" && rel != "workflowcheck.config.yaml" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
