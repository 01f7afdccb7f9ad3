package testsuite

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/internal/casecheck"
)

// sharedDir returns the shared corpus directory, or skips the test when
// it is absent (a checkout without the shared tree can still run the
// unit tests). From this package's directory the repository root's
// ../shared is ../../shared.
func sharedDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("JINJABOX_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared")
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Skipf("shared corpus directory %s not found (set JINJABOX_SHARED)", dir)
	}
	return dir
}

// corpusFiles lists the corpora under the floors, as paths relative to
// the shared directory (the keys of testdata/floors.json).
func corpusFiles(t testing.TB) []string {
	t.Helper()
	dir := sharedDir(t)
	matches, err := filepath.Glob(filepath.Join(dir, "conformance", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, m := range matches {
		rel, _ := filepath.Rel(dir, m)
		files = append(files, filepath.ToSlash(rel))
	}
	for _, h := range []string{"hostile/cases.jsonl", "hostile/typed-cases.jsonl", "hostile/paths.jsonl"} {
		if _, err := os.Stat(filepath.Join(dir, h)); err == nil {
			files = append(files, h)
		}
	}
	if len(files) == 0 {
		t.Skipf("no corpus files under %s", dir)
	}
	sort.Strings(files)
	return files
}

// results runs every case of a corpus file once per test binary: the
// floor, refusal and determinism tests all read the same run, which keeps
// `make test` to one pass over the corpora.
var resultCache = map[string][]casecheck.Result{}

func results(t testing.TB, rel string) []casecheck.Result {
	t.Helper()
	if rs, ok := resultCache[rel]; ok {
		return rs
	}
	cases, err := casecheck.LoadFile(filepath.Join(sharedDir(t), filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	rs := make([]casecheck.Result, len(cases))
	for i := range cases {
		rs[i] = casecheck.Run(&cases[i], casecheck.RunOptions{Timeout: casecheck.DefaultTimeout})
	}
	resultCache[rel] = rs
	return rs
}

// engineReady reports whether the engine renders a trivial template.
// Checks that need a working engine (a clean render after a refusal)
// only make sense then; before the engine lands they are skipped, loudly.
func engineReady() bool {
	env, err := engine.NewEnvironment(engine.Options{})
	if err != nil {
		return false
	}
	r, err := env.RenderString("probe", "{{ 1 + 1 }}", nil, engine.RenderOptions{})
	return err == nil && r.Output == "2"
}
