package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// exec with JINJABOX_PROVIDER=openai calls an OpenAI-compatible server
// (OPENAI_BASE_URL, a local recorder here) as the worker does, with the
// model --models resolves; without the variable it stays offline.
func TestExecWithProviderSettings(t *testing.T) {
	var mu sync.Mutex
	var models []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string `json:"model"`
		}
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &req)
		mu.Lock()
		models = append(models, req.Model)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json") // the SDK reads JSON answers only
		_, _ = io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":"from the server"}}]}`)
	}))
	defer srv.Close()
	lib := writeFile(t, "m.json", `{"main_pipe":"ask","pipes":{"ask":{"type":"PipeLLM","inputs":{"q":"Text"},"output":"Text","model":"$writing","prompt":"$q"}}}`)
	in := writeFile(t, "in.json", `{"q":"hi"}`)
	mc := writeFile(t, "models.json", `{"presets":{"writing":"@large"},"aliases":{"large":"model-l"}}`)

	t.Setenv("JINJABOX_PROVIDER", "openai")
	t.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
	t.Setenv("OPENAI_API_KEY", "k")
	code, out, errOut := runCLI(t, "exec", "--models", mc, lib, in)
	if code != 0 || !strings.Contains(out, "from the server") {
		t.Fatalf("exec with the openai provider: %d %q %q", code, out, errOut)
	}
	if len(models) != 1 || models[0] != "model-l" {
		t.Fatalf("the server was asked for %q, want [model-l]", models)
	}
	// without --models the reference is no model name: the provider's
	// default (OPENAI_MODEL, else gpt-4o-mini) is called
	if code, _, errOut = runCLI(t, "exec", lib, in); code != 0 || len(models) != 2 || models[1] != "gpt-4o-mini" {
		t.Fatalf("unresolved reference: %d %q, server asked for %q", code, errOut, models)
	}

	t.Setenv("JINJABOX_PROVIDER", "")
	code, out, _ = runCLI(t, "exec", "--models", mc, lib, in)
	if code != 0 || strings.Contains(out, "from the server") || len(models) != 2 {
		t.Fatalf("exec with the local provider reached the server: %d %q", code, out)
	}
	t.Setenv("JINJABOX_PROVIDER", "nope")
	if code, _, errOut = runCLI(t, "exec", lib, in); code != 2 || !strings.Contains(errOut, "JINJABOX_PROVIDER") {
		t.Fatalf("an unknown provider: %d %q", code, errOut)
	}
}
