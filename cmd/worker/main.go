// Command worker is jinjabox's Temporal worker: it registers every pipe
// workflow and activity on the task queue and runs until SIGINT or
// SIGTERM, then drains: it stops polling, lets the activities in flight
// finish (up to --stop-timeout, by default longer than one model call, so
// a call is never abandoned and retried), and flushes its telemetry.
//
// Usage: worker [flags]. The flags tune the worker (see -h); settings
// come from the environment: the standard Temporal client variables and
// TOML profiles (TEMPORAL_ADDRESS, default 127.0.0.1:7233;
// TEMPORAL_NAMESPACE; TEMPORAL_API_KEY; TEMPORAL_TLS,
// TEMPORAL_TLS_CLIENT_CERT_PATH, TEMPORAL_TLS_CLIENT_KEY_PATH,
// TEMPORAL_TLS_SERVER_CA_CERT_PATH, ...; TEMPORAL_CONFIG_FILE,
// TEMPORAL_PROFILE), TEMPORAL_TASK_QUEUE (jinjabox); the Worker
// Deployment Version (TEMPORAL_DEPLOYMENT_NAME, default jinjabox, and
// TEMPORAL_WORKER_BUILD_ID, the names the Temporal Worker Controller
// sets; --deployment-name and --build-id override them); the model provider
// (JINJABOX_PROVIDER=local|openai, OPENAI_BASE_URL, OPENAI_API_KEY,
// OPENAI_MODEL); traces (OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set,
// else stdout; JINJABOX_TRACES=off drops them) and SDK metrics (OTLP
// when an OTLP endpoint is set, JINJABOX_METRICS=stdout|off; a Prometheus
// endpoint with --metrics-listen ADDR).
//
// The worker is versioned (docs/temporal.md, "Versioning and the replay
// corpus"): it polls as one Worker Deployment Version, and every workflow
// it starts is pinned to that version, so a run in flight never meets
// another build's workflow code. A versioned worker gets tasks only once
// its version is current (temporal worker deployment
// set-current-version) or ramping. --unversioned runs it without Worker
// Versioning, for a server without it (before 1.28) or a task queue per
// release.
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/cmd/internal/tconfig"
	"github.com/jinjabox/jinjabox/workflows"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	var u usageError
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
		os.Exit(2)
	case errors.As(err, &u):
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(1)
	}
}

// usageError is a bad flag (exit 2; other failures exit 1).
type usageError struct{ error }

// flushTimeout bounds the telemetry flush after the worker stopped.
const flushTimeout = 10 * time.Second

// tuning is the worker's flags.
type tuning struct {
	workflowTaskSlots  int
	activitySlots      int
	workflowPollers    int
	activityPollers    int
	activitiesPerSec   float64
	stopTimeout        time.Duration
	deadlockTimeout    time.Duration
	workflowCacheLimit int
	// metricsListen is the address of the Prometheus endpoint
	// (/metrics), empty for none.
	metricsListen string
	// deployment is the Worker Deployment Version the worker polls as
	// (zero when unversioned).
	deployment worker.WorkerDeploymentVersion
}

// DefaultDeploymentName is the Worker Deployment of jinjabox's workers
// when TEMPORAL_DEPLOYMENT_NAME and --deployment-name are unset.
const DefaultDeploymentName = "jinjabox"

// DefaultStopTimeout is longer than one model call attempt, so SIGTERM
// lets every call in flight finish.
const DefaultStopTimeout = workflows.DefaultActivityTimeout + 10*time.Second

