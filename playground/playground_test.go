package playground

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jinjabox/jinjabox/budget"
)

func post(t *testing.T, url, path string, req any) (int, Response) {
	t.Helper()
	b, _ := json.Marshal(req)
	resp, err := http.Post(url+path, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Error(err)
		return 0, Response{}
	}
	defer resp.Body.Close()
	var r Response
	body, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(body, &r); err != nil {
		t.Errorf("%s: not JSON: %q", path, body)
	}
	return resp.StatusCode, r
}

// TestRenderAPI: a render, its units, an error with its caret excerpt,
// YAML data, and /check's facts.
func TestRenderAPI(t *testing.T) {
	srv := httptest.NewServer(Handler(Config{}))
	defer srv.Close()
	code, r := post(t, srv.URL, "/render", Request{Template: "Hi {{ name }} <{{ n }}>", Data: json.RawMessage(`"name: Ada\nn: 1\n"`), DataFormat: "yaml", Options: RequestOptions{Autoescape: true}})
	if code != 200 || !r.OK || r.Output == nil || *r.Output != "Hi Ada &lt;1&gt;" && *r.Output != "Hi Ada <1>" || r.Units <= 0 {
		t.Errorf("render: %d %+v", code, r)
	}
	code, r = post(t, srv.URL, "/render", Request{Template: "line\n{{ a + }}"})
	if code != 422 || r.OK || r.Error == nil || r.Error.Kind != "syntax" || r.Error.Line != 2 || !strings.Contains(r.Error.Excerpt, "^") {
		t.Errorf("syntax error: %d %+v", code, r.Error)
	}
	code, r = post(t, srv.URL, "/check", Request{Template: "{{ x | upper }}"})
	if code != 200 || !r.OK || r.Facts == nil || len(r.Facts.Vars) != 1 || r.Facts.Vars[0].Name != "x" {
		t.Errorf("check: %d %+v", code, r)
	}
	resp, err := http.Get(srv.URL + "/")
	if err != nil || resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("page: %v %v", resp, err)
	}
	resp.Body.Close()
}

// TestRequestBounds: a body past the limit is 413; a request's limits
// lower the service's and never raise them.
func TestRequestBounds(t *testing.T) {
	srv := httptest.NewServer(Handler(Config{MaxBodyBytes: 1000, Limits: budget.Limits{OutputBytes: 100}}))
	defer srv.Close()
	code, r := post(t, srv.URL, "/render", Request{Template: strings.Repeat("x", 2000)})
	if code != http.StatusRequestEntityTooLarge || r.Error == nil {
		t.Errorf("big body: %d %+v", code, r)
	}
	code, r = post(t, srv.URL, "/render", Request{Template: "{{ 'x' * 500 }}", Limits: budget.Limits{OutputBytes: 1 << 20}})
	if code != 422 || r.Error == nil || r.Error.Kind != "budget" || r.Error.Limit != budget.LimitOutputBytes {
		t.Errorf("raised limit: %d %+v", code, r.Error)
	}
	code, r = post(t, srv.URL, "/render", Request{Template: "{{ 'x' * 50 }}", Limits: budget.Limits{OutputBytes: 10}})
	if code != 422 || r.Error == nil || r.Error.Limit != budget.LimitOutputBytes {
		t.Errorf("lowered limit: %d %+v", code, r.Error)
	}
}

// TestConcurrentLoadWithHostileTemplates: 48 requests at once against 4
// render slots, a third hostile (an endless loop, an output bomb, deep
// nesting): every benign one renders its own output, every hostile one
// is refused by its budget, and none waits past the queue (no 5xx but
// 503 busy, which a client retries). Nothing is timed: the assertions
// hold on any machine.
func TestConcurrentLoadWithHostileTemplates(t *testing.T) {
	srv := httptest.NewServer(Handler(Config{MaxConcurrent: 4, QueueWait: 30 * time.Second, Timeout: 30 * time.Second}))
	defer srv.Close()
	hostile := []string{
		"{% for a in range(100000) %}{% for b in range(100000) %}{{ a }}{% endfor %}{% endfor %}",
		"{{ 'x' * 1000000000 }}",
		strings.Repeat("{% if true %}", 300) + strings.Repeat("{% endif %}", 300),
	}
	var wg sync.WaitGroup
	for i := range 48 {
		wg.Go(func() {
			if i%3 == 0 {
				code, r := post(t, srv.URL, "/render", Request{Template: hostile[i/3%len(hostile)]})
				if code != 422 || r.OK || r.Error == nil || (r.Error.Kind != "budget" && r.Error.Kind != "syntax") {
					t.Errorf("hostile %d: %d %+v", i, code, r.Error)
				}
				return
			}
			data, _ := json.Marshal(map[string]int{"n": i})
			code, r := post(t, srv.URL, "/render", Request{Template: "n={{ n }}", Data: data})
			if code != 200 || r.Output == nil || *r.Output != "n="+itoa(i) {
				t.Errorf("benign %d: %d %+v", i, code, r)
			}
		})
	}
	wg.Wait()
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
