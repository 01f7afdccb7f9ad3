// Package tconfig reads the Temporal client, task queue and OpenTelemetry
// settings shared by the worker (cmd/worker) and the starter
// (`jinjabox run`) from the environment.
package tconfig

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"os"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/client"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"
)

// Defaults.
const (
	DefaultAddress   = "127.0.0.1:7233"
	DefaultNamespace = "default"
	DefaultTaskQueue = "jinjabox"
)

// Config is the environment's settings.
type Config struct {
	Address   string // TEMPORAL_ADDRESS
	Namespace string // TEMPORAL_NAMESPACE
	TaskQueue string // TEMPORAL_TASK_QUEUE
	// APIKey (TEMPORAL_API_KEY) authenticates to Temporal Cloud; it
	// implies TLS.
	APIKey string
	// TLS (TEMPORAL_TLS=1) turns TLS on with the system roots;
	// TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY (mTLS client pair) and
	// TEMPORAL_TLS_CA (a CA bundle) imply it.
	TLS        bool
	TLSCert    string
	TLSKey     string
	TLSCA      string
	TLSServer  string // TEMPORAL_TLS_SERVER_NAME
	OTLPTraces bool   // OTEL_EXPORTER_OTLP_ENDPOINT or ..._TRACES_ENDPOINT set
	// TracesOff (JINJABOX_TRACES=off) drops spans instead of printing
	// them when no OTLP endpoint is set.
	TracesOff bool
}

func env(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// FromEnv reads the settings.
func FromEnv() Config {
	c := Config{
		Address:   env("TEMPORAL_ADDRESS", DefaultAddress),
		Namespace: env("TEMPORAL_NAMESPACE", DefaultNamespace),
		TaskQueue: env("TEMPORAL_TASK_QUEUE", DefaultTaskQueue),
		APIKey:    os.Getenv("TEMPORAL_API_KEY"),
		TLSCert:   os.Getenv("TEMPORAL_TLS_CERT"),
		TLSKey:    os.Getenv("TEMPORAL_TLS_KEY"),
		TLSCA:     os.Getenv("TEMPORAL_TLS_CA"),
		TLSServer: os.Getenv("TEMPORAL_TLS_SERVER_NAME"),
	}
	c.TLS = os.Getenv("TEMPORAL_TLS") == "1" || os.Getenv("TEMPORAL_TLS") == "true" || c.APIKey != "" || c.TLSCert != "" || c.TLSCA != ""
	c.OTLPTraces = os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
	c.TracesOff = os.Getenv("JINJABOX_TRACES") == "off"
	return c
}

// tlsConfig builds the TLS settings, nil when TLS is off.
func (c Config) tlsConfig() (*tls.Config, error) {
	if !c.TLS {
		return nil, nil
	}
	t := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: c.TLSServer}
	if c.TLSCert != "" || c.TLSKey != "" {
		pair, err := tls.LoadX509KeyPair(c.TLSCert, c.TLSKey)
		if err != nil {
			return nil, fmt.Errorf("TEMPORAL_TLS_CERT/KEY: %w", err)
		}
		t.Certificates = []tls.Certificate{pair}
	}
	if c.TLSCA != "" {
		pem, err := os.ReadFile(c.TLSCA)
		if err != nil {
			return nil, fmt.Errorf("TEMPORAL_TLS_CA: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("TEMPORAL_TLS_CA: no certificate in %s", c.TLSCA)
		}
		t.RootCAs = pool
	}
	return t, nil
}

// ClientOptions are the Temporal client options, with the tracing
// interceptor when tracer is not nil.
func (c Config) ClientOptions(tracer trace.Tracer) (client.Options, error) {
	o := client.Options{HostPort: c.Address, Namespace: c.Namespace}
	t, err := c.tlsConfig()
	if err != nil {
		return o, err
	}
	o.ConnectionOptions.TLS = t
	if c.APIKey != "" {
		o.Credentials = client.NewAPIKeyStaticCredentials(c.APIKey)
	}
	if tracer != nil {
		ti, err := temporalotel.NewTracingInterceptor(temporalotel.TracerOptions{Tracer: tracer})
		if err != nil {
			return o, err
		}
		o.Interceptors = []interceptor.ClientInterceptor{ti}
	}
	return o, nil
}

// Tracing builds the tracer provider: OTLP over HTTP when an OTLP endpoint
// is set (the exporter reads the standard OTEL_EXPORTER_OTLP_* variables),
// else JSON spans to fallback (nil or TracesOff: record nothing; the
// starter passes nil so its stdout holds only the result). Shut the
// provider down to flush before exiting.
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
