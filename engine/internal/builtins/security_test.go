package builtins

import (
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/value"
)

// fmtCase is recv.format(args) (op "format"), recv.format_map(args[0])
// or recv % args[0] (op "%").
type fmtCase struct {
	name  string
	recv  value.Value
	op    string
	args  []value.Value
	kw    []value.KV
	units int64
	want  string // output, or "!kind"
}

func dictOf(kv ...any) value.Value {
	d := value.NewDict(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		var v value.Value
		switch x := kv[i+1].(type) {
		case int:
			v = value.FromInt(int64(x))
		case string:
			v = value.FromString(x)
		case value.Value:
			v = x
		}
		d.SetStr(kv[i].(string), v)
	}
	return value.FromDict(d)
}

func runFmt(t *testing.T, cases []fmtCase) {
	t.Helper()
	for _, tc := range cases {
		units := tc.units
		if units == 0 {
			units = 1 << 27
		}
		c := newMCtx(units)
		var got value.Value
		e := catchErr(func() {
			if tc.op == "%" {
				got = Mod(c, tc.recv, tc.args[0])
				return
			}
			got = c.CallValue(c.Attr(tc.recv, tc.op), &value.Args{Pos: tc.args, Kw: tc.kw})
		})
		if strings.HasPrefix(tc.want, "!") {
			if e == nil || !sameKind(e, tc.want[1:]) {
				t.Errorf("%s: %v (output %q), want %s", tc.name, e, got.Str(), tc.want)
			}
			continue
		}
		if e != nil || got.Str() != tc.want {
			t.Errorf("%s: %q (%v), want %q", tc.name, got.Str(), e, tc.want)
		}
	}
}

func TestFormatSecurity(t *testing.T) {
	s := value.FromString
	one, two := value.FromInt(1), value.FromInt(2)
	cyc := value.FromCallable(GlobalFuncs["cycler"])
	runFmt(t, []fmtCase{
		{"field-class", s("{0.__class__}"), "format", []value.Value{one}, nil, 0, "!security"},
		{"kw-field", s("{x.__class__}"), "format", nil, []value.KV{{Key: "x", Val: one}}, 0, "!security"},
		{"index-dunder", s("{0[__class__]}"), "format", []value.Value{dictOf()}, nil, 0, "!security"},
		{"builtins", s("{0.__init__.__globals__[__builtins__]}"), "format", []value.Value{cyc}, nil, 0, "!security"},
		{"nested-spec", s("{0:{1.__class__}}"), "format", []value.Value{one, two}, nil, 0, "!security"},
		{"markup", value.Safe("{0.__class__}"), "format", []value.Value{one}, nil, 0, "!security"},
		{"map-absent", s("{x.__class__}"), "format_map", []value.Value{dictOf("x", 1)}, nil, 0, "!security"},
		{"undefined-receiver", s("{0.a._b}"), "format", []value.Value{value.Undef("u")}, nil, 0, "!security"},
		{"missing-receiver", s("{0._b}"), "format", []value.Value{dictOf()}, nil, 0, "!security"},
		{"private-after-item", s("{0[a]._b}"), "format", []value.Value{dictOf("a", dictOf())}, nil, 0, "!security"},
		{"p2-held-key", s("{0[_id]}"), "format", []value.Value{dictOf("_id", 5)}, nil, 0, "5"},
		{"p2-absent-key", s("{0[_x]}"), "format", []value.Value{dictOf()}, nil, 0, "!security"},
		{"p2-held-map", s("{_x}"), "format_map", []value.Value{dictOf("_x", 3)}, nil, 0, "3"},
		{"kwarg-name", s("{_x}"), "format", nil, []value.KV{{Key: "_x", Val: one}}, 0, "1"},
		{"dotted-key-not-attr", s("{0[a._b]}"), "format", []value.Value{dictOf("a._b", 7)}, nil, 0, "7"},
		{"benign-attr", s("{0.a.b}"), "format", []value.Value{dictOf("a", dictOf("b", "deep"))}, nil, 0, "deep"},
		{"undefined-attr", s("{0.a}"), "format", []value.Value{value.Undef("u")}, nil, 0, "!undefined"},
		{"percent-private-held", s("%(_x)s"), "%", []value.Value{dictOf("_x", 1)}, nil, 0, "1"},
		{"percent-private-absent", s("%(_x)s"), "%", []value.Value{dictOf()}, nil, 0, "!security"},
	})
	// a stored bound format refuses when called, and cannot enter a namespace
	c := newMCtx(1 << 20)
	f := c.Attr(s("{0.__class__}"), "format")
	if e := catchErr(func() { c.CallValue(f, &value.Args{Pos: []value.Value{one}}) }); e == nil || e.Kind != errs.Security {
		t.Errorf("stored format: %v", e)
	}
	if e := catchErr(func() { value.CheckData(c, f, "namespace attribute") }); e == nil || e.Kind != errs.Security {
		t.Errorf("format in a namespace: %v", e)
	}
}

