// Package browsertest drives the playground page (jinjabox serve) in a
// real headless Chromium through the DevTools protocol (chromedp): a
// module of its own, so the browser driver is never a dependency of
// jinjabox itself. testsuite.TestPlaygroundInBrowser runs it from make
// test; it skips, saying so, when no Chromium is installed.
package browsertest

import (
	"context"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/jinjabox/jinjabox/playground"
)

// chromium finds the browser: CHROMIUM, then the Debian names.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium on PATH (apt-get install chromium): the playground's browser test needs one")
	return ""
}

// TestPlaygroundAsYouType types a template and data into the page and
// waits for what a person would see: the output and the units spent as
// they type, then an error with its kind, line and caret excerpt when the
// template breaks, then the output again when it is fixed.
func TestPlaygroundAsYouType(t *testing.T) {
	exe := chromium(t)
	srv := httptest.NewServer(playground.Handler(playground.Config{}))
	defer srv.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
		chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	// a loaded machine starts a browser slowly: a generous ceiling, met
	// in a second or two when idle
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	// set replaces a field's text by typing, as a person does, so the
	// page's input listeners fire
	set := func(id, val string) error {
		clear := `(e => { e.value = ""; return true })(document.getElementById(` + jsString(id) + `))`
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](clear)); err != nil {
			return err
		}
		return chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID(id), val))
	}
	// waitText waits for the element's text to contain want, and returns it
	waitText := func(id, want string) (string, error) {
		expr := `document.getElementById(` + jsString(id) + `).textContent.includes(` + jsString(want) + `)`
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
			got, _ := chromedp.Run(ctx, chromedp.TextContent(chromedp.ID(id)))
			return got, err
		}
		return chromedp.Run(ctx, chromedp.TextContent(chromedp.ID(id)))
	}
	text := func(id string) string {
		s, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.ID(id)))
		if err != nil {
			t.Fatalf("reading #%s: %v", id, err)
		}
		return s
	}
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}

	must("opening the page", chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.ID("template"))))
	must("typing data", set("data", `{"user": {"name": "ada lovelace"}, "items": [3, 1, 2]}`))
	must("typing a template", set("template", "Hi {{ user.name | title }}: {{ items | sort | join(', ') }}"))
	out, err := waitText("output", "Hi Ada Lovelace: 1, 2, 3")
	must("the output as you type (got "+out+")", err)
	if units := text("units"); !strings.Contains(units, "units") {
		t.Fatalf("units %q", units)
	}

	must("breaking the template", set("template", "line one\n{{ items | sort( }}"))
	errText, err := waitText("error", "syntax error at 2:")
	must("the error as you type (got "+errText+")", err)
	if !strings.Contains(errText, "^") || text("output") != "" {
		t.Fatalf("error shown without its caret excerpt, or beside output: %q / %q", errText, text("output"))
	}

	must("ticking regex filters", chromedp.Do(ctx, chromedp.Click(chromedp.ID("regex"))))
	must("a regex template", set("template", "{{ user.name | regex_replace('(\\\\w+) (\\\\w+)', '\\\\2, \\\\1') }}"))
	out, err = waitText("output", "lovelace, ada")
	must("the regex option (got "+out+")", err)

	must("fixing the template", set("template", "{{ items | sum }}"))
	out, err = waitText("output", "6")
	must("the output again", err)
	if strings.TrimSpace(out) != "6" || strings.TrimSpace(text("error")) != "" {
		t.Fatalf("fixed template: output %q, error %q", out, text("error"))
	}
}

func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
