package builtins

import (
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/value"
)

func str(s string) value.Value { return value.FromString(s) }
func num(n int64) value.Value  { return value.FromInt(n) }

func pos(vs ...value.Value) *value.Args { return &value.Args{Pos: vs} }

func intRange(n int) value.Value {
	items := make([]value.Value, n)
	for i := range items {
		items[i] = num(int64(i))
	}
	return value.NewList(items)
}

func intRangeFrom(lo, hi int) value.Value {
	items := make([]value.Value, 0, hi-lo)
	for i := lo; i < hi; i++ {
		items = append(items, num(int64(i)))
	}
	return value.NewList(items)
}

func repeatList(v value.Value, n int) value.Value {
	items := make([]value.Value, n)
	for i := range items {
		items[i] = v
	}
	return value.NewList(items)
}

// drainPost consumes the generators that lazy filters return.
func drainPost(filter string) string {
	switch filter {
	case "batch", "slice", "unique", "map", "select", "reject", "selectattr", "rejectattr", "items":
		return "list"
	}
	return ""
}

// TestFiltersRefuseBeforeAllocating mirrors the hostile corpus: each
// filter must estimate its result and refuse it with the budget error
// under the default budget, quickly and without building it.
func TestFiltersRefuseBeforeAllocating(t *testing.T) {
	big := str(strings.Repeat("x", 10000))
	cases := []struct {
		name   string
		filter string
		v      value.Value
		args   *value.Args
	}{
		{"center", "center", str("x"), pos(num(1e9))},
		{"center-kw", "center", str("x"), &value.Args{Kw: []value.KV{{Key: "width", Val: num(1e9)}}}},
		{"indent-first", "indent", str("a"), pos(num(1e9), value.True)},
		{"indent-width", "indent", str(strings.Repeat("x\n", 10)), pos(num(1e8))},
		{"indent-string", "indent", str(strings.Repeat("x\n", 1e6)), pos(str(strings.Repeat("y", 10000)))},
		{"join-sep", "join", intRange(100000), pos(str(strings.Repeat("x", 100000)))},
		{"replace-empty", "replace", str(strings.Repeat("a", 1e7)), pos(str(""), str(strings.Repeat("x", 100)))},
		{"replace-on-list", "replace", intRange(1000), pos(str(""), str(strings.Repeat("y", 200000)))},
		{"batch-fill", "batch", value.NewList([]value.Value{num(1)}), pos(num(1e9), num(0))},
		{"slice-many", "slice", intRange(10), pos(num(1e9))},
		{"tojson-shared", "tojson", repeatList(big, 100000), nil},
		{"pprint-shared", "pprint", repeatList(big, 100000), nil},
		{"string-shared", "string", repeatList(big, 100000), nil},
		{"join-shared", "join", repeatList(repeatList(big, 1000), 1000), nil},
		{"wordwrap-long-word", "wordwrap", str(strings.Repeat("x", 1e6)), pos(num(1))},
		{"wordwrap-wrapstring", "wordwrap", str(strings.Repeat("x ", 1e6)),
			&value.Args{Pos: []value.Value{num(1)}, Kw: []value.KV{{Key: "wrapstring", Val: str(strings.Repeat("y", 10000))}}}},
		{"striptags-open-lt", "striptags", str(strings.Repeat("<", 50000) + "x"), nil},
		{"striptags-open-comment", "striptags", str(strings.Repeat("<!--", 20000) + "x"), nil},
		{"striptags-comments", "striptags", str(strings.Repeat("<!---->", 1e6)), nil},
		{"urlize-target", "urlize", str(strings.Repeat("a.com ", 100000)),
			&value.Args{Kw: []value.KV{{Key: "target", Val: str(strings.Repeat("t", 100000))}}}},
		{"sum-of-lists", "sum", repeatList(repeatList(num(0), 1000), 10000),
			&value.Args{Kw: []value.KV{{Key: "start", Val: value.NewList(nil)}}}},
		{"int-wide", "int", str(strings.Repeat("9", 4000)), nil},
		{"abs-min-int", "abs", num(-1 << 63), nil},
		{"sort-huge", "sort", repeatList(big, 1000000), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCtx(0, false)
			_, err := run(c, tc.filter, tc.v, tc.args, drainPost(tc.filter))
			if err == nil || err.Kind != errs.Budget {
				t.Fatalf("want budget error, got %v", err)
			}
		})
	}
}

