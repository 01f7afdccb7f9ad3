package testsuite

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const modulePath = "github.com/jinjabox/jinjabox"

// forbiddenImports may not be imported by the engine's own packages.
// They are what makes code unsafe or non-deterministic in a Temporal
// workflow (clock, randomness, I/O, reflection over host values) or able
// to escape the closed interpreter. The standard library may use them
// internally (fmt uses reflect and os); what matters is that engine code
// never reaches for them itself. Entries ending in "/" forbid a subtree.
var forbiddenImports = []string{
	"reflect", "unsafe", "time", "math/rand", "math/rand/v2", "crypto/rand",
	"os", "os/", "net", "net/", "syscall", "plugin",
}

// forbiddenModules may not appear anywhere in the dependency closure;
// named separately for a clearer message, since the closure check below
// rejects every non-standard, non-module package anyway.
var forbiddenModules = []string{"go.temporal.io/", "go.opentelemetry.io/"}

// goTool finds the go command. go test puts its own GOROOT/bin first on
// PATH, so the PATH lookup finds the toolchain running the tests; GOROOT
// is the fallback for a test binary run by hand.
func goTool(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	if root := os.Getenv("GOROOT"); root != "" {
		p := filepath.Join(root, "bin", "go")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("go tool not found")
	return ""
}

func isForbidden(imp string) bool {
	for _, f := range forbiddenImports {
		if imp == f || (strings.HasSuffix(f, "/") && strings.HasPrefix(imp, f)) {
			return true
		}
	}
	return false
}

// TestEngineDependencies keeps budget, policy and engine/... safe for
// workflow code: their whole dependency closure is the standard library
// and this module, no package of this module among them imports a
// forbidden package, and no Temporal or OpenTelemetry package appears.
func TestEngineDependencies(t *testing.T) {
	goBin := goTool(t)
	root := filepath.Join("..")
	// Everything under engine/, with no exemption: the Pipelex template
	// layer (categories, goldmark's markdown filter) lives in method/.
	patterns := []string{"./budget/...", "./policy/...", "./engine/..."}
	args := append([]string{"list", "-deps", "-f", `{{.ImportPath}} {{.Standard}} {{join .Imports ","}}`}, patterns...)
	cmd := exec.Command(goBin, args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	own := 0
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		path, std := f[0], f[1] == "true"
		for _, m := range forbiddenModules {
			if strings.HasPrefix(path, m) {
				t.Errorf("%s is in the engine's dependency closure", path)
			}
		}
		inModule := path == modulePath || strings.HasPrefix(path, modulePath+"/")
		if !std && !inModule {
			t.Errorf("%s is neither standard library nor this module", path)
		}
		if !inModule {
			continue
		}
		own++
		if len(f) < 3 {
			continue
		}
		for _, imp := range strings.Split(f[2], ",") {
			if isForbidden(imp) {
				t.Errorf("%s imports %s", path, imp)
			}
		}
	}
	if own == 0 {
		t.Fatalf("go list reported none of the module's packages:\n%s", out)
	}
	t.Logf("%d module packages, %d packages in the closure", own, len(lines))
}

// TestMethodDependencies keeps the method layer pure: method/... (the
// model, validation, the runner) and methodfile (the loader) never link
// Temporal or OpenTelemetry, so a TOML loader or `jinjabox validate`
// does not pull in a workflow SDK. The Temporal layer (workflows,
// activities, failure) depends on method, never the other way.
func TestMethodDependencies(t *testing.T) {
	goBin := goTool(t)
	args := []string{"list", "-deps", "-f", "{{.ImportPath}}", "./method/...", "./methodfile"}
	cmd := exec.Command(goBin, args...)
	cmd.Dir = ".."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	n := 0
	for _, path := range strings.Fields(string(out)) {
		n++
		for _, m := range forbiddenModules {
			if strings.HasPrefix(path, m) {
				t.Errorf("%s is in the method layer's dependency closure", path)
			}
		}
		for _, own := range []string{"/workflows", "/activities", "/failure"} {
			if path == modulePath+own {
				t.Errorf("the method layer depends on %s", path)
			}
		}
	}
	if n == 0 {
		t.Fatal("go list reported no packages")
	}
	t.Logf("%d packages in the method layer's closure", n)
}

// leanCLIForbidden are the module trees cmd/jinjabox may not link: the
// Temporal SDK and the gRPC, AWS and OpenAI clients that come with exec
// and run. Their package inits cost every jinjabox process, one per
// red-team case in issue 29's measurements, about 60 ms of CPU and 31 MiB
// (docs/COSTS.md); exec and run live in cmd/jinjabox-method instead.
var leanCLIForbidden = []string{"go.temporal.io/", "google.golang.org/grpc", "github.com/aws/", "github.com/openai/"}

// TestLeanCLIDependencies: cmd/jinjabox (render, check, validate, inputs,
// serve) links no package of leanCLIForbidden, with no exemption. It
// checks the test's own premise too: cmd/jinjabox-method links Temporal.
func TestLeanCLIDependencies(t *testing.T) {
	goBin := goTool(t)
	deps := func(pkg string) []string {
		cmd := exec.Command(goBin, "list", "-deps", "-f", "{{.ImportPath}}", pkg)
		cmd.Dir = ".."
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, stderr.String())
		}
		return strings.Fields(string(out))
	}
	forbidden := func(path string) bool {
		for _, m := range leanCLIForbidden {
			if strings.HasPrefix(path, m) || path == strings.TrimSuffix(m, "/") {
				return true
			}
		}
		return false
	}
	lean := deps("./cmd/jinjabox")
	for _, path := range lean {
		if forbidden(path) {
			t.Errorf("cmd/jinjabox links %s", path)
		}
	}
	n := 0
	for _, path := range deps("./cmd/jinjabox-method") {
		if forbidden(path) {
			n++
		}
	}
	if n == 0 {
		t.Error("cmd/jinjabox-method links none of the forbidden trees: is the list still what exec and run bring?")
	}
	t.Logf("cmd/jinjabox: %d packages; cmd/jinjabox-method: %d of the forbidden trees", len(lean), n)
}

