package builtins

import (
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/value"
)

func call(c value.Ctx, name string, pos []value.Value, kw ...value.KV) value.Value {
	return GlobalFuncs[name].Call(c, &value.Args{Pos: pos, Kw: kw})
}

func ints(ns ...int64) []value.Value {
	out := make([]value.Value, len(ns))
	for i, n := range ns {
		out[i] = value.FromInt(n)
	}
	return out
}

func TestRange(t *testing.T) {
	const big = int64(1<<63 - 1)
	cases := []struct {
		args []value.Value
		want string // repr, or "!kind"
	}{
		{ints(5), "[0, 1, 2, 3, 4]"},
		{ints(2, 5), "[2, 3, 4]"},
		{ints(10, 0, -3), "[10, 7, 4, 1]"},
		{ints(5, -5, -2), "[5, 3, 1, -1, -3]"},
		{ints(0), "[]"},
		{ints(5, 1), "[]"},
		{ints(1, 10, 0), "!render"},
		{ints(1, 2, 1, 4), "!type"},
		{nil, "!type"},
		{ints(100000), ""},
		{ints(100001), "!render"},
		{ints(1000000000), "!render"},
		{ints(-big-1, big), "!render"},
		{ints(big-2, big), "[9223372036854775805, 9223372036854775806]"},
		{ints(-big-1, big, big), "[-9223372036854775808, -1, 9223372036854775806]"},
		{[]value.Value{value.FromFloat(1.5)}, "!type"},
		{[]value.Value{value.True}, "[0]"},
	}
	for _, tc := range cases {
		c := newMCtx(1 << 30)
		var got value.Value
		e := catchErr(func() { got = call(c, "range", tc.args) })
		switch {
		case strings.HasPrefix(tc.want, "!"):
			if e == nil || !sameKind(e, tc.want[1:]) {
				t.Errorf("range%s: %v, want %s", value.Repr(value.NewTuple(tc.args)), e, tc.want)
			}
		case e != nil:
			t.Errorf("range%s: %v", value.Repr(value.NewTuple(tc.args)), e)
		case tc.want != "" && value.Repr(value.NewList(got.Items())) != tc.want:
			t.Errorf("range%s = %s, want %s", value.Repr(value.NewTuple(tc.args)), value.Repr(got), tc.want)
		}
	}
	if got := call(newMCtx(1<<20), "range", ints(-3, 3, 2)); value.Repr(got) != "range(-3, 3, 2)" {
		t.Errorf("range prints as %s", value.Repr(got))
	}
	// the items are charged: a small budget refuses a long range
	c := newMCtx(100000)
	if e := catchErr(func() { call(c, "range", ints(90000)) }); e == nil || e.Kind != errs.Budget {
		t.Errorf("range under a small budget: %v", e)
	}
	if e := catchErr(func() {
		GlobalFuncs["range"].Call(c, &value.Args{Kw: []value.KV{{Key: "stop", Val: value.FromInt(1)}}})
	}); e == nil || e.Kind != errs.Type {
		t.Errorf("range(stop=1): %v", e)
	}
}

func TestLipsum(t *testing.T) {
	c := newMCtx(1 << 30)
	out := call(c, "lipsum", nil)
	if !out.IsSafe() || strings.Count(out.Str(), "<p>") != 5 || !strings.HasSuffix(out.Str(), ".</p>") {
		t.Errorf("lipsum(): %q", out.Str())
	}
	words := len(strings.Fields(out.Str()))
	if words < 5*20 || words > 5*99 {
		t.Errorf("lipsum(): %d words", words)
	}
	first := out.Str()
	if again := call(newMCtx(1<<30), "lipsum", nil); again.Str() != first {
		t.Error("lipsum is not deterministic for a fixed generator")
	}
	plain := call(c, "lipsum", ints(2), value.KV{Key: "html", Val: value.False}, value.KV{Key: "min", Val: value.FromInt(3)}, value.KV{Key: "max", Val: value.FromInt(4)})
	if plain.IsSafe() || strings.Count(plain.Str(), "\n\n") != 1 || len(strings.Fields(plain.Str())) != 6 {
		t.Errorf("lipsum(2, html=False, min=3, max=4): %q", plain.Str())
	}
	if p := call(c, "lipsum", ints(1, 0, -100, -99)); p.Str() != "." {
		t.Errorf("empty paragraph: %q", p.Str())
	}
	for _, args := range [][]value.Value{
		ints(1000000000),
		{value.FromInt(1), value.False, value.FromInt(1000000000), value.FromInt(1000000000)},
		ints(1000000000, 1, -100, -99),
	} {
		if e := catchErr(func() { call(newMCtx(1<<27), "lipsum", args) }); e == nil || e.Kind != errs.Budget {
			t.Errorf("lipsum%s: %v, want budget", value.Repr(value.NewTuple(args)), e)
		}
	}
	if e := catchErr(func() { call(c, "lipsum", ints(1, 1, 5, 5)) }); e == nil || e.Kind != errs.Render {
		t.Errorf("lipsum empty range: %v", e)
	}
	// five lipsums of 10,000 empty paragraphs overdraw a 1,000,000 budget
	small := newMCtx(1000000)
	e := catchErr(func() {
		for i := 0; i < 5; i++ {
			call(small, "lipsum", nil, value.KV{Key: "n", Val: value.FromInt(10000)}, value.KV{Key: "min", Val: value.FromInt(-100)}, value.KV{Key: "max", Val: value.FromInt(-99)})
		}
	})
	if e == nil || e.Kind != errs.Budget {
		t.Errorf("lipsum in a loop: %v", e)
	}
}

