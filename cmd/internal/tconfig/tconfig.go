// Package tconfig reads the settings shared by the worker (cmd/worker)
// and the starter (`jinjabox run`): the Temporal client, from the
// standard TEMPORAL_* variables and TOML profiles the `temporal` CLI
// reads too (go.temporal.io/sdk/contrib/envconfig), so one environment
// serves the worker, the starter and the CLI; jinjabox's task queue; and
// OpenTelemetry traces and SDK metrics.
package tconfig

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdoutmetric"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/contrib/envconfig"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/log"
)

// Defaults.
const (
	// DefaultAddress is the frontend jinjabox dials when neither
	// TEMPORAL_ADDRESS nor the profile names one (the SDK's own default is
	// localhost:7233; jinjabox keeps the loopback address of `make run`).
	DefaultAddress   = "127.0.0.1:7233"
	DefaultTaskQueue = "jinjabox"
	// DefaultExecutionTimeout is the execution timeout the starter sets on
	// every run (`jinjabox run --execution-timeout`): past it the server
	// closes the run, and its children with it, as timed out.
	DefaultExecutionTimeout = time.Hour
	// MeterName names the meter of the SDK's metrics.
	MeterName = "temporal-sdk-go"
)

// legacy are the TLS variables jinjabox read before it read the standard
// ones, and their standard replacements. Setting one is refused: ignoring
// it would connect without the client certificate it names.
var legacy = [][2]string{
	{"TEMPORAL_TLS_CERT", "TEMPORAL_TLS_CLIENT_CERT_PATH"},
	{"TEMPORAL_TLS_KEY", "TEMPORAL_TLS_CLIENT_KEY_PATH"},
	{"TEMPORAL_TLS_CA", "TEMPORAL_TLS_SERVER_CA_CERT_PATH"},
}

// Metrics exports.
const (
	MetricsOff    = "off"
	MetricsOTLP   = "otlp"
	MetricsStdout = "stdout"
)

// Config is the environment's settings.
type Config struct {
	// Client is what envconfig loaded: the profile of the TOML file
	// (TEMPORAL_CONFIG_FILE, else the user config dir's
	// temporalio/temporal.toml; profile TEMPORAL_PROFILE, else "default"),
	// with TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY,
	// TEMPORAL_TLS*, TEMPORAL_GRPC_META_* on top. HostPort is
	// DefaultAddress when neither sets it.
	Client client.Options
	// TaskQueue is TEMPORAL_TASK_QUEUE (jinjabox's own variable: the
	// standard set has none).
	TaskQueue string
	// OTLPTraces: OTEL_EXPORTER_OTLP_ENDPOINT or ..._TRACES_ENDPOINT is set.
	OTLPTraces bool
	// TracesOff (JINJABOX_TRACES=off) drops spans instead of printing
	// them when no OTLP endpoint is set.
	TracesOff bool
	// Metrics is how SDK metrics are exported: MetricsOTLP when
	// OTEL_EXPORTER_OTLP_ENDPOINT or ..._METRICS_ENDPOINT is set,
	// MetricsStdout with JINJABOX_METRICS=stdout, else MetricsOff
	// (JINJABOX_METRICS=off turns OTLP off too).
	Metrics string
}

// Address is the frontend the client dials.
func (c Config) Address() string { return c.Client.HostPort }

// Namespace is the client's namespace ("default" when unset, as the SDK).
func (c Config) Namespace() string {
	if c.Client.Namespace == "" {
		return client.DefaultNamespace
	}
	return c.Client.Namespace
}

// Load reads the settings. It fails on a bad profile or TLS setting and
// on a legacy TLS variable, naming its standard replacement.
func Load() (Config, error) {
	for _, l := range legacy {
		if os.Getenv(l[0]) != "" {
			return Config{}, fmt.Errorf("%s is no longer read: set %s (the standard variable the temporal CLI reads too)", l[0], l[1])
		}
	}
	opts, err := envconfig.LoadClientOptions(envconfig.LoadClientOptionsRequest{})
	if err != nil {
		return Config{}, fmt.Errorf("temporal client settings (TEMPORAL_* variables, TOML profile): %w", err)
	}
	if opts.HostPort == "" {
		opts.HostPort = DefaultAddress
	}
	c := Config{Client: opts, TaskQueue: os.Getenv("TEMPORAL_TASK_QUEUE")}
	if c.TaskQueue == "" {
		c.TaskQueue = DefaultTaskQueue
	}
	otlp := os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != ""
	c.OTLPTraces = otlp || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
	c.TracesOff = os.Getenv("JINJABOX_TRACES") == "off"
	switch m := os.Getenv("JINJABOX_METRICS"); m {
	case "":
		c.Metrics = MetricsOff
		if otlp || os.Getenv("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT") != "" {
			c.Metrics = MetricsOTLP
		}
	case MetricsOff, MetricsStdout, MetricsOTLP:
		c.Metrics = m
	default:
		return Config{}, fmt.Errorf("JINJABOX_METRICS=%q: want %s, %s or %s", m, MetricsOTLP, MetricsStdout, MetricsOff)
	}
	return c, nil
}

