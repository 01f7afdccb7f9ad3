package tconfig

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/trace/noop"
	"go.temporal.io/sdk/client"
)

// cleanEnv clears every variable the package reads and points the TOML
// file at an empty one, so the tests never read the user's settings.
func cleanEnv(t *testing.T) string {
	t.Helper()
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "TEMPORAL_") || strings.HasPrefix(k, "OTEL_") || strings.HasPrefix(k, "JINJABOX_") {
			t.Setenv(k, "")
			os.Unsetenv(k) // envconfig tells set-but-empty from unset
		}
	}
	file := filepath.Join(t.TempDir(), "temporal.toml")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TEMPORAL_CONFIG_FILE", file)
	return file
}

func TestDefaults(t *testing.T) {
	cleanEnv(t)
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if c.Address() != DefaultAddress || c.Namespace() != "default" || c.TaskQueue != DefaultTaskQueue || c.OTLPTraces || c.Metrics != MetricsOff {
		t.Fatalf("defaults %+v", c)
	}
	o, _, err := c.ClientOptions(context.Background(), nil, nil)
	if err != nil || o.ConnectionOptions.TLS != nil || o.Credentials != nil || len(o.Interceptors) != 0 || o.MetricsHandler != nil {
		t.Fatalf("options %+v, %v", o, err)
	}
}

