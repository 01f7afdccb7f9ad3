package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/jinjabox/jinjabox/cmd/internal/cli"
	"github.com/jinjabox/jinjabox/playground"
)

// serveHelp is the rest of serve's help.
const serveHelp = `The page at / renders as you type: a template, JSON or YAML data, options
and limits, the output with the units spent, or the error with its caret
excerpt. Under it, the JSON API:

  POST /render  {"template": "...", "data": {...} or "text", "data_format": "json"|"yaml",
                 "options": {"autoescape": true, ...}, "limits": {"work_units": 1000, ...}}
                -> 200 {"ok": true, "output": "...", "units": N}
                -> 422 {"ok": false, "error": {"kind", "message", "line", "col", "limit", "excerpt"}}
  POST /check   the same request -> {"ok", "facts": {"Vars", "Filters", ...}, "error"}
  GET  /limits  the service's limits

Each request is bounded (body size, limits a request can only lower, a
timeout, renders at once) and independent: nothing is kept between them.
The default address is loopback only.`

// cmdServe: jinjabox serve — the playground and the render API.
func cmdServe(args []string, stdout, stderr io.Writer) int {
	fs := cli.NewFlagSet("serve")
	var cfg playground.Config
	addr := fs.String("addr", "127.0.0.1:8080", "listen address (HOST:PORT); a non-loopback host serves the network")
	fs.Int64Var(&cfg.Limits.WorkUnits, "budget", playground.DefaultWorkUnits, "work-unit ceiling of one render")
	fs.Int64Var(&cfg.Limits.OutputBytes, "max-output-bytes", 1<<20, "output ceiling of one render, in bytes")
	fs.Int64Var(&cfg.Limits.SourceBytes, "max-source-bytes", 256<<10, "template source ceiling, in bytes")
	fs.Int64Var(&cfg.MaxBodyBytes, "max-body-bytes", playground.DefaultMaxBodyBytes, "request body ceiling, in bytes")
	fs.DurationVar(&cfg.Timeout, "timeout", playground.DefaultTimeout, "wall-time ceiling of one render")
	fs.IntVar(&cfg.MaxConcurrent, "max-concurrent", playground.DefaultMaxConcurrent, "renders at once; more wait up to --queue-wait, then get 503")
	fs.DurationVar(&cfg.QueueWait, "queue-wait", playground.DefaultQueueWait, "how long a request waits for a render slot")
	pos, status, ok := commands.ParseFlags(fs, args, stdout, stderr)
	if !ok {
		return status
	}
	if len(pos) != 0 {
		commands.UsageError(stderr, "serve", "serve takes no arguments")
		return 2
	}
	if cfg.Limits.WorkUnits <= 0 || cfg.Limits.OutputBytes <= 0 || cfg.Limits.SourceBytes <= 0 || cfg.MaxBodyBytes <= 0 ||
		cfg.Timeout <= 0 || cfg.MaxConcurrent <= 0 || cfg.QueueWait <= 0 {
		commands.UsageError(stderr, "serve", "limits, timeouts and --max-concurrent must be positive")
		return 2
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	srv := &http.Server{
		Handler:           playground.Handler(cfg),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      cfg.Timeout + 10*time.Second,
		MaxHeaderBytes:    16 << 10,
	}
	fmt.Fprintf(stdout, "jinjabox serve: http://%s/\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 1
	}
	return 0
}
