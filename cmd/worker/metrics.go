package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
)

// The Prometheus endpoint lives here, not in tconfig, which
// `jinjabox` links too: the client library's package state (its default
// registry and collectors) added about 6 MB to every jinjabox process,
// `jinjabox check` of one template included.

// prometheusReader is a metric reader that Prometheus scrapes, and the handler
// that serves its text format (the worker's --metrics-listen serves it
// at /metrics): pass the reader to tconfig.Metering, beside OTLP or stdout. The
// registry is its own, so the endpoint shows the SDK's metrics and the
// exporter's target info, not whatever else registered globally.
func prometheusReader() (sdkmetric.Reader, http.Handler, error) {
	reg := prometheus.NewRegistry()
	exp, err := otelprom.New(otelprom.WithRegisterer(reg))
	if err != nil {
		return nil, nil, fmt.Errorf("prometheus exporter: %w", err)
	}
	return exp, promhttp.HandlerFor(reg, promhttp.HandlerOpts{}), nil
}

// serveMetrics serves handler at http://addr/metrics until stop is
// called. The listener is opened here, so a taken or bad address fails
// the worker's start, not a goroutine later.
func serveMetrics(addr string, handler http.Handler, stderr io.Writer) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-listen %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", handler)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(stderr, "worker: metrics endpoint:", err)
		}
	}()
	fmt.Fprintf(stderr, "worker: Prometheus metrics at http://%s/metrics\n", ln.Addr())
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}, nil
}
