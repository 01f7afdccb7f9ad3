package engine

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/value"
)

// oracleTemplates is the trusted set gen_render_cases.py renders with.
var oracleTemplates = map[string]string{
	"base":     "<{% block b %}base{% endblock %}>{{ x }}",
	"mid":      "{% extends 'base' %}{% block b %}M{{ super() }}{% endblock %}",
	"inc":      "[{{ i }}{{ name }}]",
	"macros":   "{% macro hello(n) %}hello {{ n }}{% endmacro %}",
	"ctxmacro": "{% macro f() %}{{ name }}{% endmacro %}",
}

// pyErrorKind maps the Python exception Jinja2 raised to our kind.
var pyErrorKind = map[string]ErrorKind{
	"TypeError":               KindType,
	"ValueError":              KindType,
	"UndefinedError":          KindUndefined,
	"ZeroDivisionError":       KindRender,
	"TemplateNotFound":        KindRender,
	"TemplateRuntimeError":    KindRender,
	"SecurityError":           KindSecurity,
	"TemplateSyntaxError":     KindSyntax,
	"TemplateAssertionError":  KindSyntax,
	"SyntaxError":             KindRender, // Python's compiler refuses the generated code
	"TemplatesNotFound":       KindRender,
	"TemplateNotFoundError":   KindRender,
	"UnhashableTypeErrorLike": KindType,
}

func kindMatches(want, got ErrorKind) bool {
	if want == got {
		return true
	}
	return (want == KindType || want == KindRender) && (got == KindType || got == KindRender)
}