func TestDictGlobal(t *testing.T) {
	c := newMCtx(1 << 30)
	d := value.NewDict(2)
	d.SetStr("a", value.FromInt(1))
	d.SetStr("b", value.FromInt(2))
	pairs := value.NewList([]value.Value{value.NewTuple(ints(1, 2)), value.FromString("xy")})
	cases := []struct {
		args *value.Args
		want string
	}{
		{nil, "{}"},
		{&value.Args{Kw: []value.KV{{Key: "x", Val: value.FromInt(1)}, {Key: "__class__", Val: value.FromInt(2)}}}, "{'x': 1, '__class__': 2}"},
		{&value.Args{Pos: []value.Value{value.FromDict(d)}}, "{'a': 1, 'b': 2}"},
		{&value.Args{Pos: []value.Value{value.FromDict(d)}, Kw: []value.KV{{Key: "a", Val: value.FromInt(3)}}}, "{'a': 3, 'b': 2}"},
		{&value.Args{Pos: []value.Value{pairs}}, "{1: 2, 'x': 'y'}"},
		{&value.Args{Pos: []value.Value{value.Undef("u")}}, "{}"},
		{&value.Args{Pos: []value.Value{value.NewList(ints(1))}}, "!type"},
		{&value.Args{Pos: []value.Value{value.NewList([]value.Value{value.NewList(ints(1, 2, 3))})}}, "!render"},
		{&value.Args{Pos: ints(1, 2)}, "!type"},
	}
	for _, tc := range cases {
		var got value.Value
		e := catchErr(func() { got = GlobalFuncs["dict"].Call(c, tc.args) })
		if strings.HasPrefix(tc.want, "!") {
			if e == nil || !sameKind(e, tc.want[1:]) {
				t.Errorf("dict: %v, want %s", e, tc.want)
			}
			continue
		}
		if e != nil || value.Repr(got) != tc.want {
			t.Errorf("dict = %s (%v), want %s", value.Repr(got), e, tc.want)
		}
	}
}

func TestCyclerJoinerNamespace(t *testing.T) {
	c := newMCtx(1 << 30)
	cy := call(c, "cycler", []value.Value{value.FromString("a"), value.FromString("b")})
	var sb strings.Builder
	for i := 0; i < 3; i++ {
		sb.WriteString(c.CallValue(c.Attr(cy, "next"), nil).Str())
	}
	sb.WriteString(c.Attr(cy, "current").Str())
	c.CallValue(c.Attr(cy, "reset"), nil)
	sb.WriteString(c.Attr(cy, "current").Str())
	if sb.String() != "ababa" || value.Repr(c.Attr(cy, "items")) != "('a', 'b')" || c.Attr(cy, "pos").Int() != 0 {
		t.Errorf("cycler: %q", sb.String())
	}
	if !c.Attr(cy, "nope").IsUndefined() {
		t.Error("cycler.nope")
	}
	if e := catchErr(func() { c.Attr(cy, "__dict__") }); e == nil || e.Kind != errs.Security {
		t.Errorf("cycler.__dict__: %v", e)
	}
	if e := catchErr(func() { call(c, "cycler", nil) }); e == nil || e.Kind != errs.Render {
		t.Errorf("cycler(): %v", e)
	}

	j := call(c, "joiner", []value.Value{value.FromString(",")})
	sb.Reset()
	for _, s := range []string{"a", "b", "c"} {
		sb.WriteString(c.CallValue(j, nil).Str() + s)
	}
	if sb.String() != "a,b,c" {
		t.Errorf("joiner: %q", sb.String())
	}
	if d := call(c, "joiner", nil); c.CallValue(d, nil).Str() != "" || c.CallValue(d, nil).Str() != ", " {
		t.Error("joiner default separator")
	}

	src := value.NewDict(1)
	src.SetStr("a", value.FromInt(13))
	ns := call(c, "namespace", []value.Value{value.FromDict(src)}, value.KV{Key: "self", Val: value.FromInt(37)}, value.KV{Key: "c", Val: cy})
	if c.Attr(ns, "a").Int() != 13 || c.Attr(ns, "self").Int() != 37 || !c.Attr(ns, "missing").IsUndefined() {
		t.Error("namespace attributes")
	}
	if e := catchErr(func() { c.Attr(ns, "_Namespace__attrs") }); e == nil || e.Kind != errs.Security {
		t.Errorf("namespace private: %v", e)
	}
	upper := c.Attr(value.FromString("x"), "upper")
	for _, bad := range []value.Value{upper, j, value.NewList([]value.Value{upper}), value.FromCallable(GlobalFuncs["range"])} {
		if e := catchErr(func() { call(c, "namespace", nil, value.KV{Key: "f", Val: bad}) }); e == nil || e.Kind != errs.Security {
			t.Errorf("namespace(f=%s): %v, want security (P10)", value.Repr(bad), e)
		}
	}
	if e := catchErr(func() { call(c, "namespace", ints(42)) }); e == nil || e.Kind != errs.Type {
		t.Errorf("namespace(42): %v", e)
	}
}
