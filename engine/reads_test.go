package engine

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/budget"
)

// TestUnreadNamesAreNotCopied: a render copies in the top-level names its
// template can read (topNames) and leaves the others alone, so a value
// no name of the template reaches is never refused; the units are those
// of the whole data (an element a top-level name, as a prepared context
// charges), and a template that names a value still refuses it.
func TestUnreadNamesAreNotCopied(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	bad := func() {}
	data := map[string]any{"a": "1", "b": []any{"x", 2}, "c": 3.5, "f": bad, "z": map[string]any{"g": bad}}
	ok := map[string]any{"a": "1", "b": []any{"x", 2}, "c": 3.5, "f": "F", "z": map[string]any{"g": "G"}}
	cases := []struct {
		src, want string
	}{
		{"{{ a }}|{{ b }}|{{ c }}", "1|['x', 2]|3.5"},
		{"{{ a ~ c }}", "13.5"},
		{"{{ missing is defined }}|{{ b|length }}", "False|2"},
		{"{% set a = 'shadow' %}{{ a }}", "shadow"},
		{"{% macro m(q=c) %}{{ q }}{{ a }}{% endmacro %}{{ m() }}", "3.51"},
		{"{% set ns = namespace(v=a) %}{% set ns.v = ns.v ~ c %}{{ ns.v }}", "13.5"},
		{"static", "static"},
		// assigned, never read: f and z are not copied
		{"{% set f = 1 %}{% for z in [1] %}{% endfor %}{% with f = 2 %}{% endwith %}{% set a, f = 1, 2 %}{% set z %}x{% endset %}{{ a }}", "1"},
	}
	for _, c := range cases {
		tpl, err := env.Parse("t", c.src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tpl.RenderResult(data, RenderOptions{})
		if err != nil || got.Output != c.want {
			t.Errorf("%s: %q, %v; want %q", c.src, got.Output, err, c.want)
			continue
		}
		// the same units as the data with every value readable, and as
		// the same data prepared whole
		full, err := tpl.RenderResult(ok, RenderOptions{})
		ctx, perr := env.Prepare(ok)
		if err != nil || perr != nil {
			t.Fatalf("%s: %v, %v", c.src, err, perr)
		}
		prep, err := tpl.RenderPrepared(ctx, RenderOptions{})
		if err != nil || full.Units != got.Units || prep.Units != got.Units || full.Output != c.want || prep.Output != c.want {
			t.Errorf("%s: units %d, %d prepared, %d unread refused (%q, %q, %v)", c.src, full.Units, prep.Units, got.Units, full.Output, prep.Output, err)
		}
	}
	// a name the template mentions is copied, and refused, wherever it is
	for _, src := range []string{"{{ f }}", "{% if false %}{{ z.g }}{% endif %}", "{% macro m() %}{{ f }}{% endmacro %}", "{% set f = 1 %}{{ f }}"} {
		tpl, err := env.Parse("t", src)
		if err != nil {
			t.Fatal(err)
		}
		_, err = tpl.Render(data)
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindType || !strings.Contains(e.Message, "cannot copy data at") {
			t.Errorf("%s: want the copy-in's refusal, got %v", src, err)
		}
	}
}

// TestReadsNamespaceTarget: {% set ns.attr %} reads ns, from the data
// too: a value there that the copy-in refuses is refused (an undefined ns
// would fail the set with the same message as a dict, Jinja2's).
func TestReadsNamespaceTarget(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	tpl, err := env.Parse("t", "{% set ns.a = 1 %}")
	if err != nil {
		t.Fatal(err)
	}
	_, err = tpl.Render(map[string]any{"ns": func() {}, "other": 1})
	if err == nil || !strings.Contains(err.Error(), "cannot copy data at ns") {
		t.Errorf("got %v", err)
	}
}

// TestUnreadNamesFirstRefusal: of several values a template reads, the
// refusal names the first in key order, whether the names are looked up
// (no more than the data's) or the data's keys walked (fewer).
func TestUnreadNamesFirstRefusal(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	bad := func() {}
	data := map[string]any{"b": bad, "d": bad, "a": 1, "c": 2}
	for _, src := range []string{
		"{{ d }}{{ b }}",                         // two names, four in the data
		"{{ aa }}{{ d }}{{ b }}",                 // a missing name first, then the two
		"{{ d }}{{ b }}{{ e1 }}{{ e2 }}{{ e3 }}", // five names, four in the data
		"{{ b }}{{ d }}{{ a }}{{ c }}",           // all of them
	} {
		tpl, err := env.Parse("t", src)
		if err != nil {
			t.Fatal(err)
		}
		_, err = tpl.Render(data)
		if err == nil || !strings.Contains(err.Error(), "cannot copy data at b") {
			t.Errorf("%s: %v", src, err)
		}
	}
}

// TestReadsWithOtherTemplates: a template that includes, imports or
// extends another copies every name in, the other template's included.
func TestReadsWithOtherTemplates(t *testing.T) {
	env, _ := NewEnvironment(Options{Templates: map[string]string{
		"inc":  "{{ hidden }}",
		"lib":  "{% macro m() %}{{ hidden }}{% endmacro %}",
		"base": "{% block b %}{{ hidden }}{% endblock %}",
	}})
	data := map[string]any{"hidden": "H", "other": 1}
	for src, want := range map[string]string{
		"{% include 'inc' %}":                                     "H",
		"{% import 'lib' as l with context %}{{ l.m() }}":         "H",
		"{% from 'lib' import m with context %}{{ m() }}":         "H",
		"{% extends 'base' %}":                                    "H",
		"{% if false %}{% include 'inc' %}{% endif %}x":           "x",
		"{% include 'inc' %}{% if false %}{{ other }}{% endif %}": "H",
	} {
		tpl, err := env.Parse("t", src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tpl.Render(data)
		if err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", src, got, err, want)
		}
		if tpl.info.reads != nil {
			t.Errorf("%s: copies only %d names", src, tpl.info.reads.Len())
		}
	}
	// and so a value only the other template reads is refused as before
	tpl, _ := env.Parse("t", "{% include 'inc' %}")
	if _, err := tpl.Render(map[string]any{"hidden": func() {}}); err == nil {
		t.Error("an included template's name was not copied in")
	}
}

// TestReadsMatchPrepared: every template of the corpora renders the same
// (output, units, error) from its case's data copied in, the names its
// template reads alone, as from the same data prepared whole: a name the
// check missed (a read it does not visit) would be undefined in the first
// and not in the second. Each case runs under a small budget, so the
// hostile cases end early, the same way on both paths.
func TestReadsMatchPrepared(t *testing.T) {
	env, err := NewEnvironment(Options{Limits: budget.Limits{WorkUnits: 200_000}, Templates: oracleTemplates})
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"testdata/render_cases.jsonl"}
	for _, glob := range []string{"../testsuite/testdata/shared/conformance/*.jsonl", "../testsuite/testdata/shared/hostile/*.jsonl"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	if len(files) < 5 {
		t.Fatalf("corpora missing: %v", files)
	}
	cases, partial := 0, 0
	for _, path := range files {
		fh, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 4<<20), 4<<20)
		for sc.Scan() {
			var c struct {
				ID       string         `json:"id"`
				Template string         `json:"template"`
				Context  map[string]any `json:"context"`
			}
			if json.Unmarshal(sc.Bytes(), &c) != nil || len(c.Template) > 20000 {
				continue
			}
			tpl, err := env.Parse("t", c.Template)
			if err != nil || len(c.Context) == 0 {
				continue
			}
			cases++
			if r := tpl.info.reads; r != nil && r.Len() < len(c.Context) {
				partial++
			}
			got, gotErr := tpl.RenderResult(c.Context, RenderOptions{})
			ctx, err := env.Prepare(c.Context)
			if err != nil {
				t.Errorf("%s: prepare: %v", c.ID, err)
				continue
			}
			want, wantErr := tpl.RenderPrepared(ctx, RenderOptions{})
			if got.Output != want.Output || got.Units != want.Units || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Errorf("%s: copied in %q, %d units, %v; prepared %q, %d units, %v", c.ID, got.Output, got.Units, gotErr, want.Output, want.Units, wantErr)
			}
		}
		fh.Close()
	}
	// the corpora have templates that read part of their data, and many
	if cases < 500 || partial < 20 {
		t.Fatalf("%d cases with data, %d reading part of it: too few to test anything", cases, partial)
	}
	t.Logf("%d cases with data, %d reading part of it", cases, partial)
}
