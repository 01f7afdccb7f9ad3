package workflows_test

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/jinjabox/jinjabox/workflows"
)

// The replay corpus: testdata/histories/<release>/<scenario>/ holds every
// workflow of one run of each scenario (integration's replayScenarios:
// the sample, each controller kind, a batch in pages and ranges, renders
// over many tasks and in the activity, hashed IDs, failures), recorded on
// a real server by `make record-histories RELEASE=...`. Every history of
// every release replays against the current code without a
// non-determinism error: a change that breaks one breaks the runs of
// that release still in flight. Releases are kept; the versioning
// strategy (docs/temporal.md) says what a breaking change needs.
func TestReplayRecordedHistories(t *testing.T) {
	files, err := filepath.Glob("testdata/histories/*/*/*.json")
	if err != nil {
		t.Fatal(err)
	}
	scenarios := map[string]bool{}
	for _, f := range files {
		scenarios[filepath.Base(filepath.Dir(f))] = true
	}
	if len(scenarios) < 10 {
		t.Fatalf("found %d recorded scenarios (%d histories), want the 10 of replayScenarios", len(scenarios), len(files))
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		hist, err := client.HistoryFromJSON(fh, client.HistoryJSONOptions{})
		fh.Close()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		// Child IDs derive from the workflow's own ID, so replay under the
		// recorded one (the file name, path-escaped).
		id, err := url.PathUnescape(strings.TrimSuffix(filepath.Base(f), ".json"))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		r := worker.NewWorkflowReplayer()
		(&workflows.Workflows{}).Register(r)
		err = r.ReplayWorkflowHistoryWithOptions(quietLogger(), hist, worker.ReplayWorkflowHistoryOptions{
			OriginalExecution: workflow.Execution{ID: id, RunID: "replay"},
		})
		if err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	t.Logf("%d histories of %d scenarios replayed", len(files), len(scenarios))
}
