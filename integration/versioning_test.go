package integration

import (
	"context"
	"strconv"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/jinjabox/jinjabox/workflows"
)

// Worker Versioning (docs/temporal.md, "Versioning and the replay
// corpus"): cmd/worker polls as a Worker Deployment Version, and once
// that version is current a run and every child it starts are pinned to
// it. A run in flight when a second build becomes current finishes on the
// first build, the child it starts afterwards included, while the new
// runs go to the second build.
func TestVersionedWorkerPinsRuns(t *testing.T) {
	c := needServer(t)
	bin := buildCmd(t, "worker")
	const queue = "it-versioned"
	deployment := "it-jinjabox-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	// the model calls are held until v2 is current: the first run is in
	// flight meanwhile
	p := startRecProvider(t, &recProvider{hold: time.Minute, release: make(chan struct{})})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := func(build string) time.Time {
		w := startProviderWorker(t, bin, queue, p, "--deployment-name", deployment, "--build-id", build)
		return setCurrent(t, ctx, c, deployment, build, w)
	}

	start("v1")
	want1, errs1, outs1, wait1 := startRuns(t, ctx, c, queue, "versioned-v1-", 1, workflows.RunOptions{})
	waitInflight(t, p, 1, time.Minute) // v1's run waits on its model call
	v2 := start("v2")
	close(p.release)
	want2, errs2, outs2, wait2 := startRuns(t, ctx, c, queue, "versioned-v2-", 1, workflows.RunOptions{})
	wait1()
	wait2()
	// so v1's run started its compose child after v2 was current
	if first := p.requests()[0]; !first.done.After(v2) {
		t.Fatalf("v1's model call ended %v before v2 became current: the test needs a longer hold", v2.Sub(first.done))
	}
	for _, r := range []struct {
		id, build, want, out string
		err                  error
	}{{"versioned-v1-0", "v1", want1[0], outs1[0], errs1[0]}, {"versioned-v2-0", "v2", want2[0], outs2[0], errs2[0]}} {
		if r.err != nil || r.out != r.want {
			t.Fatalf("%s: %v, output %s, want %s", r.id, r.err, r.out, r.want)
		}
		if n := assertPinnedTree(t, ctx, c, r.id, deployment, r.build); n != 4 {
			t.Fatalf("%s: %d workflows, want 4 (the run, the sequence, the call, the compose)", r.id, n)
		}
	}
}

// setCurrent makes the build the deployment's current version once the
// worker polls as it (the server creates a version at its first poll and
// refuses to make current a version without pollers), and returns when.
func setCurrent(t *testing.T, ctx context.Context, c client.Client, deployment, build string, w *providerWorker) time.Time {
	t.Helper()
	h := c.WorkerDeploymentClient().GetHandle(deployment)
	start := time.Now()
	var tries int
	for {
		tries++
		_, err := h.SetCurrentVersion(ctx, client.WorkerDeploymentSetCurrentVersionOptions{BuildID: build})
		if err == nil {
			t.Logf("%s/%s current after %v (%d tries)", deployment, build, time.Since(start).Round(time.Millisecond), tries)
			return time.Now()
		}
		if time.Since(start) > 30*time.Second {
			t.Fatalf("setting %s/%s current: %v\nworker log:\n%s", deployment, build, err, w.logText())
		}
		if tries == 1 {
			t.Logf("%s/%s: %v (retrying)", deployment, build, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// assertPinnedTree checks that the workflow and every child under it
// completed on the deployment's build, pinned to it, and returns how many
// workflows it checked.
func assertPinnedTree(t *testing.T, ctx context.Context, c client.Client, id, deployment, build string) int {
	t.Helper()
	d, err := c.DescribeWorkflow(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	info := d.RawResponse.GetWorkflowExecutionInfo()
	v := info.GetVersioningInfo()
	if info.GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED || v.GetBehavior() != enumspb.VERSIONING_BEHAVIOR_PINNED ||
		v.GetDeploymentVersion().GetDeploymentName() != deployment || v.GetDeploymentVersion().GetBuildId() != build {
		t.Fatalf("%s: status %v, versioning %v: want completed, pinned to %s/%s", id, info.GetStatus(), v, deployment, build)
	}
	t.Logf("%s: %v, %v on %s", id, info.GetStatus(), v.GetBehavior(), build)
	n := 1
	it := c.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := e.GetChildWorkflowExecutionStartedEventAttributes(); a != nil {
			n += assertPinnedTree(t, ctx, c, a.GetWorkflowExecution().GetWorkflowId(), deployment, build)
		}
	}
	return n
}
