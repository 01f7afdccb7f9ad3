package integration

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/failure"
	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/workflows"
)

// The liveness fault matrix on the real dev server: the provider down,
// SIGTERM with model calls in flight, kill -9 with model calls in
// flight. Each case ends within its configured timeouts, never stuck.

// oneCall is a method with one model call: a PipeLLM whose answer a
// compose wraps (killMethod's shape).
const oneCall = killMethod

// recProvider is an OpenAI-compatible chat-completions server that
// answers "A:" + the user prompt after holding each request, and records
// every request: its Idempotency-Key, prompt, arrival and end, and
// whether the client went away before the answer (a killed worker).
type recProvider struct {
	srv      *httptest.Server
	hold     time.Duration
	release  chan struct{} // closed: no more holding (nil: hold every request)
	status   int           // 0: 200 with an answer
	inflight atomic.Int64
	mu       sync.Mutex
	reqs     []*recRequest
}

type recRequest struct {
	key, prompt   string
	arrived, done time.Time
	aborted       bool
}

func newRecProvider(t *testing.T, hold time.Duration, status int) *recProvider {
	t.Helper()
	return startRecProvider(t, &recProvider{hold: hold, status: status})
}

// startRecProvider serves p until the test ends.
func startRecProvider(t *testing.T, p *recProvider) *recProvider {
	t.Helper()
	p.srv = httptest.NewServer(p)
	t.Cleanup(p.srv.Close)
	return p
}

func (p *recProvider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Messages []struct{ Content string } `json:"messages"`
	}
	b, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(b, &body)
	rr := &recRequest{key: r.Header.Get(activities.IdempotencyHeader), arrived: time.Now()}
	if n := len(body.Messages); n > 0 {
		rr.prompt = body.Messages[n-1].Content
	}
	p.mu.Lock()
	p.reqs = append(p.reqs, rr)
	p.mu.Unlock()
	p.inflight.Add(1)
	defer p.inflight.Add(-1)
	select {
	case <-time.After(p.hold):
	case <-p.release:
	case <-r.Context().Done():
	}
	p.mu.Lock()
	rr.done, rr.aborted = time.Now(), r.Context().Err() != nil
	p.mu.Unlock()
	if rr.aborted {
		return
	}
	if p.status != 0 {
		http.Error(w, `{"error":"unavailable"}`, p.status)
		return
	}
	c, _ := json.Marshal("A:" + rr.prompt)
	w.Header().Set("Content-Type", "application/json") // the SDK reads JSON answers only
	_, _ = io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":`+string(c)+`}}]}`)
}

// requests is a snapshot of the recorded requests.
func (p *recProvider) requests() []recRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]recRequest, len(p.reqs))
	for i, r := range p.reqs {
		out[i] = *r
	}
	return out
}

// echoProvider is recProvider's answer in process, for the expected
// outputs (the pure runner, as `jinjabox exec` runs it).
type echoProvider struct{}

func (echoProvider) CompleteText(_ context.Context, req method.CompletionRequest) (method.CompletionResponse, error) {
	return method.CompletionResponse{Text: "A:" + req.Prompt}, nil
}

func echoOutput(t *testing.T, lib, inputs []byte) string {
	t.Helper()
	return runPure(t, &method.Runner{Provider: echoProvider{}}, lib, inputs)
}

// providerWorker is a cmd/worker process calling p, with its log kept
// for the test's failure messages.
type providerWorker struct {
	cmd    *exec.Cmd
	log    string
	exited chan struct{}
	err    error
	end    time.Time
}

// startProviderWorker starts the worker with args (--unversioned, or a
// deployment version's flags).
func startProviderWorker(t *testing.T, bin, queue string, p *recProvider, args ...string) *providerWorker {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "TEMPORAL_ADDRESS="+server.FrontendHostPort(), "TEMPORAL_TASK_QUEUE="+queue,
		"JINJABOX_TRACES=off", "JINJABOX_PROVIDER=openai", "OPENAI_BASE_URL="+p.srv.URL)
	w := &providerWorker{cmd: cmd, log: filepath.Join(t.TempDir(), "worker.log"), exited: make(chan struct{})}
	logf, err := os.Create(w.log)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		w.err = cmd.Wait()
		w.end = time.Now()
		_ = logf.Close()
		close(w.exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-w.exited
	})
	return w
}

