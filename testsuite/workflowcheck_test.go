package testsuite

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// workflowcheckBin is bin/workflowcheck (built from tools/workflowcheck;
// `make test` builds it and names it in JINJABOX_WORKFLOWCHECK).
func workflowcheckBin(t *testing.T) string {
	return toolBin(t, "JINJABOX_WORKFLOWCHECK", "workflowcheck")
}

// toolBin is the dev tool name, built from tools/<name> in its own
// module: the binary env names (make test builds it), else bin/<name>.
// When it is absent (a fresh clone running go test), it is built into a
// temporary directory rather than skipped: a fresh clone runs every suite
// of testsuite.
func toolBin(t *testing.T, env, name string) string {
	t.Helper()
	bin := os.Getenv(env)
	if bin == "" {
		bin = filepath.Join("..", "bin", name)
	}
	abs, err := filepath.Abs(bin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(abs); err == nil {
		return abs
	}
	abs = filepath.Join(t.TempDir(), name)
	// go test puts its own GOROOT/bin first on the PATH.
	build := exec.Command("go", "build", "-o", abs, ".")
	build.Dir = filepath.Join("..", "tools", name)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s absent; building tools/%s: %v\n%s", bin, name, err, out)
	}
	t.Logf("%s absent: built tools/%s into %s", bin, name, abs)
	return abs
}

// plant is non-deterministic code the canary inserts at the top of a
// function's body (with the imports it needs), and the report it must
// produce.
type plant struct {
	file, fn, code, reason string
	imports                []string
}

// plantIn inserts p into the copy of the module at dir.
func (p plant) plantIn(t *testing.T, dir string) {
	t.Helper()
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
	for _, imp := range p.imports {
		q := strconv.Quote(imp)
		if !bytes.Contains(planted, []byte("\t"+q+"\n")) {
			planted = bytes.Replace(planted, []byte("import (\n"), []byte("import (\n\t"+q+"\n"), 1)
		}
	}
	if err := os.WriteFile(path, planted, 0o644); err != nil {
		t.Fatal(err)
	}
}

// name is the planted function's name, as workflowcheck reports it.
func (p plant) name() string {
	return regexp.MustCompile(`func (\([^)]*\) )?(\w+)`).FindStringSubmatch(p.fn)[2]
}

// reported reports whether workflowcheck's output names the planted
// function, its reason and its file.
func (p plant) reported(report string) bool {
	re := regexp.MustCompile(regexp.QuoteMeta(p.name()) + ` is non-deterministic, reason: ` + regexp.QuoteMeta(p.reason) + ` at ` + regexp.QuoteMeta(p.file))
	return re.MatchString(report)
}

// Each plant sits in code workflow code reaches only through dynamic
// calls (the runner's kinds table, the engine's filter table) or deep in
// the engine, where upstream workflowcheck never looks.
var plants = []plant{
	// the engine's statement executor: the canary
	{"engine/stmt.go", `func (r *renderer) execStmts(`, "for range map[int]int{1: 1} {\n\t}", "iterates over map", nil},
	// a filter, reached through the filter table
	{"engine/internal/builtins/filters_html.go", `func fUrlize(`, "for range map[string]bool{} {\n\t}", "iterates over map", nil},
	// a pipe kind's run, reached through the kinds table
	{"method/kind_llm.go", `func runLLM(`, "for range map[string]int{} {\n\t}", "iterates over map", nil},
	// a goroutine in the budget meter
	{"budget/budget.go", `func NewMeter(`, "go func() {}()", "starts goroutine", nil},
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
		p.plantIn(t, dir)
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
		if !p.reported(report) {
			t.Errorf("no report of %s (%s) in %s:\n%s", p.name(), p.reason, p.file, report)
		}
	}
}

