package integration

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// bigBatch is a batch of composes, each output 6 kB: 300 of them are
// 1.8 MB of outputs, more than one payload holds (MaxPayloadBytes).
const bigBatch = `{"main_pipe":"all","pipes":{
 "all":{"type":"PipeBatch","inputs":{"xs":"Text[]"},"output":"Text[]","branch_pipe_code":"one","input_list_name":"xs","input_item_name":"x","max_concurrency":50},
 "one":{"type":"PipeCompose","inputs":{"x":"Text"},"output":"Text","template":"{{ x }}:{{ 'y' * 6000 }}"}}}`

func bigBatchInputs(n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = strconv.Quote("item " + strconv.Itoa(i))
	}
	return `{"xs":{"concept":"Text","content":[` + strings.Join(items, ",") + `]}}`
}

// TestBatchOutputsThroughPayloadStore: with a payload store set
// (JINJABOX_PAYLOAD_STORE, a directory here) for the worker process and
// `jinjabox run`, a batch whose outputs pass one payload's 1.5 MiB
// completes; the root's history holds a claim, not the outputs; `run`
// writes the whole result (--output), byte for byte what `exec` writes.
// Without the store the same run fails typed at its bound.
func TestBatchOutputsThroughPayloadStore(t *testing.T) {
	c := needServer(t)
	worker, cli := buildCmd(t, "worker"), buildCmd(t, "jinjabox")
	store := t.TempDir()
	const queue = "it-payload-store"
	startWorkerProc(t, worker, queue, "JINJABOX_PAYLOAD_STORE="+store)
	lib, inputs := writeRunFiles(t, bigBatch, bigBatchInputs(300))
	dir := t.TempDir()
	env := append(os.Environ(), "TEMPORAL_ADDRESS="+server.FrontendHostPort(), "TEMPORAL_TASK_QUEUE="+queue, "JINJABOX_TRACES=off",
		"JINJABOX_PAYLOAD_STORE="+store)

	execOut := filepath.Join(dir, "exec.json")
	if out, err := exec.Command(cli, "exec", "-o", execOut, lib, inputs).CombinedOutput(); err != nil {
		t.Fatalf("exec: %v\n%s", err, out)
	}
	id := "payload-store-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	runOut := filepath.Join(dir, "run.json")
	run := exec.Command(cli, "run", "--id", id, "--output", runOut, "--timeout", "5m", lib, inputs)
	run.Env = env
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	want, got := readFile(t, execOut), readFile(t, runOut)
	if len(want) < 1800000 || !bytes.Equal(got, want) {
		t.Fatalf("run wrote %d bytes, exec %d: they differ or are too small", len(got), len(want))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	desc, err := c.DescribeWorkflow(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	if size := desc.RawResponse.GetWorkflowExecutionInfo().GetHistorySizeBytes(); size > 1<<20 {
		t.Errorf("the root's history is %d bytes: the 1.8 MB result was not stored as a claim", size)
	}
	var objects int
	_ = filepath.Walk(store, func(_ string, fi os.FileInfo, _ error) error {
		if fi != nil && !fi.IsDir() {
			objects++
		}
		return nil
	})
	if objects == 0 {
		t.Errorf("nothing was stored in %s", store)
	}

	// the same run without the store on the starter's side: its
	// workflows plan for inline payloads and fail at their bound
	noStore := exec.Command(cli, "run", "--timeout", "5m", lib, inputs)
	noStore.Env = append(os.Environ(), "TEMPORAL_ADDRESS="+server.FrontendHostPort(), "TEMPORAL_TASK_QUEUE="+queue, "JINJABOX_TRACES=off")
	out, err := noStore.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "batch_output_bytes") {
		t.Errorf("without a payload store: %v\n%s", err, out)
	}
	t.Logf("300 outputs of 6 kB (%d bytes of result) through the store: %d objects, root history %d bytes",
		len(got), objects, desc.RawResponse.GetWorkflowExecutionInfo().GetHistorySizeBytes())
}