// TestSharedReferencesAreCharged feeds every filter a value whose logical
// size doubles at each of 40 levels (Nunjitsu's alias expansion): each
// must refuse with the budget error instead of expanding it.
func TestSharedReferencesAreCharged(t *testing.T) {
	for _, kind := range []string{"list", "tuple"} {
		v := str("a")
		for i := 0; i < 40; i++ {
			if kind == "list" {
				v = value.NewList([]value.Value{v, v})
			} else {
				v = value.NewTuple([]value.Value{v, v})
			}
		}
		for name := range Filters {
			switch name {
			case "first", "last", "length", "count", "list", "reverse", "random", "default", "d", "batch", "slice",
				"safe", "attr", "items", "int", "float", "abs", "round", "filesizeformat", "indent", "wordwrap",
				"truncate", "select", "reject", "selectattr", "rejectattr", "map", "xmlattr", "dictsort", "groupby":
				continue // these touch only the top level, or refuse the type
			}
			c := newCtx(1<<22, false) // the walk is bounded by what is left
			_, err := run(c, name, v, nil, drainPost(name))
			if err == nil || (err.Kind != errs.Budget && err.Kind != errs.Type) {
				t.Errorf("%s of a doubled %s: want budget error, got %v", name, kind, err)
			}
		}
	}
}

// TestFiltersOverdrawWhenRepeated mirrors the budget-small corpus: cheap
// steps must add up and overdraw a 1,000,000-unit budget.
func TestFiltersOverdrawWhenRepeated(t *testing.T) {
	cases := []struct {
		name   string
		n      int
		filter string
		v      value.Value
		args   *value.Args
	}{
		{"striptags", 500, "striptags", str(strings.Repeat("<>", 200)), nil},
		{"wordwrap", 100, "wordwrap", str(strings.Repeat("a", 400)), pos(num(1))},
		{"sum-lists", 50, "sum", repeatList(value.NewList([]value.Value{num(0)}), 100),
			&value.Args{Kw: []value.KV{{Key: "start", Val: value.NewList(nil)}}}},
		{"first", 5000, "first", value.NewList([]value.Value{num(1)}), nil},
		{"reject-draw", 100, "reject", intRangeFrom(1, 100000), nil}, // drawn by first, below
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCtx(1000000, false)
			var err *errs.Error
			post := ""
			if tc.filter == "reject" {
				post = "first"
			}
			for i := 0; i < tc.n && err == nil; i++ {
				_, err = run(c, tc.filter, tc.v, tc.args, post)
			}
			if err == nil || err.Kind != errs.Budget {
				t.Fatalf("want budget error, got %v", err)
			}
		})
	}
	// select | reject | first over 30,000 items
	c := newCtx(1000000, false)
	r := Filters["select"](c, intRangeFrom(1, 30000), nil)
	_, err := run(c, "reject", r, nil, "first")
	if err == nil || err.Kind != errs.Budget {
		t.Fatalf("select|reject|first: want budget error, got %v", err)
	}
}

