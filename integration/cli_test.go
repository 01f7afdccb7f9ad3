package integration

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// buildCmd builds ../cmd/NAME into a temporary directory, and for
// jinjabox its companion jinjabox-method beside it, which its exec and
// run commands run.
func buildCmd(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	names := []string{name}
	if name == "jinjabox" {
		names = append(names, "jinjabox-method")
	}
	for _, n := range names {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, n), "../cmd/"+n).CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", n, err, out)
		}
	}
	return filepath.Join(dir, name)
}

// `jinjabox run` against the dev server, served by a cmd/worker process,
// prints exactly what `jinjabox exec` prints; the worker then stops
// gracefully on SIGTERM.
func TestStarterAndWorkerCommands(t *testing.T) {
	needServer(t)
	worker, cli := buildCmd(t, "worker"), buildCmd(t, "jinjabox")
	const queue = "it-cli"
	w := startWorkerProc(t, worker, queue)
	method, inputs := "../method/testdata/sample_method.json", "../method/testdata/sample_inputs.json"
	want, err := exec.Command(cli, "exec", method, inputs).Output()
	if err != nil {
		t.Fatal(err)
	}
	run := exec.Command(cli, "run", "--timeout", "1m", method, inputs)
	run.Env = append(os.Environ(), "TEMPORAL_ADDRESS="+server.FrontendHostPort(), "TEMPORAL_TASK_QUEUE="+queue)
	var stderr bytes.Buffer
	run.Stderr = &stderr
	start := time.Now()
	got, err := run.Output()
	if err != nil {
		t.Fatalf("jinjabox run: %v\n%s", err, stderr.String())
	}
	t.Logf("jinjabox run took %v", time.Since(start).Round(time.Millisecond))
	if !bytes.Equal(got, want) {
		t.Fatalf("jinjabox run printed\n%s\nwant (jinjabox exec)\n%s", got, want)
	}

	if err := w.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- w.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("worker exited with %v after SIGTERM, want 0", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("worker did not stop within 20 s of SIGTERM")
	}
}
