// Command worker is jinjabox's Temporal worker: it registers every pipe
// workflow and activity on the task queue and runs until SIGINT or
// SIGTERM, then stops gracefully (in-flight activities finish or time out
// and are retried elsewhere; workflow state lives in Temporal).
//
// Settings come from the environment: TEMPORAL_ADDRESS (default
// 127.0.0.1:7233), TEMPORAL_NAMESPACE (default), TEMPORAL_TASK_QUEUE
// (jinjabox), TEMPORAL_API_KEY, TEMPORAL_TLS, TEMPORAL_TLS_CERT,
// TEMPORAL_TLS_KEY, TEMPORAL_TLS_CA, TEMPORAL_TLS_SERVER_NAME; the model
// provider (JINJABOX_PROVIDER=local|openai, OPENAI_BASE_URL,
// OPENAI_API_KEY, OPENAI_MODEL); traces (OTLP when
// OTEL_EXPORTER_OTLP_ENDPOINT is set, else stdout; JINJABOX_TRACES=off
// drops them).
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/cmd/internal/tconfig"
	"github.com/jinjabox/jinjabox/workflows"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(1)
	}
}

func run() error {
	cfg := tconfig.FromEnv()
	ctx := context.Background()
	tp, err := cfg.Tracing(ctx, os.Stdout)
	if err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = tp.Shutdown(sctx)
	}()
	tracer := tp.Tracer("github.com/jinjabox/jinjabox")
	opts, err := cfg.ClientOptions(tracer)
	if err != nil {
		return err
	}
	c, err := client.Dial(opts)
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", cfg.Address, err)
	}
	defer c.Close()
	provider, err := activities.ProviderFromEnv()
	if err != nil {
		return err
	}
	w := worker.New(c, cfg.TaskQueue, worker.Options{})
	(&workflows.Workflows{Recorder: activities.SpanRecorder{Tracer: tracer}}).Register(w)
	activities.Register(w, &activities.Activities{Provider: provider, Tracer: tracer})
	fmt.Fprintf(os.Stderr, "worker: polling %s on %s (namespace %s)\n", cfg.TaskQueue, cfg.Address, cfg.Namespace)
	// InterruptCh closes on SIGINT or SIGTERM; Run then stops the worker.
	return w.Run(worker.InterruptCh())
}