// TestLinearTimeFilters mirrors the regex family: adversarial inputs for
// the filters whose reference implementations used backtracking regexes.
func TestLinearTimeFilters(t *testing.T) {
	cases := []struct {
		filter string
		in     string
		args   *value.Args
		want   int // output length in code points
	}{
		{"urlize", "@@" + strings.Repeat(".", 50000) + "!", nil, 50003},
		{"urlize", strings.Repeat(">", 32000) + "x", nil, 128001},
		{"urlize", "a" + strings.Repeat(")", 50000) + "x", nil, 50002},
		{"urlize", "www." + strings.Repeat("a.", 50000) + "!", nil, 100005},
		{"urlize", strings.Repeat("a@", 30000), nil, 60000},
		{"urlize", strings.Repeat("(", 50000) + "http://x.com" + strings.Repeat(")", 50000), nil, -1},
		{"striptags", strings.Repeat("<a", 50000) + "x" + strings.Repeat(">", 50000), nil, 49999},
		{"striptags", "a " + strings.Repeat(" ", 100000) + "b", nil, 3},
		{"wordcount", strings.Repeat(" ", 100000) + "a", nil, 1},
		{"title", strings.Repeat("-", 100000) + "a", nil, 100001},
		{"trim", "a" + strings.Repeat(" ", 100000) + "a", nil, 100002},
		{"wordwrap", strings.Repeat("-", 100000) + "a", pos(num(10)), -1},
		{"wordwrap", strings.Repeat("a-", 50000), pos(num(10)), -1},
		{"wordwrap", strings.Repeat("a ", 50000), pos(num(10)), -1},
	}
	for _, tc := range cases {
		c := newCtx(0, false)
		out, err := run(c, tc.filter, str(tc.in), tc.args, "")
		if err != nil && tc.want < 0 && err.Kind == errs.Budget {
			continue // quadratic in Python, charged as Python spends it
		}
		if err != nil {
			t.Errorf("%s: %v", tc.filter, err)
			continue
		}
		if tc.want >= 0 && strutil.RuneLen(out) != tc.want {
			if tc.filter == "wordcount" {
				if out != "1" {
					t.Errorf("wordcount: got %s", out)
				}
				continue
			}
			t.Errorf("%s on %q...: length %d, want %d", tc.filter, tc.in[:10], strutil.RuneLen(out), tc.want)
		}
	}
}

// TestIteratorResults checks that lazy filters keep Python's iterator
// surface: no length, not reversible, iterable.
func TestIteratorResults(t *testing.T) {
	c := newCtx(0, false)
	r := Filters["reverse"](c, intRange(3), nil)
	if _, err := run(c, "length", r, nil, ""); err == nil {
		t.Error("length of a reverse iterator must fail")
	}
	if out, _ := run(c, "list", r, nil, ""); out != "[2, 1, 0]" {
		t.Errorf("list of reverse: %s", out)
	}
	m := Filters["map"](c, value.NewList([]value.Value{str("a")}), pos(str("upper")))
	if _, err := run(c, "last", m, nil, ""); err == nil {
		t.Error("last of a generator must fail")
	}
	if out, _ := run(c, "reverse", m, nil, ""); out != "['A']" {
		t.Errorf("reverse of a generator is a list: %s", out)
	}
	if !m.Truth() {
		t.Error("generators are true")
	}
}

// TestPrivatePathsRefusedWithoutItems checks rule P1 on attribute paths
// built at runtime even when the input is empty and nothing is looked up.
func TestPrivatePathsRefusedWithoutItems(t *testing.T) {
	empty := value.NewList(nil)
	kw := func(k string, v value.Value) *value.Args { return &value.Args{Kw: []value.KV{{Key: k, Val: v}}} }
	cases := []struct {
		filter string
		args   *value.Args
	}{
		{"map", kw("attribute", str("a._x"))},
		{"selectattr", pos(str("_x"))},
		{"rejectattr", pos(str("__class__"))},
		{"sort", kw("attribute", str("a,_x"))},
		{"groupby", pos(str("_x"))},
		{"unique", kw("attribute", str("_x"))},
		{"min", kw("attribute", str("_x"))},
		{"max", kw("attribute", str("_x"))},
		{"sum", kw("attribute", str("_x"))},
		{"join", &value.Args{Pos: []value.Value{str(",")}, Kw: []value.KV{{Key: "attribute", Val: str("_x")}}}},
	}
	for _, tc := range cases {
		for _, v := range []value.Value{empty, value.UndefinedValue} {
			c := newCtx(0, false)
			_, err := run(c, tc.filter, v, tc.args, drainPost(tc.filter))
			if err == nil || err.Kind != errs.Security {
				t.Errorf("%s on %s: want security error, got %v", tc.filter, value.Repr(v), err)
			}
		}
	}
}
