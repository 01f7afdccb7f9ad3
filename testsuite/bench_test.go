package testsuite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"text/template"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/internal/casecheck"
)

// workload is one benchmark of bench/workloads (corporaDir): the Jinja2
// template, the same work as a text/template, the data and the bytes
// Jinja2 3.1.2 renders.
type workload struct {
	name     string
	jinja    string
	tmpl     string
	data     []byte
	expected string
}

func loadWorkloads(tb testing.TB) []workload {
	tb.Helper()
	dir := filepath.Join(corporaDir, "bench", "workloads")
	names, err := filepath.Glob(filepath.Join(dir, "*.j2"))
	if err != nil || len(names) == 0 {
		tb.Fatalf("no workloads under %s (run make sync-corpora)", dir)
	}
	sort.Strings(names)
	read := func(p string) []byte {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		return b
	}
	var ws []workload
	for _, n := range names {
		base := strings.TrimSuffix(n, ".j2")
		ws = append(ws, workload{
			name:     filepath.Base(base),
			jinja:    string(read(n)),
			tmpl:     trimFinalNewline(string(read(base + ".tmpl"))),
			data:     read(base + ".json"),
			expected: string(read(base + ".expected")),
		})
	}
	return ws
}

// trimFinalNewline drops one trailing newline from a .tmpl source: the
// files end with one, like the .j2 files, and Jinja2 (keep_trailing_newline
// off, as for .expected) drops it while text/template would print it.
func trimFinalNewline(s string) string {
	if strings.HasSuffix(s, "\r\n") {
		return s[:len(s)-2]
	}
	return strings.TrimSuffix(s, "\n")
}

// goData decodes workload data for text/template. Integral numbers
// become int64 and others float64, because text/template's gt compares
// only like kinds (`gt $row.qty 500`, `gt .score 0.7`) and prints int64
// the way Jinja2 prints ints.
func goData(tb testing.TB, raw []byte) map[string]any {
	tb.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		tb.Fatal(err)
	}
	var conv func(v any) any
	conv = func(v any) any {
		switch x := v.(type) {
		case json.Number:
			if i, err := x.Int64(); err == nil {
				return i
			}
			f, _ := x.Float64()
			return f
		case map[string]any:
			for k, e := range x {
				x[k] = conv(e)
			}
		case []any:
			for i, e := range x {
				x[i] = conv(e)
			}
		}
		return v
	}
	conv(m)
	return m
}

