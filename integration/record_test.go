package integration

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/jinjabox/jinjabox/workflows"
)

// TestRecordHistories re-records the JSON histories the replay test
// (workflows.TestReplayRecordedHistories) replays: every workflow of one
// sample-method run. It runs only with JINJABOX_RECORD_HISTORIES=DIR
// (make record-histories); commit the files with the workflow change that
// needed them, after checking the old ones still replay.
func TestRecordHistories(t *testing.T) {
	dir := os.Getenv("JINJABOX_RECORD_HISTORIES")
	if dir == "" {
		t.Skip("JINJABOX_RECORD_HISTORIES not set")
	}
	c := needServer(t)
	startWorker(t, c, "it-record")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	in := workflows.RunMethodInput{Method: readFile(t, "../method/testdata/sample_method.json"), Inputs: readFile(t, "../method/testdata/sample_inputs.json")}
	if _, err := runMethod(ctx, c, "it-record", "sample", in); err != nil {
		t.Fatal(err)
	}
	resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{PageSize: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range resp.Executions {
		id := e.GetExecution().GetWorkflowId()
		if id != "sample" && !strings.HasPrefix(id, "sample/") {
			continue
		}
		hist := &historypb.History{}
		it := c.GetWorkflowHistory(ctx, id, e.GetExecution().GetRunId(), false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			hist.Events = append(hist.Events, ev)
		}
		b, err := temporalproto.CustomJSONMarshalOptions{Indent: "  "}.Marshal(hist)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.NewReplacer("/", "__", "#", "_").Replace(id) + ".json"
		if err := os.WriteFile(filepath.Join(dir, name), append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		n++
	}
	t.Logf("recorded %d histories into %s", n, dir)
}