// TestActivitiesDoNotImportWorkflows: workflows run activities by name
// and import them; activities never import the workflows.
func TestActivitiesDoNotImportWorkflows(t *testing.T) {
	goBin := goTool(t)
	cmd := exec.Command(goBin, "list", "-deps", "-f", "{{.ImportPath}}", "./activities")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range strings.Fields(string(out)) {
		if path == modulePath+"/workflows" {
			t.Error("activities depends on workflows")
		}
	}
}

func TestIsForbidden(t *testing.T) {
	for imp, want := range map[string]bool{
		"os": true, "os/exec": true, "net/http": true, "time": true, "math/rand/v2": true,
		"strings": false, "osx": false, "network": false, "math": false, "timezone": false,
	} {
		if isForbidden(imp) != want {
			t.Errorf("isForbidden(%q) = %v", imp, !want)
		}
	}
}

// pipelexWords are the names of the Pipelex template layer (its inputs,
// their concepts, the bundle format, the sigil preprocessor). None may
// appear under engine/: the engine is Jinja only, and the method layer
// (method/templating) brings the Pipelex surface through the engine's
// generic declared-surface mechanism.
var pipelexWords = []string{"pipelex", "stuff", "concept", "mthds", "sigil"}

// TestEngineIsJinjaOnly: no file under engine/ (code, tests, test data)
// names the Pipelex layer.
func TestEngineIsJinjaOnly(t *testing.T) {
	root := filepath.Join("..", "engine")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		low := strings.ToLower(string(b))
		for _, w := range pipelexWords {
			if i := strings.Index(low, w); i >= 0 {
				line := strings.Count(low[:i], "\n") + 1
				t.Errorf("%s:%d names the Pipelex layer (%q): it belongs in method/", path, line, w)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
