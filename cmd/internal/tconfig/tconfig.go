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
	"strconv"
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

	"github.com/jinjabox/jinjabox/payloadstore"
	"github.com/pelletier/go-toml/v2"
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
	// PayloadStore is where payloads of PayloadThreshold bytes or more
	// are kept instead of in histories (package payloadstore: a
	// directory, a postgres:// or an s3:// URL): JINJABOX_PAYLOAD_STORE,
	// else the profile's jinjabox.payload_store. Empty: none, and every
	// payload must fit the server's 2 MiB.
	PayloadStore string
	// PayloadThreshold is JINJABOX_PAYLOAD_THRESHOLD, else the profile's
	// jinjabox.payload_threshold, else payloadstore.DefaultThreshold.
	PayloadThreshold int
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
	if err := c.loadPayloadStore(); err != nil {
		return Config{}, err
	}
	return c, nil
}

// profileSettings is jinjabox's table in a profile of the TOML file
// envconfig reads ([profile.NAME.jinjabox]): envconfig ignores tables it
// does not know, so one file configures the client, the temporal CLI and
// jinjabox.
type profileSettings struct {
	Profile map[string]struct {
		Jinjabox struct {
			PayloadStore     string `toml:"payload_store"`
			PayloadThreshold int    `toml:"payload_threshold"`
		} `toml:"jinjabox"`
	} `toml:"profile"`
}

// loadPayloadStore reads the payload store settings: the profile's
// (the file and profile envconfig reads: TEMPORAL_CONFIG_FILE, else the
// default path; TEMPORAL_PROFILE, else "default"), then the variables
// over them, as envconfig layers TEMPORAL_* over the profile.
func (c *Config) loadPayloadStore() error {
	file := os.Getenv("TEMPORAL_CONFIG_FILE")
	if file == "" {
		file = envconfig.DefaultConfigFilePath()
	}
	if data, err := os.ReadFile(file); err == nil {
		var ps profileSettings
		if err := toml.Unmarshal(data, &ps); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		name := os.Getenv("TEMPORAL_PROFILE")
		if name == "" {
			name = "default"
		}
		j := ps.Profile[name].Jinjabox
		c.PayloadStore, c.PayloadThreshold = j.PayloadStore, j.PayloadThreshold
	}
	if v := os.Getenv("JINJABOX_PAYLOAD_STORE"); v != "" {
		c.PayloadStore = v
	}
	if v := os.Getenv("JINJABOX_PAYLOAD_THRESHOLD"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return fmt.Errorf("JINJABOX_PAYLOAD_THRESHOLD=%q: want a number of bytes", v)
		}
		c.PayloadThreshold = n
	}
	if c.PayloadThreshold < 0 {
		return fmt.Errorf("payload_threshold %d: want a number of bytes", c.PayloadThreshold)
	}
	if c.PayloadStore != "" && c.PayloadThreshold == 0 {
		c.PayloadThreshold = payloadstore.DefaultThreshold
	}
	return nil
}

// StoreAbove is the threshold at which payloads travel as claims, for
// workflows.RunOptions.StoreAbove: 0 without a payload store.
func (c Config) StoreAbove() int64 {
	if c.PayloadStore == "" {
		return 0
	}
	return int64(c.PayloadThreshold)
}

// ClientOptions are the Temporal client options: Client, logging to
// stderr (info and above) unless Client has a logger, with the tracing
// interceptor when tracer is not nil and the SDK's metrics handler on
// meters when it is not nil (a worker inherits both from its client),
// and the payload store's external storage when one is set, opened
// here: close the io.Closer after the client.
func (c Config) ClientOptions(ctx context.Context, tracer trace.Tracer, meters *sdkmetric.MeterProvider) (client.Options, io.Closer, error) {
	o := c.Client
	var closer io.Closer = io.NopCloser(nil)
	if c.PayloadStore != "" {
		d, cl, err := payloadstore.Open(ctx, c.PayloadStore)
		if err != nil {
			return o, nil, err
		}
		o.ExternalStorage = payloadstore.ExternalStorage(d, c.PayloadThreshold)
		closer = cl
	}
	if o.Logger == nil {
		// the SDK's default logger writes to stdout, which is the
		// starter's result and the worker's stdout telemetry
		o.Logger = log.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})))
	}
	if tracer != nil {
		ti, err := temporalotel.NewTracingInterceptor(temporalotel.TracerOptions{Tracer: tracer})
		if err != nil {
			closer.Close()
			return o, nil, err
		}
		o.Interceptors = append(append([]interceptor.ClientInterceptor(nil), o.Interceptors...), ti)
	}
	if meters != nil {
		o.MetricsHandler = MetricsHandler(meters)
	}
	return o, closer, nil
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
// fallback: off), and the extra readers (Prometheus). Shut it down after
// the worker has stopped, to flush.
func (c Config) Metering(ctx context.Context, fallback io.Writer, extra ...sdkmetric.Reader) (*sdkmetric.MeterProvider, error) {
	var exp sdkmetric.Exporter
	var err error
	switch {
	case c.Metrics == MetricsOTLP:
		exp, err = otlpmetrichttp.New(ctx)
	case c.Metrics == MetricsStdout && fallback != nil:
		exp, err = stdoutmetric.New(stdoutmetric.WithWriter(fallback))
	}
	if err != nil {
		return nil, fmt.Errorf("metric exporter: %w", err)
	}
	var opts []sdkmetric.Option
	if exp != nil {
		opts = append(opts, sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)))
	}
	for _, r := range extra {
		opts = append(opts, sdkmetric.WithReader(r))
	}
	if len(opts) == 0 {
		return nil, nil
	}
	return sdkmetric.NewMeterProvider(opts...), nil
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
