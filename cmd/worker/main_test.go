package main

import (
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/jinjabox/jinjabox/workflows"
)

// The defaults drain a model call and bound workflow task slots by the
// cores; the flags reach the SDK's worker options.
func TestFlags(t *testing.T) {
	d, err := parseFlags(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	o := d.options()
	if o.WorkerStopTimeout <= workflows.DefaultActivityTimeout {
		t.Errorf("default stop timeout %v does not outlast a model call (%v)", o.WorkerStopTimeout, workflows.DefaultActivityTimeout)
	}
	if o.MaxConcurrentWorkflowTaskExecutionSize != max(2, 2*runtime.GOMAXPROCS(0)) || o.MaxConcurrentActivityExecutionSize != 64 ||
		o.MaxConcurrentWorkflowTaskPollers != 2 || o.MaxConcurrentActivityTaskPollers != 4 || o.DeadlockDetectionTimeout != 0 {
		t.Errorf("default options %+v", o)
	}
	f, err := parseFlags([]string{"--workflow-task-slots", "6", "--activity-slots", "9", "--workflow-pollers", "3",
		"--activity-pollers", "5", "--task-queue-activities-per-second", "2.5", "--stop-timeout", "30s", "--deadlock-timeout", "3s"}, io.Discard)
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
		if _, err := parseFlags(bad, io.Discard); err == nil {
			t.Errorf("%v: want an error", bad)
		}
	}
}