// ClientOptions are the Temporal client options: Client, logging to
// stderr (info and above) unless Client has a logger, with the tracing
// interceptor when tracer is not nil and the SDK's metrics handler on
// meters when it is not nil (a worker inherits both from its client).
func (c Config) ClientOptions(tracer trace.Tracer, meters *sdkmetric.MeterProvider) (client.Options, error) {
	o := c.Client
	if o.Logger == nil {
		// the SDK's default logger writes to stdout, which is the
		// starter's result and the worker's stdout telemetry
		o.Logger = log.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})))
	}
	if tracer != nil {
		ti, err := temporalotel.NewTracingInterceptor(temporalotel.TracerOptions{Tracer: tracer})
		if err != nil {
			return o, err
		}
		o.Interceptors = append(append([]interceptor.ClientInterceptor(nil), o.Interceptors...), ti)
	}
	if meters != nil {
		o.MetricsHandler = MetricsHandler(meters)
	}
	return o, nil
}

// MetricsHandler is the SDK's metrics handler on an OpenTelemetry meter
// provider: monotonic counters (the SDK's counters only grow), and a
// meter error logged instead of the handler's default panic.
func MetricsHandler(meters metric.MeterProvider) client.MetricsHandler {
	return temporalotel.NewMetricsHandler(temporalotel.MetricsHandlerOptions{
		Meter:                meters.Meter(MeterName),
		UseMonotonicCounters: true,
		OnError:              func(err error) { slog.Warn("temporal metrics", "error", err) },
	})
}

// Tracing builds the tracer provider: OTLP over HTTP when an OTLP endpoint
// is set (the exporter reads the standard OTEL_EXPORTER_OTLP_* variables),
// else JSON spans to fallback (nil or TracesOff: record nothing; the
// starter passes nil so its stdout holds only the result). Shut the
// provider down after the worker has stopped, to flush.
func (c Config) Tracing(ctx context.Context, fallback io.Writer) (*sdktrace.TracerProvider, error) {
	var exp sdktrace.SpanExporter
	var err error
	switch {
	case c.OTLPTraces:
		exp, err = otlptracehttp.New(ctx)
	case fallback != nil && !c.TracesOff:
		exp, err = stdouttrace.New(stdouttrace.WithWriter(fallback))
	}
	if err != nil {
		return nil, fmt.Errorf("trace exporter: %w", err)
	}
	opts := []sdktrace.TracerProviderOption{}
	if exp != nil {
		// The batch processor exports off the caller's goroutine, so
		// ending a span never blocks a workflow task.
		opts = append(opts, sdktrace.WithBatcher(exp))
	}
	return sdktrace.NewTracerProvider(opts...), nil
}

// Metering builds the meter provider of the SDK's metrics, nil when
// metrics are off: a periodic reader (OTEL_METRIC_EXPORT_INTERVAL, 60 s
// by default) exporting over OTLP/HTTP (the standard OTEL_EXPORTER_OTLP_*
// variables), or as JSON to fallback with JINJABOX_METRICS=stdout (nil
// fallback: off). Shut it down after the worker has stopped, to flush.
func (c Config) Metering(ctx context.Context, fallback io.Writer) (*sdkmetric.MeterProvider, error) {
	var exp sdkmetric.Exporter
	var err error
	switch {
	case c.Metrics == MetricsOTLP:
		exp, err = otlpmetrichttp.New(ctx)
	case c.Metrics == MetricsStdout && fallback != nil:
		exp, err = stdoutmetric.New(stdoutmetric.WithWriter(fallback))
	default:
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("metric exporter: %w", err)
	}
	return sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp))), nil
}

// Shutdown flushes and stops what Tracing and Metering built (either may
// be nil), within ctx.
func Shutdown(ctx context.Context, tp *sdktrace.TracerProvider, mp *sdkmetric.MeterProvider) error {
	var errs []error
	if mp != nil {
		errs = append(errs, mp.Shutdown(ctx))
	}
	if tp != nil {
		errs = append(errs, tp.Shutdown(ctx))
	}
	return errors.Join(errs...)
}
