package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"github.com/jinjabox/jinjabox/workflows"
)

// killRuns is how many method runs the reliability test starts.
const killRuns = 300

// killMethod is a small bundle: a sequence of a model call and a compose
// (four workflows and two activities per run).
const killMethod = `{"main_pipe":"main","pipes":{
 "main":{"type":"PipeSequence","inputs":{"q":"Text"},"output":"Text","steps":[{"pipe":"ask","result":"answer"},{"pipe":"wrap","result":"wrapped"}]},
 "ask":{"type":"PipeLLM","inputs":{"q":"Text"},"output":"Text","prompt":"Question $q"},
 "wrap":{"type":"PipeCompose","inputs":{"q":"Text","answer":"Text"},"output":"Text","template":"{{ q }} => {{ answer }}"}}}`

// workerProc is a cmd/worker process.
type workerProc struct {
	cmd  *exec.Cmd
	once sync.Once
}

// startWorkerProc starts a worker process on queue, with env added to
// its environment.
func startWorkerProc(t *testing.T, bin, queue string, env ...string) *workerProc {
	t.Helper()
	cmd := exec.Command(bin, "--unversioned")
	cmd.Env = append(append(os.Environ(), "TEMPORAL_ADDRESS="+server.FrontendHostPort(), "TEMPORAL_TASK_QUEUE="+queue, "JINJABOX_TRACES=off"), env...)
	logf, err := os.Create(filepath.Join(t.TempDir(), "worker.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &workerProc{cmd: cmd}
	t.Cleanup(func() { p.kill(); _ = logf.Close() })
	return p
}

// kill ends the worker at once (SIGKILL: no graceful stop, in-flight
// tasks are abandoned mid-flight).
func (p *workerProc) kill() {
	p.once.Do(func() {
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
	})
}

// Many small runs; the worker process is killed mid-flight and a new one
// started; every run must complete exactly once with the right result.
func TestKillWorkerMidFlight(t *testing.T) {
	c := needServer(t)
	bin := buildCmd(t, "worker")
	const queue = "it-kill"
	prefix := "kill-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "-"
	want := make([]string, killRuns)
	inputs := make([][]byte, killRuns)
	for i := range killRuns {
		inputs[i] = []byte(`{"q":"question ` + strconv.Itoa(i) + `"}`)
		want[i] = pureOutput(t, []byte(killMethod), inputs[i])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	first := startWorkerProc(t, bin, queue)
	start := time.Now()
	var completed, wrong atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, killRuns)
	opts := workflows.RunOptions{ActivityTimeout: 5 * time.Second}
	for i := range killRuns {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: prefix + strconv.Itoa(i), TaskQueue: queue},
			workflows.WorkflowRunMethod, workflows.RunMethodInput{Method: []byte(killMethod), Inputs: inputs[i], Options: opts})
		if err != nil {
			t.Fatalf("starting run %d: %v", i, err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var res workflows.PipeOutput
			if errs[i] = run.Get(ctx, &res); errs[i] != nil {
				return
			}
			// Not outputJSON: t.Fatal must not run off the test goroutine.
			var got []byte
			if res.Output != nil {
				got, _ = json.Marshal(res.Output)
			}
			if string(got) != want[i] {
				wrong.Add(1)
				errs[i] = fmt.Errorf("run %d: wrong result %s", i, got)
				return
			}
			completed.Add(1)
		}()
	}
	// Kill the first worker once a fifth of the runs are done: the rest
	// are mid-flight (started, some with tasks and activities on it).
	for completed.Load() < killRuns/5 && time.Since(start) < 2*time.Minute {
		time.Sleep(20 * time.Millisecond)
	}
	atKill := completed.Load()
	first.kill()
	t.Logf("killed the worker after %v with %d of %d runs complete", time.Since(start).Round(time.Millisecond), atKill, killRuns)
	startWorkerProc(t, bin, queue)
	wg.Wait()
	took := time.Since(start)

	// Duplicates: more than one RunMethodWorkflow execution for an ID.
	perID := map[string]int{}
	var token []byte
	for {
		resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Query: "WorkflowType = '" + workflows.WorkflowRunMethod + "'", NextPageToken: token, PageSize: 1000})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range resp.Executions {
			if id := e.GetExecution().GetWorkflowId(); strings.HasPrefix(id, prefix) {
				perID[id]++
			}
		}
		if token = resp.NextPageToken; len(token) == 0 {
			break
		}
	}
	dups := 0
	for _, n := range perID {
		dups += n - 1
	}
	lost := killRuns - int(completed.Load())
	t.Logf("kill-the-worker: started %d, completed %d, wrong %d, duplicates %d, lost %d, in %v",
		killRuns, completed.Load(), wrong.Load(), dups, lost, took.Round(time.Millisecond))
	for i, err := range errs {
		if err != nil {
			t.Errorf("run %d: %v", i, err)
		}
	}
	if lost != 0 || dups != 0 || len(perID) != killRuns {
		t.Fatalf("lost %d, duplicates %d, executions found for %d IDs", lost, dups, len(perID))
	}
}