// gluePlants are issue 31's cases, each a change that makes a run and
// its replay differ in code upstream workflowcheck cannot see: the
// Temporal glue reached only through method's interfaces (the runner
// calls Renderer.Render and Provider.CompleteText; Render calls activity
// and breathe), reflect's map iteration, the environment, an address,
// and code added to a function once exempted by name.
var gluePlants = []plant{
	// a clock that changes the render budget
	{file: "workflows/render.go", fn: `func (rd *renderer) Render(`, imports: []string{"time"},
		code: "if time.Now().Nanosecond()&1 == 1 {\n\t\trd.r.task.units += RenderFixedUnits\n\t}", reason: "calls non-deterministic function time.Now"},
	// a map range that changes a model request
	{file: "workflows/workflows.go", fn: `func (p workflowProvider) CompleteText(`,
		code: "for k := range map[string]bool{\"a\": true, \"b\": true} {\n\t\treq.Prompt += k\n\t}", reason: "iterates over map"},
	// the environment in the render activity's call
	{file: "workflows/render.go", fn: `func (rd *renderer) activity(`, imports: []string{"os"},
		code: "j.Field += os.Getenv(\"JINJABOX_PLANT\")", reason: "calls non-deterministic function os.Getenv"},
	// a receive in the stretch's breath
	{file: "workflows/task.go", fn: `func (t *task) breathe(`,
		code: "c := make(chan int, 1)\n\tc <- 1\n\tt.units = int64(<-c)", reason: "sends to channel"},
	// reflect's map iteration in the engine's values
	{file: "engine/value/copyin.go", fn: `func (c *Copier) CopyMapInto(`, imports: []string{"reflect"},
		code: "for it := reflect.ValueOf(data).MapRange(); it.Next(); {\n\t\tc.sawObject = true\n\t}", reason: "calls non-deterministic function (reflect.Value).MapRange"},
	// the environment in a pipe kind
	{file: "method/kind_llm.go", fn: `func runLLM(`, imports: []string{"os"},
		code: "if os.Getenv(\"JINJABOX_PLANT\") != \"\" {\n\t\treturn nil, nil, nil\n\t}", reason: "calls non-deterministic function os.Getenv"},
	// an address in a prompt
	{file: "method/kind_llm.go", fn: `func (p *Pipe) systemPrompt(`, imports: []string{"fmt"},
		code: "if fmt.Sprintf(\"%p\", b) > \"0xc\" {\n\t\treturn \"\"\n\t}", reason: "formats a pointer with %p"},
	// a map range added to a function exempted by name before issue 31
	{file: "method/memory.go", fn: `func (m *Memory) With(`,
		code: "for k := range m.stuffs {\n\t\ts.Code += k\n\t}", reason: "iterates over map"},
}

// TestWorkflowcheckPlantsOneAtATime plants each of gluePlants alone in a
// fresh copy of the module and requires scripts/workflowcheck.sh to fail
// naming it: the lint bites on each, not only on a copy where some other
// plant already fails it. The copy must still compile (a failing exit
// from a type error would prove nothing): the report must name the plant.
func TestWorkflowcheckPlantsOneAtATime(t *testing.T) {
	if testing.Short() {
		t.Skip("runs workflowcheck once a plant (about 6 s each)")
	}
	bin := workflowcheckBin(t)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(root, "scripts", "workflowcheck.sh")
	base := t.TempDir()
	copyModule(t, root, base)
	for _, p := range gluePlants {
		t.Run(p.file+":"+p.name(), func(t *testing.T) {
			dir := t.TempDir()
			copyModule(t, base, dir)
			p.plantIn(t, dir)
			out, err := exec.Command(script, bin, dir).CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("workflowcheck with %s planted: %v, want a failing exit\n%s", p.name(), err, out)
			}
			if !p.reported(string(out)) && !strings.Contains(string(out), "(strict) fmt.Sprintf "+p.reason) {
				t.Errorf("exit %d, but no report of %s (%s) in %s:\n%s", exit.ExitCode(), p.name(), p.reason, p.file, out)
			}
		})
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
		// names.dat: the Unicode names the parser embeds, so a copy's package engine builds
		if !strings.HasSuffix(rel, ".go") && rel != "go.mod" && rel != "go.sum" && rel != "workflowcheck.config.yaml" && d.Name() != "names.dat" {
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
