package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/cmd/internal/tconfig"
)

// The Prometheus reader, beside stdout's exporter in one meter
// provider: what the SDK's handler records is served in Prometheus's
// text format, and the stdout exporter still exports it.
func TestPrometheusEndpoint(t *testing.T) {
	reader, handler, err := prometheusReader()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	mp, err := tconfig.Config{Metrics: tconfig.MetricsStdout}.Metering(context.Background(), &out, reader)
	if err != nil || mp == nil {
		t.Fatalf("metering %v, %v", mp, err)
	}
	h := tconfig.MetricsHandler(mp).WithTags(map[string]string{"task_queue": "q"})
	h.Counter("temporal_request").Inc(3)
	h.Gauge("temporal_worker_task_slots_available").Update(7)
	srv := httptest.NewServer(handler)
	defer srv.Close()
	res, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, want := range []string{`temporal_request_total{`, `task_queue="q"`, `} 3`, `temporal_worker_task_slots_available{`, `} 7`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("scrape has no %q:\n%s", want, body)
		}
	}
	if err := tconfig.Shutdown(context.Background(), nil, mp); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "temporal_request") {
		t.Error("the stdout exporter beside it exported nothing")
	}
	// no exporter and no reader: no provider
	if mp, err := (tconfig.Config{Metrics: tconfig.MetricsOff}).Metering(context.Background(), nil); err != nil || mp != nil {
		t.Fatalf("metrics off: %v, %v", mp, err)
	}
}

// A taken address fails the worker's start, not a goroutine later.
func TestMetricsListenTaken(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	_, handler, err := prometheusReader()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := serveMetrics(strings.TrimPrefix(srv.URL, "http://"), handler, io.Discard); err == nil {
		t.Fatal("serving metrics on a taken address succeeded")
	}
}