// parseFlags parses the flags; getenv supplies the deployment's
// variables (os.Getenv, or a test's).
func parseFlags(args []string, getenv func(string) string, stderr io.Writer) (tuning, error) {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var t tuning
	fs.IntVar(&t.workflowTaskSlots, "workflow-task-slots", max(2, 2*runtime.GOMAXPROCS(0)),
		"workflow tasks run at once (MaxConcurrentWorkflowTaskExecutionSize; not 1). Renders run in workflow tasks and are CPU-bound: more slots than cores only stretch each task toward the 1 s deadlock detector")
	fs.IntVar(&t.activitySlots, "activity-slots", 64, "activities run at once (MaxConcurrentActivityExecutionSize); model calls mostly wait on HTTP")
	fs.IntVar(&t.workflowPollers, "workflow-pollers", 2, "workflow task pollers (MaxConcurrentWorkflowTaskPollers; not 1)")
	fs.IntVar(&t.activityPollers, "activity-pollers", 4, "activity task pollers (MaxConcurrentActivityTaskPollers)")
	fs.Float64Var(&t.activitiesPerSec, "task-queue-activities-per-second", 0,
		"activities started per second on the whole task queue, across every worker (TaskQueueActivitiesPerSecond, enforced by the server; 0: unlimited): the knob for a provider's rate limit")
	fs.DurationVar(&t.stopTimeout, "stop-timeout", DefaultStopTimeout,
		"on SIGINT/SIGTERM, how long activities in flight may run before they are cancelled (WorkerStopTimeout); keep it above the model call timeout and below the orchestrator's grace period")
	fs.DurationVar(&t.deadlockTimeout, "deadlock-timeout", workflows.DeadlockDetectionTimeout,
		"how long a stretch of workflow code may run without yielding (DeadlockDetectionTimeout; 0: the SDK's 1 s). The default holds a render stretch at 8 runnable threads a core with the default slots; raise it on a host busier than that")
	fs.IntVar(&t.workflowCacheLimit, "workflow-cache", 0, "workflows kept in the sticky cache (worker.SetStickyWorkflowCacheSize, process-wide; 0: the SDK's 10,000)")
	deploymentName := cmp.Or(getenv("TEMPORAL_DEPLOYMENT_NAME"), DefaultDeploymentName)
	fs.StringVar(&t.deployment.DeploymentName, "deployment-name", deploymentName,
		"the Worker Deployment the worker's version belongs to (TEMPORAL_DEPLOYMENT_NAME)")
	fs.StringVar(&t.deployment.BuildID, "build-id", getenv("TEMPORAL_WORKER_BUILD_ID"),
		"the build's ID in the deployment, one per release (TEMPORAL_WORKER_BUILD_ID); required unless --unversioned. Workflows are pinned to it; the version gets tasks once it is current (temporal worker deployment set-current-version)")
	fs.StringVar(&t.metricsListen, "metrics-listen", getenv("JINJABOX_METRICS_LISTEN"),
		"serve the SDK's metrics for Prometheus at http://`ADDR`/metrics (host:port; JINJABOX_METRICS_LISTEN), beside OTLP or stdout")
	unversioned := fs.Bool("unversioned", false,
		"run without Worker Versioning (a server before 1.28, or one task queue per release): workflows are not pinned, so a new build may replay runs an old one started")
	if err := fs.Parse(args); err != nil {
		return t, err
	}
	if fs.NArg() > 0 {
		return t, fmt.Errorf("unexpected argument %q (settings come from the environment)", fs.Arg(0))
	}
	switch {
	case t.workflowTaskSlots < 2:
		return t, errors.New("--workflow-task-slots must be at least 2 (the SDK alternates sticky and normal polls)")
	case t.workflowPollers < 2:
		return t, errors.New("--workflow-pollers must be at least 2 (the SDK alternates sticky and normal polls)")
	case t.activitySlots < 1 || t.activityPollers < 1:
		return t, errors.New("--activity-slots and --activity-pollers must be at least 1")
	case t.activitiesPerSec < 0 || t.stopTimeout < 0 || t.deadlockTimeout < 0 || t.workflowCacheLimit < 0:
		return t, errors.New("rates, timeouts and sizes cannot be negative")
	}
	if *unversioned {
		t.deployment = worker.WorkerDeploymentVersion{}
		return t, nil
	}
	switch {
	case t.deployment.BuildID == "":
		return t, errors.New("no build ID: set --build-id or TEMPORAL_WORKER_BUILD_ID (one per release; then make it current with temporal worker deployment set-current-version), or run --unversioned")
	case t.deployment.DeploymentName == "":
		return t, errors.New("--deployment-name cannot be empty")
	}
	return t, nil
}

