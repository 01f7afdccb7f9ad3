package integration

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	temporaltest "go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/workflows"
)

// server is the dev server shared by the package's tests (nil: skip).
var server *temporaltest.DevServer

func TestMain(m *testing.M) {
	if spec := os.Getenv(hogEnv); spec != "" {
		hog(spec) // TestNastyComposeUnderLoad's CPU hog
		os.Exit(0)
	}
	bin := os.Getenv("JINJABOX_TEMPORAL_BIN")
	if bin == "" {
		os.Exit(m.Run())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	start := time.Now()
	var err error
	server, err = temporaltest.StartDevServer(ctx, temporaltest.DevServerOptions{
		ExistingPath:  bin,
		ClientOptions: &client.Options{Logger: quietLogger()},
		LogLevel:      "error",
		Stdout:        io.Discard,
		Stderr:        io.Discard,
	})
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "integration: starting the dev server:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "integration: dev server on %s ready in %v\n", server.FrontendHostPort(), time.Since(start).Round(time.Millisecond))
	code := m.Run()
	_ = server.Stop()
	os.Exit(code)
}

func quietLogger() log.Logger {
	return log.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
}

// needServer skips a test without a dev server.
func needServer(t *testing.T) client.Client {
	t.Helper()
	if server == nil {
		t.Skip("JINJABOX_TEMPORAL_BIN not set: no dev server (make devserver builds bin/temporal)")
	}
	return server.Client()
}

// startWorker runs an in-process worker on a fresh task queue until the
// test ends.
func startWorker(t *testing.T, c client.Client, queue string) {
	t.Helper()
	w := worker.New(c, queue, worker.Options{DeadlockDetectionTimeout: workflows.DeadlockDetectionTimeout})
	(&workflows.Workflows{}).Register(w)
	activities.Register(w, &activities.Activities{})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