func TestFormatBudget(t *testing.T) {
	s := value.FromString
	one := value.FromInt(1)
	x := s("x")
	fl := value.FromFloat(1.0)
	doc := s(strings.Repeat("x", 100))
	runFmt(t, []fmtCase{
		{"percent-width", s("%1000000000s"), "%", []value.Value{x}, nil, 0, "!budget"},
		{"percent-width-d", s("%1000000000d"), "%", []value.Value{one}, nil, 0, "!budget"},
		{"percent-star-width", s("%*s"), "%", []value.Value{value.NewTuple([]value.Value{value.FromInt(1000000000), x})}, nil, 0, "!budget"},
		{"percent-precision", s("%.1000000000f"), "%", []value.Value{fl}, nil, 0, "!budget"},
		{"percent-star-precision", s("%.*f"), "%", []value.Value{value.NewTuple([]value.Value{value.FromInt(1000000000), fl})}, nil, 0, "!budget"},
		{"percent-nested-key", s("%(a(b))1000000000s"), "%", []value.Value{dictOf("a(b)", "x")}, nil, 0, "!budget"},
		{"percent-key-left-open", s(strings.Repeat("%(", 200000)), "%", []value.Value{dictOf()}, nil, 0, "!render"},
		{"percent-escape-many", s(strings.Repeat("%", 100000)), "%", []value.Value{value.NewTuple(nil)}, nil, 0, strings.Repeat("%", 50000)},
		{"percent-huge-list", s("%s"), "%", []value.Value{value.NewList(func() []value.Value {
			items := make([]value.Value, 100000)
			big := s(strings.Repeat("x", 10000)) // one string referenced 100,000 times
			for i := range items {
				items[i] = big
			}
			return items
		}())}, nil, 0, "!budget"},
		{"percent-data", s(strings.Repeat("%(a)s", 20000)), "%", []value.Value{dictOf("a", doc)}, nil, 1000000, "!budget"},
		{"brace-width", s("{:>1000000000}"), "format", []value.Value{x}, nil, 0, "!budget"},
		{"brace-precision", s("{:.1000000000f}"), "format", []value.Value{fl}, nil, 0, "!budget"},
		{"brace-nested-width", s("{:>{}}"), "format", []value.Value{x, value.FromInt(1000000000)}, nil, 0, "!budget"},
		{"brace-int-width", s("{:1000000000}"), "format", []value.Value{one}, nil, 0, "!budget"},
		{"brace-field-data", s(strings.Repeat("{0.text}", 20000)), "format", []value.Value{dictOf("text", doc)}, nil, 1000000, "!budget"},
		{"brace-map-data", s(strings.Repeat("{a}", 20000)), "format_map", []value.Value{dictOf("a", doc)}, nil, 1000000, "!budget"},
		{"brace-small", s("{:>4}"), "format", []value.Value{x}, nil, 0, "   x"},
		{"markup-escapes", value.Safe("<b>{0}</b>"), "format", []value.Value{s("<i>")}, nil, 0, "<b>&lt;i&gt;</b>"},
	})
}
