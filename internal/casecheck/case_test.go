package casecheck

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/method/templating"
)

func ptr(v int64) *int64 { return &v }

func TestLoadClassifiesCases(t *testing.T) {
	src := `{"id": "a/ok", "template": "{{ x }}", "context": {"x": 1}, "options": {}, "expect": {"output": "1"}}

{"id": "a/typed", "template": "{{ d.now() }}", "context": {}, "options": {}, "expect": {"error": "security"}, "needs": "datetime"}
{"id": "a/any", "template": "x", "context": {}, "options": {}, "expect": {"output": null}}
{"id": "paths/x", "field": "from", "path": "a.b", "context": {}, "expect": {"value": null}}
`
	cases, err := Load(strings.NewReader(src), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 4 {
		t.Fatalf("got %d cases, want 4 (blank lines are ignored)", len(cases))
	}
	if !cases[2].Expect.AnyOutput || cases[0].Expect.AnyOutput {
		t.Errorf(`"output": null must mean any output, and only it`)
	}
	want := []Type{TemplateCase, TypedCase, TemplateCase, PathCase}
	for i, c := range cases {
		if c.Type() != want[i] {
			t.Errorf("%s: type %v, want %v", c.ID, c.Type(), want[i])
		}
	}
	if cases[3].Line != 5 || cases[3].File != "t.jsonl" {
		t.Errorf("position %s:%d, want t.jsonl:5", cases[3].File, cases[3].Line)
	}
}

func TestLoadRejectsBadFiles(t *testing.T) {
	for name, src := range map[string]string{
		"malformed": `{"id": "a", "template": `,
		"no id":     `{"template": "x", "expect": {"output": "x"}}`,
		"duplicate": `{"id": "a", "template": "x", "expect": {"output": "x"}}` + "\n" +
			`{"id": "a", "template": "y", "expect": {"output": "y"}}`,
		"no expectation": `{"id": "a", "template": "x", "expect": {}}`,
	} {
		if _, err := Load(strings.NewReader(src), name); err == nil {
			t.Errorf("%s: loaded without error", name)
		}
	}
}

func TestLimits(t *testing.T) {
	l, err := Limits(ptr(5000), map[string]*int64{"work_units": ptr(1000), "output_bytes": ptr(4)})
	if err != nil {
		t.Fatal(err)
	}
	if l.WorkUnits != 1000 || l.OutputBytes != 4 {
		t.Errorf("smaller work budget must win: %+v", l)
	}
	l, _ = Limits(ptr(1000), map[string]*int64{"work_units": ptr(5000)})
	if l.WorkUnits != 1000 {
		t.Errorf("budget_units 1000 < work_units 5000, got %d", l.WorkUnits)
	}
	// An explicit zero is a real (tiny) ceiling, never the default.
	l, _ = Limits(nil, map[string]*int64{"work_units": ptr(0), "scratch_bytes": ptr(0)})
	if l.WorkUnits != 1 || l.ScratchBytes != 1 {
		t.Errorf("explicit zero limits must not become defaults: %+v", l)
	}
	l, _ = Limits(nil, nil)
	if l != (budget.Limits{}) {
		t.Errorf("no limits must leave the engine defaults: %+v", l)
	}
	if _, err := Limits(nil, map[string]*int64{"bogus": ptr(1)}); err == nil {
		t.Error("an unknown limit name must be an error, not ignored")
	}
}

func TestDecodeObject(t *testing.T) {
	m, err := DecodeObject([]byte(`{"big": 9223372036854775807, "f": 1.5, "l": [{"$stuff": {"name": "n"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := m["big"].(json.Number); !ok || n.String() != "9223372036854775807" {
		t.Errorf("numbers must stay exact json.Number, got %#v", m["big"])
	}
	if _, ok := m["l"].([]any)[0].(*templating.StuffArtefact); !ok {
		t.Errorf("$stuff marker not turned into an artefact: %#v", m["l"])
	}
	for _, bad := range []string{`[1]`, `"s"`, `{"a":1} {"b":2}`, `{`} {
		if _, err := DecodeObject([]byte(bad)); err == nil {
			t.Errorf("%s: decoded without error", bad)
		}
	}
	if m, err := DecodeObject(nil); err != nil || len(m) != 0 {
		t.Errorf("empty context: %v %v", m, err)
	}
}

func TestDecodeKeepsOrderAndMarkers(t *testing.T) {
	m, err := DecodeObject([]byte(`{"d": {"b": 1, "a": 2}, "c": {"$stuff": {"name": "y"}, "other": 1}}`))
	if err != nil {
		t.Fatal(err)
	}
	om, ok := m["d"].(*value.OrderedMap)
	if !ok || strings.Join(om.Keys, ",") != "b,a" {
		t.Errorf("nested object order lost: %#v", m["d"])
	}
	// A map with more keys than the marker is ordinary data.
	if _, ok := m["c"].(*value.OrderedMap); !ok {
		t.Errorf("non-marker map converted: %#v", m["c"])
	}
}

// A marker's fields reach the artefact the engine builds; a marker that
// does not hold an object is a bad context, not silently data.
func TestStuffMarker(t *testing.T) {
	tpl := "{{ s._stuff_name }}|{{ s._concept_code }}|{{ s.title }}"
	c := &Case{ID: "m", Template: &tpl, Expect: Expect{Output: new(string)},
		Context: json.RawMessage(`{"s": {"$stuff": {"name": "doc", "concept": "Doc", "content": {"title": "T"}}}}`)}
	*c.Expect.Output = "doc|Doc|T"
	if r := Run(c, RunOptions{}); r.Status != Pass {
		t.Errorf("marker artefact: %v %s", r.Status, r.Reason)
	}
	if _, err := DecodeObject([]byte(`{"s": {"$stuff": "x"}}`)); err == nil {
		t.Error("a $stuff marker holding a string decoded without error")
	}
}

// A filter need runs in its category's environment, which fixes the
// options: a case that sets its own is a harness error, never a silent
// override. An unknown path field is a harness error too.
func TestHarnessErrors(t *testing.T) {
	tpl := "{{ 'x' | markdown }}"
	c := &Case{ID: "f", Template: &tpl, Needs: "pipelex-filter-markdown", Expect: Expect{AnyOutput: true}}
	if r := Run(c, RunOptions{}); r.Status != Pass {
		t.Fatalf("markdown need: %v %s", r.Status, r.Reason)
	}
	c.Options.TrimBlocks = true
	if r := Run(c, RunOptions{}); r.Status != Fail || r.ErrKind != KindInternal || !strings.Contains(r.ErrMsg, "fixes the environment") {
		t.Errorf("options with a filter need: %v %s %q", r.Status, r.ErrKind, r.ErrMsg)
	}
	p := &Case{ID: "paths/z", Field: "nope", Path: "a", Context: json.RawMessage(`{"a": 1}`), Expect: Expect{Value: json.RawMessage(`1`)}}
	if r := Run(p, RunOptions{}); r.Status != Fail || r.ErrKind != KindInternal {
		t.Errorf("unknown path field: %v %s %q", r.Status, r.ErrKind, r.ErrMsg)
	}
}

// The recover guard: a panic below Run is a failed case of kind internal,
// not a crashed run. A fixture is the injection point that runs inside the
// guard without the engine.
func TestRunRecoversPanics(t *testing.T) {
	Fixtures["test-panics"] = func(map[string]any) (map[string]any, error) { panic("boom") }
	defer delete(Fixtures, "test-panics")
	tpl := "{{ a }}"
	c := &Case{ID: "p", Template: &tpl, Needs: "test-panics", Context: json.RawMessage(`{"a": 1}`),
		Expect: Expect{Output: new(string)}}
	r := Run(c, RunOptions{Timeout: time.Minute})
	if r.Status != Fail || r.ErrKind != KindInternal || !strings.Contains(r.ErrMsg, "boom") {
		t.Fatalf("got %v %s %q, want a failed internal result mentioning the panic", r.Status, r.ErrKind, r.ErrMsg)
	}
	r = Run(c, RunOptions{}) // the guard also holds without the timeout goroutine
	if r.ErrKind != KindInternal {
		t.Fatalf("no-timeout path: got kind %q", r.ErrKind)
	}
}

// TestTimeoutCancelsTheRender: a case past its timeout is cancelled, not
// abandoned: Run returns once the render has stopped (its goroutine has
// sent its result), so it cannot starve the cases after it. The render
// here would take hours under its budget.
func TestTimeoutCancelsTheRender(t *testing.T) {
	tpl := "{% for a in range(100000) %}{% for b in range(100000) %}{{ a }}{% endfor %}{% endfor %}"
	units := int64(1) << 60
	c := &Case{ID: "slow", Template: &tpl, Options: CaseOptions{BudgetUnits: &units}, Expect: Expect{Output: new(string)}}
	start := time.Now()
	r := Run(c, RunOptions{Timeout: 100 * time.Millisecond})
	if r.Status != Fail || r.ErrKind != KindTimeout || !strings.HasPrefix(r.ErrMsg, "cancelled after") {
		t.Fatalf("got %v %s %q, want a timeout whose render stopped", r.Status, r.ErrKind, r.ErrMsg)
	}
	if took := time.Since(start); took > cancelGrace+time.Minute {
		t.Fatalf("Run took %v", took)
	}
	// a case within its timeout is untouched by the context
	quick := "{{ 1 + 1 }}"
	two := "2"
	if r := Run(&Case{ID: "quick", Template: &quick, Expect: Expect{Output: &two}}, RunOptions{Timeout: time.Minute}); r.Status != Pass {
		t.Fatalf("quick case: %v %q", r.Status, r.Reason)
	}
}

// TestRunSkips: typed cases without a fixture are skipped; path cases run.
func TestRunSkips(t *testing.T) {
	tpl := "x"
	typed := &Case{ID: "t", Template: &tpl, Needs: "no-such-fixture", Expect: Expect{Error: "security"}}
	if r := Run(typed, RunOptions{}); r.Status != Skip || !strings.Contains(r.SkipReason, "no-such-fixture") {
		t.Errorf("typed case without fixture: %v %q", r.Status, r.SkipReason)
	}
	path := &Case{ID: "paths/a", Field: "from", Path: "a._b", Context: json.RawMessage(`{"a": {"_b": 1}}`), Expect: Expect{Error: "security"}}
	if r := Run(path, RunOptions{}); r.Status != Pass {
		t.Errorf("path case: %v %s", r.Status, r.Reason)
	}
	path = &Case{ID: "paths/b", Field: "from", Path: "a.b", Context: json.RawMessage(`{"a": {"b": [1, "x"]}}`), Expect: Expect{Value: json.RawMessage(`[1, "x"]`)}}
	if r := Run(path, RunOptions{}); r.Status != Pass {
		t.Errorf("path value case: %v %s", r.Status, r.Reason)
	}
}

func TestJudge(t *testing.T) {
	out := func(s string) *string { return &s }
	for _, tc := range []struct {
		name   string
		expect Expect
		got    Result
		want   Status
	}{
		{"output equal", Expect{Output: out("a\n")}, Result{Output: "a\n"}, Pass},
		{"output differs by a byte", Expect{Output: out("a\n")}, Result{Output: "a"}, Fail},
		{"error where output wanted", Expect{Output: out("")}, Result{ErrKind: "render"}, Fail},
		{"kind equal", Expect{Error: "security"}, Result{ErrKind: "security"}, Pass},
		{"type matches render", Expect{Error: "type"}, Result{ErrKind: "render"}, Pass},
		{"render matches type", Expect{Error: "render"}, Result{ErrKind: "type"}, Pass},
		{"kind differs", Expect{Error: "security"}, Result{ErrKind: "undefined"}, Fail},
		{"output where error wanted", Expect{Error: "budget"}, Result{Output: ""}, Fail},
		{"any output, success", Expect{AnyOutput: true}, Result{Output: "whatever"}, Pass},
		{"any output, error", Expect{AnyOutput: true}, Result{ErrKind: "budget"}, Fail},
		{"partial output with error", Expect{Error: "budget"}, Result{ErrKind: "budget", Output: "aaa"}, Fail},
	} {
		c := &Case{ID: tc.name, Expect: tc.expect}
		r := tc.got
		r.Case = c
		judge(&r)
		if r.Status != tc.want {
			t.Errorf("%s: %v (%s), want %v", tc.name, r.Status, r.Reason, tc.want)
		}
		if r.Status == Fail && r.Reason == "" {
			t.Errorf("%s: failure without a reason", tc.name)
		}
	}
}

func TestSummaryLine(t *testing.T) {
	s := Summary{Passed: 3, Failed: 1}
	if s.String() != "3 passed, 1 failed" {
		t.Errorf("got %q", s.String())
	}
	s.Skipped = 2
	if s.String() != "3 passed, 1 failed, 2 skipped" {
		t.Errorf("got %q", s.String())
	}
}

func TestBound(t *testing.T) {
	long := strings.Repeat("é", 100)
	b := Bound(long, 11)
	if !strings.HasSuffix(b, "... (200 bytes)") || strings.Contains(b, `\x`) {
		t.Errorf("bound must cut on a rune boundary and give the size: %s", b)
	}
}
