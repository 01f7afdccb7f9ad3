// Package benchtemporal is the Temporal load benchmark (make
// bench-temporal): it starts its own dev server as a process (so its
// peak RSS can be read), runs scenarios on an in-process worker, and
// measures every workflow of each run (events and history bytes, from
// the server's visibility store, the largest confirmed with
// DescribeWorkflowExecution).
package benchtemporal

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
)

// Server is a dev server process started by the benchmark.
type Server struct {
	cmd    *exec.Cmd
	Addr   string
	Client client.Client
	done   chan error
}

// StartServer starts `bin server start-dev` on a free loopback port
// (headless, in memory) with extra arguments (for example
// --dynamic-config-value limits), and dials it.
//
// A port found free can be taken by another process before the server
// binds it (the integration tests start dev servers of their own at the
// same time), and the server then exits at once: such a start is tried
// again on new ports, three times in all.
func StartServer(ctx context.Context, bin string, logger log.Logger, extra ...string) (*Server, error) {
	var err error
	for range 3 {
		var s *Server
		if s, err = startServer(ctx, bin, logger, extra...); !errors.Is(err, errExited) {
			return s, err
		}
	}
	return nil, err
}

// errExited is a dev server that exited before it was healthy.
var errExited = errors.New("dev server exited")

// startServer is one try of StartServer.
func startServer(ctx context.Context, bin string, logger log.Logger, extra ...string) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	uiPort, err := freePort()
	if err != nil {
		return nil, err
	}
	args := append([]string{"server", "start-dev", "--headless", "--ip", "127.0.0.1",
		"--port", strconv.Itoa(port), "--ui-port", strconv.Itoa(uiPort), "--log-level", "error"}, extra...)
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &Server{cmd: cmd, Addr: "127.0.0.1:" + strconv.Itoa(port), done: make(chan error, 1)}
	go func() { s.done <- cmd.Wait() }()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		c, err := client.Dial(client.Options{HostPort: s.Addr, Logger: logger})
		if err == nil {
			if _, err = c.CheckHealth(ctx, &client.CheckHealthRequest{}); err == nil {
				s.Client = c
				return s, nil
			}
			c.Close()
		}
		select {
		case err := <-s.done:
			return nil, fmt.Errorf("%w: %v", errExited, err)
		case <-ctx.Done():
			s.Stop()
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, errors.New("dev server not healthy after 2 minutes")
		}
	}
}

// Pid is the server's process ID.
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// PeakRSSKiB is the server's peak resident set size (VmHWM) so far.
func (s *Server) PeakRSSKiB() int64 { return procStatus(s.cmd.Process.Pid, "VmHWM:") }

// CPUSeconds is the server process's user+system CPU time so far
// (/proc/PID/stat's utime and stime, in the kernel's USER_HZ of 100
// ticks a second; 0 when unknown). The dev server is one process.
func (s *Server) CPUSeconds() float64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(s.cmd.Process.Pid) + "/stat")
	if err != nil {
		return 0
	}
	// the fields after the command name, which may hold spaces: state is
	// field 3, utime 14, stime 15
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return float64(u+st) / 100
}

// Stop stops the server (SIGTERM to its process group, SIGKILL after
// 10 s) and closes the client.
func (s *Server) Stop() {
	if s.Client != nil {
		s.Client.Close()
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// procStatus reads one kB field of /proc/PID/status (0 when unknown).
func procStatus(pid int, field string) int64 {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			v, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return v
		}
	}
	return 0
}