// options are the SDK worker options of the flags.
func (t tuning) options() worker.Options {
	return worker.Options{
		MaxConcurrentWorkflowTaskExecutionSize: t.workflowTaskSlots,
		MaxConcurrentActivityExecutionSize:     t.activitySlots,
		MaxConcurrentWorkflowTaskPollers:       t.workflowPollers,
		MaxConcurrentActivityTaskPollers:       t.activityPollers,
		TaskQueueActivitiesPerSecond:           t.activitiesPerSec,
		WorkerStopTimeout:                      t.stopTimeout,
		DeadlockDetectionTimeout:               t.deadlockTimeout,
		DeploymentOptions: worker.DeploymentOptions{
			UseVersioning:             t.versioned(),
			Version:                   t.deployment,
			DefaultVersioningBehavior: t.behavior(),
		},
	}
}

func (t tuning) versioned() bool { return t.deployment.BuildID != "" }

// behavior pins every workflow of a versioned worker to its version:
// renders run in workflow code, so any engine change may change what a
// replay decides (docs/temporal.md), and only the build that started a
// run may go on with it. Children and continue-as-new inherit the pin.
func (t tuning) behavior() workflow.VersioningBehavior {
	if !t.versioned() {
		return workflow.VersioningBehaviorUnspecified
	}
	return workflow.VersioningBehaviorPinned
}

// version describes the worker's deployment version for its start line.
func (t tuning) version() string {
	if !t.versioned() {
		return "unversioned"
	}
	return "version " + t.deployment.DeploymentName + "/" + t.deployment.BuildID + ", workflows pinned"
}

func run(args []string, stdout, stderr io.Writer) error {
	t, err := parseFlags(args, os.Getenv, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	cfg, err := tconfig.Load()
	if err != nil {
		return err
	}
	ctx := context.Background()
	tp, err := cfg.Tracing(ctx, stdout)
	if err != nil {
		return err
	}
	var readers []sdkmetric.Reader
	if t.metricsListen != "" {
		reader, handler, err := prometheusReader()
		if err != nil {
			return err
		}
		stop, err := serveMetrics(t.metricsListen, handler, stderr)
		if err != nil {
			return err
		}
		defer stop()
		readers = append(readers, reader)
	}
	mp, err := cfg.Metering(ctx, stdout, readers...)
	if err != nil {
		return err
	}
	// Deferred first, so it runs last: after the worker has stopped and
	// the client has closed, the spans and metrics of the drain included.
	defer func() {
		fctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
		defer cancel()
		if err := tconfig.Shutdown(fctx, tp, mp); err != nil {
			fmt.Fprintln(stderr, "worker: flushing telemetry:", err)
		}
	}()
	tracer := tp.Tracer("github.com/jinjabox/jinjabox")
	opts, store, err := cfg.ClientOptions(ctx, tracer, mp)
	if err != nil {
		return err
	}
	defer store.Close()
	c, err := client.Dial(opts)
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", cfg.Address(), err)
	}
	defer c.Close()
	provider, err := activities.ProviderFromEnv()
	if err != nil {
		return err
	}
	if t.workflowCacheLimit > 0 {
		worker.SetStickyWorkflowCacheSize(t.workflowCacheLimit)
	}
	w := worker.New(c, cfg.TaskQueue, t.options())
	(&workflows.Workflows{Recorder: activities.SpanRecorder{Tracer: tracer}}).Register(w)
	activities.Register(w, &activities.Activities{Provider: provider, Tracer: tracer})
	fmt.Fprintf(stderr, "worker: polling %s on %s (namespace %s) as %s; %d workflow task slots, %d activity slots, stop timeout %v\n",
		cfg.TaskQueue, cfg.Address(), cfg.Namespace(), t.version(), t.workflowTaskSlots, t.activitySlots, t.stopTimeout)
	// InterruptCh closes on SIGINT or SIGTERM; Run then stops the worker,
	// waiting up to the stop timeout for the activities in flight.
	if err := w.Run(worker.InterruptCh()); err != nil {
		return err
	}
	fmt.Fprintln(stderr, "worker: stopped")
	return nil
}
