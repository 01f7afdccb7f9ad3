package testsuite

import (
	"path/filepath"
	"sort"
	"testing"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/internal/casecheck"
)

// corporaDir is the module's copy of the shared corpora, laid out as
// ../shared is (conformance/, hostile/, bench/workloads/), so a clone of
// the module alone runs every corpus test. TestSharedCopyInSync keeps it
// equal to ../shared; `make sync-corpora` refreshes it.
const corporaDir = "testdata/shared"

// heldBack are corpus files the module carries (and TestSharedCopyInSync
// and TestCorpusIDsUnique check) that the floor and invariant tests do not
// run yet, each with the reason. Removing an entry puts the file under the
// floors; TestFloorsFileCoversCorpora then asks for its floor.
var heldBack = map[string]string{}

// corpusFiles lists the corpora under the floors, as paths relative to
// corporaDir (the keys of testdata/floors.json): every conformance and
// hostile file but the held-back ones.
func corpusFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, pattern := range []string{"conformance/*.jsonl", "hostile/*.jsonl"} {
		matches, err := filepath.Glob(filepath.Join(corporaDir, filepath.FromSlash(pattern)))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range matches {
			rel, _ := filepath.Rel(corporaDir, m)
			if _, held := heldBack[filepath.ToSlash(rel)]; !held {
				files = append(files, filepath.ToSlash(rel))
			}
		}
	}
	if len(files) == 0 {
		t.Fatalf("no corpus files under %s (run make sync-corpora)", corporaDir)
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
	cases, err := casecheck.LoadFile(filepath.Join(corporaDir, filepath.FromSlash(rel)))
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
