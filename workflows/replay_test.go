package workflows_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/jinjabox/jinjabox/workflows"
)

// The recorded histories of one sample-method run on a real server (every
// workflow of it: RunMethod, sequence, batch, conditions, LLM, compose)
// replay against the current workflow code without a non-determinism
// error. A change that breaks this breaks running workflows on upgrade:
// version it with workflow.GetVersion instead. Re-record with
// `make record-histories` only for a deliberate, versioned change.
func TestReplayRecordedHistories(t *testing.T) {
	files, err := filepath.Glob("testdata/histories/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 5 {
		t.Fatalf("found %d recorded histories, want the sample run's 10", len(files))
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
		// recorded one (the file name, with "/" spelled "__").
		id := strings.ReplaceAll(strings.TrimSuffix(filepath.Base(f), ".json"), "__", "/")
		r := worker.NewWorkflowReplayer()
		(&workflows.Workflows{}).Register(r)
		err = r.ReplayWorkflowHistoryWithOptions(quietLogger(), hist, worker.ReplayWorkflowHistoryOptions{
			OriginalExecution: workflow.Execution{ID: id, RunID: "replay"},
		})
		if err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