// tmplFuncs are the helpers the .tmpl files call, each doing what the
// matching Jinja2 filter does on these inputs, so both engines do the
// same work.
var tmplFuncs = template.FuncMap{
	"inc":   func(i int) int { return i + 1 },
	"upper": strings.ToUpper,
	"has": func(list []any, v any) bool {
		for _, e := range list {
			if e == v {
				return true
			}
		}
		return false
	},
	// truncate is Jinja2's truncate(s, n, killwords=True) with its
	// default end "..." and leeway 5, counting characters.
	"truncate": func(s string, n int) string {
		if utf8.RuneCountInString(s) <= n+5 {
			return s
		}
		return string([]rune(s)[:n-3]) + "..."
	},
	"join": func(list []any, sep string) string {
		parts := make([]string, len(list))
		for i, e := range list {
			parts[i] = fmt.Sprint(e)
		}
		return strings.Join(parts, sep)
	},
	"replace": func(s, old, new string) string { return strings.ReplaceAll(s, old, new) },
	// default replaces only a missing value, like Jinja2's default.
	"default": func(v any, d string) any {
		if v == nil {
			return d
		}
		return v
	},
	"mapAttr": func(list []any, key string) []any {
		out := make([]any, len(list))
		for i, e := range list {
			out[i] = e.(map[string]any)[key]
		}
		return out
	},
	// sortAttr is Jinja2's sort(attribute=key): stable and, by default,
	// case-insensitive.
	"sortAttr": func(list []any, key string) []any {
		// Keys are computed once per item, as Python's sort(key=...) does,
		// so the baseline is not slowed by per-comparison work.
		type keyed struct {
			k string
			v any
		}
		ks := make([]keyed, len(list))
		for i, e := range list {
			ks[i] = keyed{strings.ToLower(fmt.Sprint(e.(map[string]any)[key])), e}
		}
		sort.SliceStable(ks, func(i, j int) bool { return ks[i].k < ks[j].k })
		out := make([]any, len(ks))
		for i, e := range ks {
			out[i] = e.v
		}
		return out
	},
	"dict": func(kv ...any) map[string]any {
		m := make(map[string]any, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	},
}

func parseTmpl(tb testing.TB, w workload) *template.Template {
	t, err := template.New(w.name).Funcs(tmplFuncs).Parse(w.tmpl)
	if err != nil {
		tb.Fatalf("%s.tmpl: %v", w.name, err)
	}
	return t
}

func execTmpl(tb testing.TB, t *template.Template, data map[string]any, out io.Writer) {
	if err := t.Execute(out, data); err != nil {
		tb.Fatalf("%s.tmpl: %v", t.Name(), err)
	}
}

// checkTmpl renders the text/template baseline and compares it with the
// expected bytes.
func checkTmpl(tb testing.TB, w workload) error {
	var b strings.Builder
	execTmpl(tb, parseTmpl(tb, w), goData(tb, w.data), &b)
	if b.String() != w.expected {
		return fmt.Errorf("text/template output of %s differs from %s.expected at byte %d",
			w.name, w.name, firstDiff(b.String(), w.expected))
	}
	return nil
}

// checkJinjabox renders the workload with the engine and compares it
// with the expected bytes.
func checkJinjabox(tb testing.TB, w workload) error {
	env, err := engine.NewEnvironment(engine.Options{})
	if err != nil {
		return err
	}
	data, err := casecheck.DecodeObject(w.data)
	if err != nil {
		return err
	}
	r, err := env.RenderString(w.name, w.jinja, data, engine.RenderOptions{})
	if err != nil {
		return fmt.Errorf("jinjabox %s: %v", w.name, err)
	}
	if r.Output != w.expected {
		return fmt.Errorf("jinjabox output of %s differs from %s.expected at byte %d",
			w.name, w.name, firstDiff(r.Output, w.expected))
	}
	return nil
}

func firstDiff(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// TestWorkloadBaselines checks that every .tmpl renders exactly the
// .expected bytes, so the text/template side of the benchmarks is doing
// the same work as Jinja2 did (and stays so when a workload changes).
func TestWorkloadBaselines(t *testing.T) {
	for _, w := range loadWorkloads(t) {
		if err := checkTmpl(t, w); err != nil {
			t.Error(err)
		}
	}
}

// prepared parses w's template and prepares its data once: the worker's
// mode, a template parsed once and the data copied in (and sealed) once.
func prepared(b *testing.B, env *engine.Environment, w workload, data map[string]any) (*engine.Template, *engine.Prepared) {
	b.Helper()
	tpl, err := env.Parse(w.name, w.jinja)
	if err != nil {
		b.Fatal(err)
	}
	ctx, err := env.Prepare(data)
	if err != nil {
		b.Fatal(err)
	}
	return tpl, ctx
}

// BenchmarkWorkloads times jinjabox against text/template on each
// workload, both parse+render per op and render of a template parsed
// once, and jinjabox's render from a context prepared once (the context
// mode) and the same written to a writer (the writer mode), both compared
// with text/template's render. Outputs are checked
// first: timing different work is meaningless. `make bench` runs it and
// prints the ratio table (testsuite/cmd/benchtable), then runs the
// jinjabox modes again in a build without metering (the jinjabox_nometer
// tag) and prints the budget's overhead per workload and mode.
func BenchmarkWorkloads(b *testing.B) {
	for _, w := range loadWorkloads(b) {
		b.Run(w.name, func(b *testing.B) {
			if err := checkJinjabox(b, w); err != nil {
				b.Fatal(err)
			}
			if err := checkTmpl(b, w); err != nil {
				b.Fatal(err)
			}
			env, err := engine.NewEnvironment(engine.Options{})
			if err != nil {
				b.Fatal(err)
			}
			// The engine renders from a map it does not mutate, so one
			// decoded context serves every iteration, as it does for
			// text/template below.
			data, err := casecheck.DecodeObject(w.data)
			if err != nil {
				b.Fatal(err)
			}
			gdata := goData(b, w.data)

			b.Run("jinjabox-parse-render", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := env.RenderString(w.name, w.jinja, data, engine.RenderOptions{}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("jinjabox-render", func(b *testing.B) {
				tpl, err := env.Parse(w.name, w.jinja)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := tpl.Render(data); err != nil {
						b.Fatal(err)
					}
				}
			})
			// The worker's mode: every render from the prepared context.
			b.Run("jinjabox-context", func(b *testing.B) {
				tpl, ctx := prepared(b, env, w, data)
				if r, err := tpl.RenderPrepared(ctx, engine.RenderOptions{}); err != nil || r.Output != w.expected {
					b.Fatalf("RenderPrepared of %s: %v (output differs: %v)", w.name, err, r.Output != w.expected)
				}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := tpl.RenderPrepared(ctx, engine.RenderOptions{}); err != nil {
						b.Fatal(err)
					}
				}
			})
			// The same, the output written to a writer (RenderTo): the
			// engine's pooled buffer, no output allocated per render.
			b.Run("jinjabox-writer", func(b *testing.B) {
				tpl, ctx := prepared(b, env, w, data)
				var sb strings.Builder
				if _, err := tpl.RenderTo(&sb, ctx, engine.RenderOptions{}); err != nil || sb.String() != w.expected {
					b.Fatalf("RenderTo of %s: %v (output differs: %v)", w.name, err, sb.String() != w.expected)
				}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := tpl.RenderTo(io.Discard, ctx, engine.RenderOptions{}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("text-template-parse-render", func(b *testing.B) {
				b.ReportAllocs()
				var sb strings.Builder
				for b.Loop() {
					sb.Reset()
					execTmpl(b, parseTmpl(b, w), gdata, &sb)
				}
			})
			b.Run("text-template-render", func(b *testing.B) {
				t := parseTmpl(b, w)
				b.ReportAllocs()
				var sb strings.Builder
				for b.Loop() {
					sb.Reset()
					execTmpl(b, t, gdata, &sb)
				}
			})
		})
	}
}
