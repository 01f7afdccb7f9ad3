package testsuite

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var syncCorpora = flag.Bool("sync-corpora", false,
	"copy the shared corpora (JINJABOX_SHARED, else ../shared) into testdata/shared before comparing")

// syncPatterns are the files of the shared tree the module carries,
// relative to its root: what the tests read, and the two READMEs that
// define the case format and the policy.
var syncPatterns = []string{
	"conformance/README.md",
	"conformance/*.jsonl",
	"hostile/README.md",
	"hostile/*.jsonl",
	"bench/workloads/*",
}

// sharedSource returns the shared tree the copy comes from: JINJABOX_SHARED,
// else ../shared beside the repository root (../../shared from this
// package). ok is false when there is none, as in a clone of the module
// alone.
func sharedSource() (dir string, ok bool) {
	dir = os.Getenv("JINJABOX_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared")
	}
	fi, err := os.Stat(dir)
	return dir, err == nil && fi.IsDir()
}

// syncedFiles lists the regular files under root that syncPatterns match,
// as sorted slash paths relative to root.
func syncedFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	for _, p := range syncPatterns {
		matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range matches {
			if fi, err := os.Stat(m); err != nil || !fi.Mode().IsRegular() {
				continue
			}
			rel, _ := filepath.Rel(root, m)
			out = append(out, filepath.ToSlash(rel))
		}
	}
	sort.Strings(out)
	return out
}

// TestSharedCopyInSync fails when a shared tree exists and the module's
// copy (testdata/shared) differs from it: a file missing, extra or with
// other bytes. Without a shared tree there is nothing to compare and the
// copy is the reference. With -sync-corpora (make sync-corpora) it first
// makes the copy equal to the shared tree.
func TestSharedCopyInSync(t *testing.T) {
	src, ok := sharedSource()
	if !ok {
		if *syncCorpora {
			t.Fatalf("no shared tree at %s to sync from (set JINJABOX_SHARED)", src)
		}
		t.Logf("no shared tree at %s: the module's copy in %s is the reference", src, corporaDir)
		return
	}
	want := syncedFiles(t, src)
	if len(want) == 0 {
		t.Fatalf("%s holds none of %v: not a shared corpus tree", src, syncPatterns)
	}
	if *syncCorpora {
		syncCopy(t, src, corporaDir)
	}
	if problems := staleFiles(t, src, corporaDir); len(problems) > 0 {
		t.Errorf("%s is stale against %s; run `make sync-corpora` and commit the result (with any floor it changes):\n%s",
			corporaDir, src, strings.Join(problems, "\n"))
	}
	t.Logf("%d files of %s checked against %s", len(want), corporaDir, src)
}

// staleFiles compares the synced files of dst with those of src and
// describes each difference: a file missing from dst, extra in it, or
// with other bytes.
func staleFiles(t *testing.T, src, dst string) []string {
	t.Helper()
	inCopy := map[string]bool{}
	have := syncedFiles(t, dst)
	for _, f := range have {
		inCopy[f] = true
	}
	var problems []string
	for _, f := range syncedFiles(t, src) {
		if !inCopy[f] {
			problems = append(problems, f+": missing from the copy")
			continue
		}
		delete(inCopy, f)
		a, errA := os.ReadFile(filepath.Join(src, filepath.FromSlash(f)))
		b, errB := os.ReadFile(filepath.Join(dst, filepath.FromSlash(f)))
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v %v", f, errA, errB)
		}
		if !bytes.Equal(a, b) {
			problems = append(problems, f+": differs from "+src)
		}
	}
	for _, f := range have {
		if inCopy[f] {
			problems = append(problems, f+": in the copy, not in "+src)
		}
	}
	return problems
}

// syncCopy makes dst hold exactly the synced files of src: it writes
// every file whose bytes differ and removes matched files src no longer
// has. Files the patterns do not match (this tree's README) stay.
func syncCopy(t *testing.T, src, dst string) {
	t.Helper()
	keep := map[string]bool{}
	for _, f := range syncedFiles(t, src) {
		keep[f] = true
		from, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		to := filepath.Join(dst, filepath.FromSlash(f))
		if cur, err := os.ReadFile(to); err == nil && bytes.Equal(cur, from) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, from, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("synced %s", f)
	}
	for _, f := range syncedFiles(t, dst) {
		if !keep[f] {
			if err := os.Remove(filepath.Join(dst, filepath.FromSlash(f))); err != nil {
				t.Fatal(err)
			}
			t.Logf("removed %s (gone from %s)", f, src)
		}
	}
}

// The comparison catches each way a copy goes stale, and syncing repairs
// all of them without touching files outside the patterns.
func TestStaleFilesAndSync(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	write := func(root, rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(src, "conformance/a.jsonl", "A")
	write(src, "hostile/b.jsonl", "B")
	write(src, "bench/workloads/w.j2", "W")
	write(dst, "conformance/a.jsonl", "A")
	write(dst, "hostile/b.jsonl", "old B")
	write(dst, "hostile/gone.jsonl", "G")
	write(dst, "README.md", "not synced")
	got := strings.Join(staleFiles(t, src, dst), "\n")
	for _, want := range []string{"bench/workloads/w.j2: missing", "hostile/b.jsonl: differs", "hostile/gone.jsonl: in the copy, not in"} {
		if !strings.Contains(got, want) {
			t.Errorf("problems %q lack %q", got, want)
		}
	}
	if strings.Contains(got, "a.jsonl") || strings.Contains(got, "README") {
		t.Errorf("problems %q name an equal or unsynced file", got)
	}
	syncCopy(t, src, dst)
	if p := staleFiles(t, src, dst); len(p) != 0 {
		t.Errorf("after sync: %v", p)
	}
	if _, err := os.Stat(filepath.Join(dst, "README.md")); err != nil {
		t.Errorf("sync removed a file outside the patterns: %v", err)
	}
}
