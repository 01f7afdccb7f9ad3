package tconfig

import (
	"testing"

	"go.opentelemetry.io/otel/trace/noop"
)

func TestDefaults(t *testing.T) {
	for _, k := range []string{"TEMPORAL_ADDRESS", "TEMPORAL_NAMESPACE", "TEMPORAL_TASK_QUEUE", "TEMPORAL_API_KEY", "TEMPORAL_TLS",
		"TEMPORAL_TLS_CERT", "TEMPORAL_TLS_KEY", "TEMPORAL_TLS_CA", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"} {
		t.Setenv(k, "")
	}
	c := FromEnv()
	if c.Address != DefaultAddress || c.Namespace != DefaultNamespace || c.TaskQueue != DefaultTaskQueue || c.TLS || c.OTLPTraces {
		t.Fatalf("defaults %+v", c)
	}
	o, err := c.ClientOptions(nil)
	if err != nil || o.ConnectionOptions.TLS != nil || o.Credentials != nil || len(o.Interceptors) != 0 {
		t.Fatalf("options %+v, %v", o, err)
	}
}

// An API key (Temporal Cloud) turns TLS on and sets credentials; a tracer
// adds the tracing interceptor.
func TestAPIKeyAndTracing(t *testing.T) {
	t.Setenv("TEMPORAL_ADDRESS", "ns.acct.tmprl.cloud:7233")
	t.Setenv("TEMPORAL_NAMESPACE", "ns.acct")
	t.Setenv("TEMPORAL_API_KEY", "secret")
	c := FromEnv()
	o, err := c.ClientOptions(noop.NewTracerProvider().Tracer(""))
	if err != nil {
		t.Fatal(err)
	}
	if o.HostPort != "ns.acct.tmprl.cloud:7233" || o.Namespace != "ns.acct" || o.ConnectionOptions.TLS == nil || o.Credentials == nil || len(o.Interceptors) != 1 {
		t.Fatalf("options %+v", o)
	}
}

func TestBadTLSFiles(t *testing.T) {
	t.Setenv("TEMPORAL_TLS_CERT", "/nonexistent/cert.pem")
	t.Setenv("TEMPORAL_TLS_KEY", "/nonexistent/key.pem")
	if _, err := FromEnv().ClientOptions(nil); err == nil {
		t.Fatal("want an error for missing TLS files")
	}
}
