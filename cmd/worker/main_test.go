package main

import (
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/jinjabox/jinjabox/workflows"
)

// noEnv is an empty environment.
func noEnv(string) string { return "" }

// The defaults drain a model call and bound workflow task slots by the
// cores; the flags reach the SDK's worker options.
func TestFlags(t *testing.T) {
	d, err := parseFlags([]string{"--unversioned"}, noEnv, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	o := d.options()
	if o.WorkerStopTimeout <= workflows.DefaultActivityTimeout {
		t.Errorf("default stop timeout %v does not outlast a model call (%v)", o.WorkerStopTimeout, workflows.DefaultActivityTimeout)
	}
	if o.MaxConcurrentWorkflowTaskExecutionSize != max(2, 2*runtime.GOMAXPROCS(0)) || o.MaxConcurrentActivityExecutionSize != 64 ||
		o.MaxConcurrentWorkflowTaskPollers != 2 || o.MaxConcurrentActivityTaskPollers != 4 || o.DeadlockDetectionTimeout != workflows.DeadlockDetectionTimeout {
		t.Errorf("default options %+v", o)
	}
	f, err := parseFlags([]string{"--unversioned", "--workflow-task-slots", "6", "--activity-slots", "9", "--workflow-pollers", "3",
		"--activity-pollers", "5", "--task-queue-activities-per-second", "2.5", "--stop-timeout", "30s", "--deadlock-timeout", "3s"}, noEnv, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	o = f.options()
	if o.MaxConcurrentWorkflowTaskExecutionSize != 6 || o.MaxConcurrentActivityExecutionSize != 9 || o.MaxConcurrentWorkflowTaskPollers != 3 ||
		o.MaxConcurrentActivityTaskPollers != 5 || o.TaskQueueActivitiesPerSecond != 2.5 || o.WorkerStopTimeout != 30*time.Second ||
		o.DeadlockDetectionTimeout != 3*time.Second {
		t.Errorf("options %+v", o)
	}
	// 1 would panic inside the SDK: refused up front
	for _, bad := range [][]string{{"--workflow-task-slots", "1"}, {"--workflow-pollers", "1"}, {"--activity-slots", "0"},
		{"--stop-timeout", "-1s"}, {"extra"}} {
		if _, err := parseFlags(append([]string{"--unversioned"}, bad...), noEnv, io.Discard); err == nil {
			t.Errorf("%v: want an error", bad)
		}
	}
}

// A worker is versioned unless --unversioned: it polls as the deployment's
// build (the Worker Controller's variables, or the flags, which win) with
// every workflow pinned; without a build ID it refuses to start rather
// than run unversioned by surprise.
func TestDeploymentFlags(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	pinned := func(name, build string) worker.DeploymentOptions {
		return worker.DeploymentOptions{UseVersioning: true, Version: worker.WorkerDeploymentVersion{DeploymentName: name, BuildID: build},
			DefaultVersioningBehavior: workflow.VersioningBehaviorPinned}
	}
	for _, c := range []struct {
		name string
		args []string
		env  map[string]string
		want worker.DeploymentOptions
		err  string
	}{
		{"flag", []string{"--build-id", "v1.2.0"}, nil, pinned(DefaultDeploymentName, "v1.2.0"), ""},
		{"env", nil, map[string]string{"TEMPORAL_WORKER_BUILD_ID": "abc123", "TEMPORAL_DEPLOYMENT_NAME": "jb/prod"}, pinned("jb/prod", "abc123"), ""},
		{"flags win", []string{"--build-id", "v2", "--deployment-name", "other"}, map[string]string{"TEMPORAL_WORKER_BUILD_ID": "v1"}, pinned("other", "v2"), ""},
		{"unversioned", []string{"--unversioned"}, map[string]string{"TEMPORAL_WORKER_BUILD_ID": "v1"}, worker.DeploymentOptions{}, ""},
		{"no build ID", nil, nil, worker.DeploymentOptions{}, "no build ID"},
		{"empty deployment", []string{"--build-id", "v1", "--deployment-name", ""}, nil, worker.DeploymentOptions{}, "--deployment-name"},
	} {
		f, err := parseFlags(c.args, env(c.env), io.Discard)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one saying %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := f.options().DeploymentOptions; got != c.want {
			t.Errorf("%s: deployment options %+v, want %+v", c.name, got, c.want)
		}
	}
	// the SDK accepts the options and the registrations under them (it
	// panics on a versioned worker's workflow without a behavior)
	f, err := parseFlags([]string{"--build-id", "v1"}, noEnv, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.NewLazyClient(client.Options{HostPort: "127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	(&workflows.Workflows{}).Register(worker.New(c, "q", f.options()))
}