// A TOML profile, picked by TEMPORAL_PROFILE, with the standard
// variables on top: the file and variables the temporal CLI reads.
func TestProfileAndVariables(t *testing.T) {
	file := cleanEnv(t)
	toml := `[profile.default]
address = "127.0.0.1:9999"
[profile.prod]
address = "my-ns.a1b2c.tmprl.cloud:7233"
namespace = "my-ns.a1b2c"
api_key = "secret"
`
	if err := os.WriteFile(file, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load()
	if err != nil || c.Address() != "127.0.0.1:9999" {
		t.Fatalf("default profile: %+v, %v", c, err)
	}
	t.Setenv("TEMPORAL_PROFILE", "prod")
	t.Setenv("TEMPORAL_NAMESPACE", "other-ns")
	t.Setenv("TEMPORAL_TASK_QUEUE", "q")
	c, err = Load()
	if err != nil {
		t.Fatal(err)
	}
	o, _, err := c.ClientOptions(context.Background(), noop.NewTracerProvider().Tracer(""), nil)
	if err != nil {
		t.Fatal(err)
	}
	// an API key implies TLS
	if o.HostPort != "my-ns.a1b2c.tmprl.cloud:7233" || o.Namespace != "other-ns" || c.TaskQueue != "q" ||
		o.ConnectionOptions.TLS == nil || o.Credentials == nil || len(o.Interceptors) != 1 {
		t.Fatalf("options %+v", o)
	}
	t.Setenv("TEMPORAL_PROFILE", "missing")
	if _, err := Load(); err == nil {
		t.Fatal("want an error for a profile the file lacks")
	}
}

// The old TLS variables are refused, naming the standard ones.
func TestLegacyTLSVariablesRefused(t *testing.T) {
	for _, l := range legacy {
		t.Run(l[0], func(t *testing.T) {
			cleanEnv(t)
			t.Setenv(l[0], "/some/file.pem")
			_, err := Load()
			if err == nil || !strings.Contains(err.Error(), l[1]) {
				t.Fatalf("%s: got %v, want an error naming %s", l[0], err, l[1])
			}
		})
	}
}

// mTLS through the standard variables: the client pair is loaded, a
// lone certificate is refused.
func TestStandardMTLS(t *testing.T) {
	cleanEnv(t)
	cert, key := selfSigned(t)
	t.Setenv("TEMPORAL_TLS_CLIENT_CERT_PATH", cert)
	t.Setenv("TEMPORAL_TLS_CLIENT_KEY_PATH", key)
	t.Setenv("TEMPORAL_TLS_SERVER_NAME", "temporal.internal")
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	tc := c.Client.ConnectionOptions.TLS
	if tc == nil || len(tc.Certificates) != 1 || tc.ServerName != "temporal.internal" {
		t.Fatalf("TLS %+v", tc)
	}
	os.Unsetenv("TEMPORAL_TLS_CLIENT_KEY_PATH")
	if _, err := Load(); err == nil {
		t.Fatal("want an error for a certificate without its key")
	}
}

func selfSigned(t *testing.T) (certFile, keyFile string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "jinjabox-test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "client.pem"), filepath.Join(dir, "client.key")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}

// The metrics export follows the OTLP endpoint and JINJABOX_METRICS.
func TestMetricsModes(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{nil, MetricsOff},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, MetricsOTLP},
		{map[string]string{"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "http://collector:4318/v1/metrics"}, MetricsOTLP},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "JINJABOX_METRICS": "off"}, MetricsOff},
		{map[string]string{"JINJABOX_METRICS": "stdout"}, MetricsStdout},
	} {
		cleanEnv(t)
		for k, v := range tc.env {
			t.Setenv(k, v)
		}
		c, err := Load()
		if err != nil || c.Metrics != tc.want {
			t.Errorf("%v: metrics %q, %v; want %q", tc.env, c.Metrics, err, tc.want)
		}
	}
	cleanEnv(t)
	t.Setenv("JINJABOX_METRICS", "prometheus")
	if _, err := Load(); err == nil {
		t.Error("want an error for an unknown JINJABOX_METRICS")
	}
}

// The SDK's metrics handler records into the OpenTelemetry meter
// provider (counters monotonic), and the stdout export flushes them on
// shutdown.
func TestMetricsHandlerExports(t *testing.T) {
	reader := metric.NewManualReader()
	mp := metric.NewMeterProvider(metric.WithReader(reader))
	c := Config{Client: cleanOptions()}
	o, _, err := c.ClientOptions(context.Background(), nil, mp)
	if err != nil || o.MetricsHandler == nil {
		t.Fatalf("options %+v, %v", o, err)
	}
	o.MetricsHandler.WithTags(map[string]string{"task_queue": "q"}).Counter("temporal_request").Inc(3)
	o.MetricsHandler.Timer("temporal_request_latency").Record(20 * time.Millisecond)
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, sm := range rm.ScopeMetrics {
		if sm.Scope.Name != MeterName {
			t.Errorf("scope %q, want %q", sm.Scope.Name, MeterName)
		}
		for _, m := range sm.Metrics {
			found[m.Name] = true
			if s, ok := m.Data.(metricdata.Sum[int64]); ok && m.Name == "temporal_request" {
				if !s.IsMonotonic || len(s.DataPoints) != 1 || s.DataPoints[0].Value != 3 {
					t.Errorf("temporal_request %+v", s)
				}
			}
		}
	}
	if !found["temporal_request"] || !found["temporal_request_latency"] {
		t.Fatalf("metrics %v", found)
	}

	cleanEnv(t)
	t.Setenv("JINJABOX_METRICS", "stdout")
	c, err = Load()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	smp, err := c.Metering(context.Background(), &out)
	if err != nil || smp == nil {
		t.Fatalf("metering %v, %v", smp, err)
	}
	MetricsHandler(smp).Counter("temporal_workflow_completed").Inc(1)
	if err := Shutdown(context.Background(), nil, smp); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"temporal_workflow_completed"`) {
		t.Fatalf("stdout export %q", out.String())
	}
	if mp, err := c.Metering(context.Background(), nil); err != nil || mp != nil {
		t.Fatalf("no fallback writer: want no meter provider, got %v, %v", mp, err)
	}
}

func cleanOptions() client.Options { return client.Options{HostPort: DefaultAddress} }

// The payload store: none by default; the profile's jinjabox table names
// one (a profile the envconfig loader reads in the same file, unbothered
// by the table), the variables override it, and ClientOptions opens it
// as the SDK's external storage.
func TestPayloadStoreSettings(t *testing.T) {
	file := cleanEnv(t)
	c, err := Load()
	if err != nil || c.PayloadStore != "" || c.StoreAbove() != 0 {
		t.Fatalf("default: %+v, %v", c, err)
	}
	dir := t.TempDir()
	prof := "[profile.prod]\naddress = \"temporal.example:7233\"\n[profile.prod.jinjabox]\npayload_store = \"" + dir + "\"\npayload_threshold = 100000\n"
	if err := os.WriteFile(file, []byte(prof), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TEMPORAL_PROFILE", "prod")
	c, err = Load()
	if err != nil || c.Address() != "temporal.example:7233" || c.PayloadStore != dir || c.StoreAbove() != 100000 {
		t.Fatalf("profile: %+v, %v", c, err)
	}
	o, closer, err := c.ClientOptions(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	if len(o.ExternalStorage.Drivers) != 1 || o.ExternalStorage.Drivers[0].Name() != "fs" || o.ExternalStorage.PayloadSizeThreshold != 100000 {
		t.Fatalf("external storage %+v", o.ExternalStorage)
	}
	other := t.TempDir()
	t.Setenv("JINJABOX_PAYLOAD_STORE", "file://"+other)
	t.Setenv("JINJABOX_PAYLOAD_THRESHOLD", "4096")
	if c, err = Load(); err != nil || c.PayloadStore != "file://"+other || c.StoreAbove() != 4096 {
		t.Fatalf("variables: %+v, %v", c, err)
	}
	t.Setenv("JINJABOX_PAYLOAD_THRESHOLD", "-1")
	if _, err := Load(); err == nil {
		t.Fatal("a negative threshold was accepted")
	}
	t.Setenv("JINJABOX_PAYLOAD_THRESHOLD", "")
	os.Unsetenv("JINJABOX_PAYLOAD_THRESHOLD")
	t.Setenv("JINJABOX_PAYLOAD_STORE", "ftp://nowhere/x")
	c, err = Load()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.ClientOptions(context.Background(), nil, nil); err == nil {
		t.Fatal("an unknown store scheme was opened")
	}
}