func (w *providerWorker) logText() string {
	b, _ := os.ReadFile(w.log)
	return string(b)
}

// startRuns starts n runs of oneCall (inputs q = "question i") and
// returns their results as they arrive, by index.
func startRuns(t *testing.T, ctx context.Context, c client.Client, queue, prefix string, n int, o workflows.RunOptions) (want []string, errs []error, outs []string, wait func()) {
	t.Helper()
	want, errs, outs = make([]string, n), make([]error, n), make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		inputs := []byte(`{"q":"question ` + strconv.Itoa(i) + `"}`)
		want[i] = echoOutput(t, []byte(oneCall), inputs)
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: prefix + strconv.Itoa(i), TaskQueue: queue, WorkflowExecutionTimeout: 3 * time.Minute},
			workflows.WorkflowRunMethod, workflows.RunMethodInput{Method: []byte(oneCall), Inputs: inputs, Options: o})
		if err != nil {
			t.Fatalf("starting run %d: %v", i, err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var res workflows.PipeOutput
			if errs[i] = run.Get(ctx, &res); errs[i] == nil && res.Output != nil {
				b, _ := json.Marshal(res.Output)
				outs[i] = string(b)
			}
		}()
	}
	return want, errs, outs, wg.Wait
}

// waitInflight waits until the provider holds at least n requests.
func waitInflight(t *testing.T, p *recProvider, n int64, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for p.inflight.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("the provider never held %d requests at once (%d)", n, p.inflight.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// byKey groups the requests by idempotency key, in arrival order.
func byKey(reqs []recRequest) map[string][]recRequest {
	m := map[string][]recRequest{}
	for _, r := range reqs {
		m[r.key] = append(m[r.key], r)
	}
	return m
}

// SIGTERM with model calls in flight: the worker stops polling, lets
// every call in flight finish, reports it, and exits; nothing is retried
// (every idempotency key reaches the provider once) and every run
// completes with the right output on the next worker.
func TestSIGTERMDrainsModelCalls(t *testing.T) {
	c := needServer(t)
	bin := buildCmd(t, "worker")
	const queue, runs = "it-drain", 24
	hold := 3 * time.Second
	p := newRecProvider(t, hold, 0)
	prefix := "drain-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "-"
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	a := startProviderWorker(t, bin, queue, p, "--unversioned", "--activity-slots", "8", "--stop-timeout", "30s")
	want, errs, outs, wait := startRuns(t, ctx, c, queue, prefix, runs, workflows.RunOptions{})
	waitInflight(t, p, 6, time.Minute)
	term := time.Now()
	atTerm := p.inflight.Load()
	if err := a.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-a.exited:
	case <-time.After(40 * time.Second):
		t.Fatalf("the worker did not exit within 40 s of SIGTERM (stop timeout 30 s)\n%s", a.logText())
	}
	if a.err != nil {
		t.Fatalf("the worker exited with %v after SIGTERM, want 0\n%s", a.err, a.logText())
	}
	// Every call in flight at SIGTERM finished before the worker exited.
	var lastDone time.Time
	for _, r := range p.requests() {
		if r.arrived.Before(term) {
			if r.aborted || r.done.IsZero() {
				t.Errorf("call %s in flight at SIGTERM was abandoned", r.key)
			}
			if r.done.After(lastDone) {
				lastDone = r.done
			}
		}
	}
	if a.end.Before(lastDone) {
		t.Errorf("the worker exited at +%v, before its last call finished (+%v)", a.end.Sub(term), lastDone.Sub(term))
	}
	t.Logf("SIGTERM with %d calls in flight: the worker exited %v later, %v after its last call finished",
		atTerm, a.end.Sub(term).Round(time.Millisecond), a.end.Sub(lastDone).Round(time.Millisecond))

	startProviderWorker(t, bin, queue, p, "--unversioned")
	wait()
	for i := range runs {
		if errs[i] != nil {
			t.Errorf("run %d: %v", i, errs[i])
		} else if outs[i] != want[i] {
			t.Errorf("run %d: %s, want %s", i, outs[i], want[i])
		}
	}
	reqs := p.requests()
	keys := byKey(reqs)
	for k, rs := range keys {
		if len(rs) != 1 {
			t.Errorf("key %s reached the provider %d times, want once (no retry)", k, len(rs))
		}
	}
	t.Logf("SIGTERM drain: %d prompts, %d provider requests, %d keys", runs, len(reqs), len(keys))
	// Server 1.29.1 lacks the poll-completion-on-shutdown capability, so
	// the SDK cancels its polls in flight at SIGTERM; a task the server
	// had already handed to a cancelled poll is lost until its timeout
	// (an activity: the heartbeat timeout; a workflow task: 10 s) and
	// then runs on the next worker. Its first attempt never ran, so the
	// provider still sees the call once: counted here, not failed (the
	// key count above is what fails a call run twice).
	lostActs, lostTasks := 0, 0
	for i := range runs {
		a, w := historyRetries(t, ctx, c, prefix+strconv.Itoa(i))
		lostActs += a
		lostTasks += w
	}
	t.Logf("after SIGTERM: %d activity attempts past the first, %d workflow tasks timed out (the sticky queue gone, or a task lost to a cancelled poll)", lostActs, lostTasks)
	if len(reqs) != runs || len(keys) != runs {
		t.Fatalf("%d requests with %d keys for %d prompts, want one each", len(reqs), len(keys), runs)
	}
}

// kill -9 with model calls in flight: each call in flight is retried
// once, by the next worker, within the heartbeat timeout (not the
// start-to-close timeout), with the same idempotency key; no other call
// is repeated, and every run completes with the right output.
func TestKillRetriesInflightCallsOnce(t *testing.T) {
	c := needServer(t)
	bin := buildCmd(t, "worker")
	const queue, runs = "it-kill9", 24
	hold, heartbeat := 3*time.Second, 2*time.Second
	p := newRecProvider(t, hold, 0)
	prefix := "kill9-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "-"
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// A start-to-close far above the heartbeat timeout: a retry that
	// comes within the heartbeat timeout is the heartbeat's doing.
	opts := workflows.RunOptions{ActivityTimeout: time.Minute, HeartbeatTimeout: heartbeat}

	a := startProviderWorker(t, bin, queue, p, "--unversioned", "--activity-slots", "8")
	want, errs, outs, wait := startRuns(t, ctx, c, queue, prefix, runs, opts)
	waitInflight(t, p, 6, time.Minute)
	if err := a.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	kill := time.Now()
	<-a.exited
	startProviderWorker(t, bin, queue, p, "--unversioned")
	wait()
	for i := range runs {
		if errs[i] != nil {
			t.Errorf("run %d: %v", i, errs[i])
		} else if outs[i] != want[i] {
			t.Errorf("run %d: %s, want %s", i, outs[i], want[i])
		}
	}

	reqs := p.requests()
	keys := byKey(reqs)
	// the retry's bound: the heartbeat timeout, the first backoff (1 s)
	// and slack for the new worker's polls on a shared machine
	bound := heartbeat + time.Second + 5*time.Second
	inflight, retried := 0, 0
	var slowest time.Duration
	for k, rs := range keys {
		cut := rs[0].aborted // the kill closed its connection mid-call
		if cut {
			inflight++
		}
		switch {
		case len(rs) == 1 && !cut:
		case len(rs) == 2 && (cut || kill.Sub(rs[0].done) < time.Second):
			// cut by the kill, or answered just before it and never
			// reported: retried once
			retried++
			after := rs[1].arrived.Sub(kill)
			if after < 0 || after > bound {
				t.Errorf("key %s: retried %v after the kill, want within %v", k, after, bound)
			}
			slowest = max(slowest, after)
			if rs[1].aborted {
				t.Errorf("key %s: the retry was cut too", k)
			}
		default:
			t.Errorf("key %s: %d requests (first cut by the kill: %v), want one, or two for a call in flight at the kill", k, len(rs), cut)
		}
	}
	t.Logf("kill -9 with %d calls in flight: %d prompts, %d provider requests (%d keys retried once, the slowest %v after the kill)",
		inflight, runs, len(reqs), retried, slowest.Round(time.Millisecond))
	if inflight < 6 || retried < inflight || len(keys) != runs || len(reqs) != runs+retried {
		t.Fatalf("%d in flight at the kill, %d retried, %d keys, %d requests for %d prompts", inflight, retried, len(keys), len(reqs), runs)
	}
}

// The provider down: a model call is tried a bounded number of times, or
// for a bounded time, and the run fails with a final ProviderError naming
// the pipe, within its schedule-to-close timeout, every workflow closed.
func TestProviderDownFailsTyped(t *testing.T) {
	c := needServer(t)
	refused := closedPort(t)
	for _, tc := range []struct {
		name    string
		status  int // 0: nothing listens
		opts    workflows.RunOptions
		bound   time.Duration
		retries int // requests the provider sees (0: not counted)
	}{
		// 3 attempts, backoff 1 s then 2 s: about 3 s
		{"connection refused", 0, workflows.RunOptions{MaxAttempts: 3, ScheduleToCloseTimeout: 20 * time.Second}, 20 * time.Second, 0},
		{"HTTP 503", http.StatusServiceUnavailable, workflows.RunOptions{MaxAttempts: 3, ScheduleToCloseTimeout: 20 * time.Second}, 20 * time.Second, 3},
		// unlimited attempts: the schedule-to-close timeout ends them
		{"schedule-to-close", http.StatusServiceUnavailable, workflows.RunOptions{MaxAttempts: -1, ScheduleToCloseTimeout: 6 * time.Second}, 6 * time.Second, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			queue := "it-down-" + strings.ReplaceAll(tc.name, " ", "-")
			base := "http://" + refused
			var p *recProvider
			if tc.status != 0 {
				p = newRecProvider(t, 0, tc.status)
				base = p.srv.URL
			}
			w := worker.New(c, queue, worker.Options{DeadlockDetectionTimeout: workflows.DeadlockDetectionTimeout})
			(&workflows.Workflows{}).Register(w)
			activities.Register(w, &activities.Activities{Provider: &activities.OpenAIProvider{BaseURL: base, Model: "m"}})
			if err := w.Start(); err != nil {
				t.Fatal(err)
			}
			defer w.Stop()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			id := "down-" + strconv.FormatInt(time.Now().UnixNano(), 36)
			start := time.Now()
			_, err := runMethod(ctx, c, queue, id, workflows.RunMethodInput{Method: []byte(oneCall), Inputs: []byte(`{"q":"hello"}`), Options: tc.opts})
			took := time.Since(start)
			ae := providerErrorIn(err)
			if ae == nil || !ae.NonRetryable() {
				t.Fatalf("want a final ProviderError, got %v", err)
			}
			if !strings.Contains(err.Error(), `"ask"`) {
				t.Errorf("the failure does not name the pipe ask: %v", err)
			}
			if took > tc.bound+10*time.Second {
				t.Errorf("failed after %v, want within the %v schedule-to-close (and 10 s)", took, tc.bound)
			}
			assertClosed(t, ctx, c, id, enumspb.WORKFLOW_EXECUTION_STATUS_FAILED)
			if p != nil && tc.retries > 0 {
				reqs := p.requests()
				if len(reqs) != tc.retries || len(byKey(reqs)) != 1 || reqs[0].key == "" {
					t.Errorf("%d requests with %d keys, want %d with one key", len(reqs), len(byKey(reqs)), tc.retries)
				}
			}
			n := 0
			if p != nil {
				n = len(p.requests())
			}
			t.Logf("%s: %s after %v (%d requests)", tc.name, ae.Type(), took.Round(time.Millisecond), n)
		})
	}
}