// TestRenderOracle runs testdata/render_cases.jsonl, produced by real
// Jinja2 (gen_render_cases.py), covering scoping, loops, macros, blocks,
// includes and imports.
func TestRenderOracle(t *testing.T) {
	f, err := os.Open("testdata/render_cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var c struct {
			ID       string          `json:"id"`
			Template string          `json:"template"`
			Context  json.RawMessage `json:"context"`
			Options  struct {
				Autoescape   bool `json:"autoescape"`
				TrimBlocks   bool `json:"trim_blocks"`
				LstripBlocks bool `json:"lstrip_blocks"`
			} `json:"options"`
			Expect struct {
				Output *string `json:"output"`
				Error  string  `json:"error"`
			} `json:"expect"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		t.Run(c.ID, func(t *testing.T) {
			env, err := NewEnvironment(Options{Autoescape: c.Options.Autoescape, TrimBlocks: c.Options.TrimBlocks,
				LstripBlocks: c.Options.LstripBlocks, Templates: oracleTemplates})
			if err != nil {
				t.Fatal(err)
			}
			data, err := value.DecodeJSONObject(c.Context)
			if err != nil {
				t.Fatal(err)
			}
			res, err := env.RenderString(c.ID, c.Template, data, RenderOptions{})
			if c.Expect.Output != nil {
				if err != nil {
					t.Fatalf("want %q, got error %v", *c.Expect.Output, err)
				}
				if res.Output != *c.Expect.Output {
					t.Fatalf("want %q, got %q", *c.Expect.Output, res.Output)
				}
				return
			}
			want, ok := pyErrorKind[c.Expect.Error]
			if !ok {
				t.Fatalf("unmapped Python error %s", c.Expect.Error)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("want %s error, got output %q err %v", want, res.Output, err)
			}
			if !kindMatches(want, e.Kind) {
				t.Fatalf("want %s error, got %v", want, err)
			}
			if res.Output != "" {
				t.Fatalf("refusal returned output %q", res.Output)
			}
		})
	}
}

// TestFailStopThenClean: a refused render returns no output, and the next
// render on the same environment and template is clean.
func TestFailStopThenClean(t *testing.T) {
	env, err := NewEnvironment(Options{Limits: budget.Limits{WorkUnits: 200000}})
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := env.Parse("t", "head{% for i in range(n) %}{{ i }}{% endfor %}tail")
	if err != nil {
		t.Fatal(err)
	}
	out, err := tpl.Render(map[string]any{"n": 100000})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindBudget {
		t.Fatalf("want budget error, got %v", err)
	}
	if out != "" {
		t.Fatalf("refusal returned partial output %q", out)
	}
	if e.BudgetError() == nil || !strings.Contains(e.Message, "units") {
		t.Fatalf("budget error lacks amounts: %v", e)
	}
	out, err = tpl.Render(map[string]any{"n": 3})
	if err != nil || out != "head012tail" {
		t.Fatalf("next render not clean: %q %v", out, err)
	}
}

// TestBudgetMessageHidesValues: a budget message names the operation and
// amounts, never template text or a value.
func TestBudgetMessageHidesValues(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	_, err := env.RenderString("t", "{{ secret * 100000000 }}", map[string]any{"secret": "SECRETVALUE"}, RenderOptions{})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindBudget {
		t.Fatalf("want budget error, got %v", err)
	}
	if strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "100000000 }}") {
		t.Fatalf("message leaks: %v", err)
	}
}

// TestDeterministicUnits: same template and data spend the same units.
func TestDeterministicUnits(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	tpl, err := env.Parse("t", "{% for k, v in d|dictsort %}{{ k }}{{ v|upper }}{{ range(3)|random }}{% endfor %}{{ lipsum(1) }}")
	if err != nil {
		t.Fatal(err)
	}
	data := map[string]any{"d": map[string]any{"b": "x", "a": "y", "c": "z"}}
	first, err := tpl.RenderResult(data, RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		r, err := tpl.RenderResult(data, RenderOptions{})
		if err != nil || r != first {
			t.Fatalf("run %d differs: %+v vs %+v (%v)", i, r, first, err)
		}
	}
	if first.Units <= 0 {
		t.Fatalf("no units counted")
	}
}

// TestConcurrentRenders: templates are safe for concurrent renders.
func TestConcurrentRenders(t *testing.T) {
	env, _ := NewEnvironment(Options{Templates: oracleTemplates})
	tpl, err := env.Parse("t", "{% import 'macros' as m %}{% for i in range(n) %}{{ m.hello(i) }}{% endfor %}")
	if err != nil {
		t.Fatal(err)
	}
	want, err := tpl.Render(map[string]any{"n": 50})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				got, err := tpl.Render(map[string]any{"n": 50})
				if err != nil || got != want {
					t.Errorf("concurrent render differs: %v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestRenderValue: a lone expression returns the typed value.
func TestRenderValue(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	tpl, err := env.Parse("t", "{{ [1, 'a', x > 2] }}")
	if err != nil {
		t.Fatal(err)
	}
	v, err := tpl.RenderValue(map[string]any{"x": 3}, RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if v.Kind() != value.List || len(v.Items()) != 3 || !v.Items()[2].Bool() {
		t.Fatalf("got %s", value.Repr(v))
	}
}

// TestCopyInRefusesNonData: funcs, channels and structs do not cross
// the boundary; the error names the path and the Go type.
func TestCopyInRefusesNonData(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	tpl, _ := env.Parse("t", "{{ x }}")
	_, err := tpl.Render(map[string]any{"x": map[string]any{"f": func() {}}})
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Message, "x") || !strings.Contains(e.Message, "f") {
		t.Fatalf("want a copy-in error naming the path, got %v", err)
	}
	// a struct does not cross (the engine never reflects): the error
	// names its Go type and says what converts it
	type secret struct{ A int }
	_, err = tpl.Render(map[string]any{"x": secret{1}})
	if !errors.As(err, &e) || !strings.Contains(e.Message, "engine.secret") || !strings.Contains(e.Message, "godata.Convert") {
		t.Fatalf("a struct without a surface: %v", err)
	}
	_, err = tpl.Render(map[string]any{"x": map[string]any{"c": make(chan int)}})
	if !errors.As(err, &e) || !strings.Contains(e.Message, "x.c") || !strings.Contains(e.Message, "chan int") {
		t.Fatalf("want a copy-in error naming the path and the Go type, got %v", err)
	}
	deep := map[string]any{}
	cur := deep
	for i := 0; i < 300; i++ {
		n := map[string]any{}
		cur["n"] = n
		cur = n
	}
	if _, err := tpl.Render(map[string]any{"x": deep}); err == nil {
		t.Fatal("data deeper than the ceiling crossed the boundary")
	}
}

// TestAttrSlotAcrossLayouts: an attribute node's index guess (its inline
// cache) never changes an answer: rows whose keys sit at other indexes,
// rows without the key, a dict method name and a non-dict, rendered from
// goroutines sharing the template (go test -race checks the cache's
// accesses).
func TestAttrSlotAcrossLayouts(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	tpl, err := env.Parse("t", "{% for r in rows %}{{ r.b }},{{ r.items is defined }};{% endfor %}")
	if err != nil {
		t.Fatal(err)
	}
	om := func(kv ...any) *value.OrderedMap {
		m := &value.OrderedMap{}
		for i := 0; i < len(kv); i += 2 {
			m.Keys = append(m.Keys, kv[i].(string))
			m.Values = append(m.Values, kv[i+1])
		}
		return m
	}
	rows := []any{
		om("a", 1, "b", 2), om("b", 3, "a", 4), om("a", 5), om("x", 0, "y", 0, "b", 6),
		om("items", 7, "b", 8), "s", om("a", 1, "b", 9),
	}
	const want = "2,True;3,True;,True;6,True;8,True;,False;9,True;"
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				got, err := tpl.Render(map[string]any{"rows": rows})
				if err != nil || got != want {
					t.Errorf("got %q, %v; want %q", got, err, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestNameSlotAcrossData: a name node's index guess into the top-level
// data never changes an answer: data whose names sit at other indexes,
// data without the name, and a local that shadows it.
func TestNameSlotAcrossData(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	tpl, err := env.Parse("t", "{{ b }}|{% set b = 'local' %}{% if x %}{{ b }}{% endif %}")
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct {
		data map[string]any
		want string
	}{
		{map[string]any{"a": 1, "b": 2}, "2|"},
		{map[string]any{"b": 3, "c": 1, "d": 1}, "3|"},
		{map[string]any{"a": 1}, "|"},
		{map[string]any{"0": 0, "1": 0, "2": 0, "3": 0, "4": 0, "5": 0, "6": 0, "7": 0, "8": 0, "b": 4, "x": true}, "4|local"},
		{map[string]any{"a": 1, "b": 5}, "5|"},
	} {
		if got, err := tpl.Render(c.data); err != nil || got != c.want {
			t.Errorf("render %d: %q, %v; want %q", i, got, err, c.want)
		}
	}
}