// historyRetries counts, over every workflow of the run root, the
// activity attempts past the first and the workflow tasks that timed out.
func historyRetries(t *testing.T, ctx context.Context, c client.Client, root string) (activityRetries, taskTimeouts int) {
	t.Helper()
	resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: fmt.Sprintf("RootWorkflowId = '%s'", root)})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range resp.Executions {
		it := c.GetWorkflowHistory(ctx, e.GetExecution().GetWorkflowId(), e.GetExecution().GetRunId(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			if a := ev.GetActivityTaskStartedEventAttributes(); a != nil && a.GetAttempt() > 1 {
				activityRetries += int(a.GetAttempt() - 1)
			}
			if ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT {
				taskTimeouts++
			}
		}
	}
	return activityRetries, taskTimeouts
}

// closedPort is a loopback address where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

// providerErrorIn is the ProviderError in err's chain, walked link by
// link (errors.As stops at the first application error).
func providerErrorIn(err error) *temporal.ApplicationError {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if ae, ok := e.(*temporal.ApplicationError); ok && ae.Type() == failure.ErrTypeProvider {
			return ae
		}
	}
	return nil
}

// assertClosed checks the run ended with status want and that no
// workflow of it is still running (the children closed with it).
func assertClosed(t *testing.T, ctx context.Context, c client.Client, id string, want enumspb.WorkflowExecutionStatus) {
	t.Helper()
	d, err := c.DescribeWorkflow(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := d.RawResponse.GetWorkflowExecutionInfo().GetStatus(); got != want {
		t.Errorf("run %s: status %v, want %v", id, got, want)
	}
	// visibility lags the closes by a moment: wait for it, a few seconds
	query := fmt.Sprintf("RootWorkflowId = '%s' AND ExecutionStatus = 'Running'", id)
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Executions) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, e := range resp.Executions {
				t.Errorf("workflow %s of run %s still running", e.GetExecution().GetWorkflowId(), id)
			}
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// The worker exports the SDK's metrics through OpenTelemetry: a
// cmd/worker process with JINJABOX_METRICS=stdout serves a run, stops on
// SIGTERM and flushes, and its stdout holds the workflow, activity and
// request metrics of the run.
func TestWorkerExportsSDKMetrics(t *testing.T) {
	c := needServer(t)
	bin := buildCmd(t, "worker")
	const queue = "it-metrics"
	promAddr := freeAddr(t)
	cmd := exec.Command(bin, "--unversioned", "--metrics-listen", promAddr)
	cmd.Env = append(os.Environ(), "TEMPORAL_ADDRESS="+server.FrontendHostPort(), "TEMPORAL_TASK_QUEUE="+queue,
		"JINJABOX_TRACES=off", "JINJABOX_METRICS=stdout")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	in := workflows.RunMethodInput{Method: readFile(t, "../method/testdata/sample_method.json"), Inputs: readFile(t, "../method/testdata/sample_inputs.json")}
	if _, err := runMethod(ctx, c, queue, "metrics-"+strconv.FormatInt(time.Now().UnixNano(), 36), in); err != nil {
		t.Fatal(err)
	}
	// the same metrics, scraped as Prometheus does (its text format:
	// counters end in _total, durations carry their unit)
	res, err := http.Get("http://" + promAddr + "/metrics")
	if err != nil {
		t.Fatalf("scraping --metrics-listen: %v\n%s", err, stderr.String())
	}
	scraped, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, name := range []string{"temporal_workflow_completed_total{", "temporal_request_total{", "temporal_worker_task_slots_available{",
		"temporal_workflow_task_execution_latency"} {
		if res.StatusCode != http.StatusOK || !strings.Contains(string(scraped), name) {
			t.Errorf("the Prometheus endpoint (%d) has no %s", res.StatusCode, name)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("worker: %v\n%s", err, stderr.String())
	}
	// stdoutmetric writes one JSON document per export
	found := map[string]bool{}
	dec := json.NewDecoder(strings.NewReader(stdout.String()))
	for {
		var doc struct {
			ScopeMetrics []struct {
				Scope   struct{ Name string }
				Metrics []struct{ Name string }
			}
		}
		if err := dec.Decode(&doc); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("stdout is not the exporter's JSON: %v\n%s", err, stdout.String())
		}
		for _, sm := range doc.ScopeMetrics {
			for _, m := range sm.Metrics {
				if sm.Scope.Name == tconfigMeterName {
					found[m.Name] = true
				}
			}
		}
	}
	for _, name := range []string{"temporal_workflow_completed", "temporal_workflow_task_execution_latency",
		"temporal_activity_execution_latency", "temporal_request", "temporal_worker_task_slots_available"} {
		if !found[name] {
			t.Errorf("metric %s not exported (%d metrics exported)", name, len(found))
		}
	}
}

// freeAddr is a loopback address with a port nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// tconfigMeterName is the meter the worker's SDK metrics are recorded
// under (tconfig.MeterName; cmd/internal is not importable from here).
const tconfigMeterName = "temporal-sdk-go"

// `jinjabox run` sets an execution timeout on the run: with the model
// call held far longer, the run is closed as timed out at
// --execution-timeout, the starter exits 1 saying so, and no workflow
// of the run keeps running (the children close with their parent).
func TestRunExecutionTimeout(t *testing.T) {
	c := needServer(t)
	worker, cli := buildCmd(t, "worker"), buildCmd(t, "jinjabox")
	const queue = "it-exec-timeout"
	p := newRecProvider(t, time.Minute, 0)
	startProviderWorker(t, worker, queue, p, "--unversioned")
	lib, inputs := writeRunFiles(t, oneCall, `{"q":"slow"}`)
	id := "exec-timeout-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	run := exec.Command(cli, "run", "--id", id, "--execution-timeout", "4s", lib, inputs)
	run.Env = append(os.Environ(), "TEMPORAL_ADDRESS="+server.FrontendHostPort(), "TEMPORAL_TASK_QUEUE="+queue, "JINJABOX_TRACES=off")
	var stderr strings.Builder
	run.Stderr = &stderr
	start := time.Now()
	err := run.Run()
	took := time.Since(start)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("jinjabox run: %v, want exit 1\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "timed out") {
		t.Errorf("stderr does not say the run timed out:\n%s", stderr.String())
	}
	if took > 4*time.Second+10*time.Second {
		t.Errorf("jinjabox run returned after %v, want about the 4 s execution timeout", took)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	assertClosed(t, ctx, c, id, enumspb.WORKFLOW_EXECUTION_STATUS_TIMED_OUT)
	t.Logf("execution timeout 4 s: jinjabox run exited 1 after %v", took.Round(time.Millisecond))
}

// `jinjabox run --id X` while X is running fails, naming the running run
// and --attach, and starts nothing; with --attach it waits for the
// running one (here until its own --timeout, the model call being held).
func TestRunIDConflict(t *testing.T) {
	c := needServer(t)
	worker, cli := buildCmd(t, "worker"), buildCmd(t, "jinjabox")
	const queue = "it-id-conflict"
	p := newRecProvider(t, time.Minute, 0)
	startProviderWorker(t, worker, queue, p, "--unversioned")
	lib, inputs := writeRunFiles(t, oneCall, `{"q":"slow"}`)
	id := "id-conflict-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	env := append(os.Environ(), "TEMPORAL_ADDRESS="+server.FrontendHostPort(), "TEMPORAL_TASK_QUEUE="+queue, "JINJABOX_TRACES=off")
	first := exec.Command(cli, "run", "--id", id, "--execution-timeout", "2m", lib, inputs)
	first.Env = env
	var firstErr strings.Builder
	first.Stderr = &firstErr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = first.Process.Kill(); _ = first.Wait() }()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		if _, err := c.DescribeWorkflow(ctx, id, ""); err == nil {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the first run never started: %s", firstErr.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	second := exec.Command(cli, "run", "--id", id, lib, inputs)
	second.Env = env
	out, err := second.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(string(out), "already running") || !strings.Contains(string(out), "--attach") {
		t.Fatalf("second run with the same ID: %v\n%s", err, out)
	}
	attach := exec.Command(cli, "run", "--id", id, "--attach", "--timeout", "3s", lib, inputs)
	attach.Env = env
	out, err = attach.CombinedOutput()
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || strings.Contains(string(out), "already running") {
		t.Fatalf("--attach: %v, want it to wait for the running run until its timeout\n%s", err, out)
	}
	// still one run of that ID, and still running
	desc, err := c.DescribeWorkflow(ctx, id, "")
	if err != nil || desc.RawResponse.GetWorkflowExecutionInfo().GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		t.Fatalf("the first run: %v %v", err, desc)
	}
	_ = c.TerminateWorkflow(ctx, id, "", "test done")
}

// writeRunFiles writes a method and its inputs for `jinjabox run`, and
// returns their paths.
func writeRunFiles(t *testing.T, method, inputs string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	lib, in := filepath.Join(dir, "method.json"), filepath.Join(dir, "inputs.json")
	if err := os.WriteFile(lib, []byte(method), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, []byte(inputs), 0o644); err != nil {
		t.Fatal(err)
	}
	return lib, in
}
