package builtins

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/value"
)

// fakeCtx is a minimal render context for filter tests: a real meter,
// Jinja's getitem-then-getattr over plain values, filters and tests by
// name from the registries (plus a few tests the test suite needs).
type fakeCtx struct {
	meter  *budget.Meter
	ae     bool
	strict bool
	rnd    uint64
}

func newCtx(units int64, ae bool) *fakeCtx {
	m := budget.NewMeter(budget.Limits{WorkUnits: units})
	m.Phase = budget.PhaseRender
	return &fakeCtx{meter: m, ae: ae}
}

func (c *fakeCtx) Charge(n int64, op string) { errs.Raise(c.meter.Charge(n, op)) }
func (c *fakeCtx) Meter() *budget.Meter      { return c.meter }
func (c *fakeCtx) Spender() *budget.Meter    { return nil }
func (c *fakeCtx) Autoescape() bool          { return c.ae }
func (c *fakeCtx) Strict() bool              { return c.strict }
func (c *fakeCtx) Rand() uint64 {
	c.rnd = c.rnd*6364136223846793005 + 1442695040888963407
	return c.rnd >> 11
}
func (c *fakeCtx) HasFilter(n string) bool { _, ok := Filters[n]; return ok }
func (c *fakeCtx) HasTest(n string) bool   { _, ok := fakeTests[n]; return ok }

func (c *fakeCtx) CallValue(f value.Value, args *value.Args) value.Value {
	panic("filters must not call values")
}

func (c *fakeCtx) Attr(v value.Value, name string) value.Value {
	if strings.HasPrefix(name, "_") {
		errs.Throw(errs.Security, "access to attribute "+errs.Quote(name)+" is unsafe")
	}
	if v.IsUndefined() {
		vops.ThrowUndefined(v)
	}
	if f, ok := v.TupleField(name); ok {
		return f
	}
	if v.Kind() == value.Dict {
		if x, ok := v.DictData().GetStr(name); ok {
			return x
		}
	}
	return value.Undef(name)
}

func (c *fakeCtx) Item(v value.Value, key value.Value) value.Value {
	switch v.Kind() {
	case value.Dict:
		if x, ok := v.DictData().Get(key); ok {
			return x
		}
	case value.List, value.Tuple:
		if key.Kind() == value.Int {
			items := v.Items()
			i := key.Int()
			if i < 0 {
				i += int64(len(items))
			}
			if i >= 0 && i < int64(len(items)) {
				return items[i]
			}
		}
	case value.Undefined:
		vops.ThrowUndefined(v)
	}
	return value.Undef("")
}

func (c *fakeCtx) Lookup(v value.Value, seg string) value.Value {
	if strings.HasPrefix(seg, "_") {
		errs.Throw(errs.Security, "access to attribute "+errs.Quote(seg)+" is unsafe")
	}
	if n, err := strconv.ParseInt(seg, 10, 64); err == nil && seg[0] != '-' && seg[0] != '+' {
		return c.Item(v, value.FromInt(n))
	}
	if v.Kind() == value.Dict {
		return c.Item(v, value.FromString(seg))
	}
	return c.Attr(v, seg)
}

func (c *fakeCtx) CallFilter(name string, v value.Value, args *value.Args) value.Value {
	f, ok := Filters[name]
	if !ok {
		errs.Throwf(errs.Render, "No filter named %s.", errs.Quote(name))
	}
	return f(c, v, args)
}

func (c *fakeCtx) CallTest(name string, v value.Value, args *value.Args) bool {
	t, ok := Tests[name] // the registered tests when present
	if !ok {
		t, ok = fakeTests[name]
	}
	if !ok {
		errs.Throwf(errs.Render, "No test named %s.", errs.Quote(name))
	}
	return t(c, v, args)
}

// fakeTests stand in for registered tests missing from Tests.
var fakeTests = map[string]TestFunc{
	"odd":     func(c value.Ctx, v value.Value, a *value.Args) bool { return v.Int()%2 != 0 },
	"even":    func(c value.Ctx, v value.Value, a *value.Args) bool { return v.Int()%2 == 0 },
	"none":    func(c value.Ctx, v value.Value, a *value.Args) bool { return v.IsNone() },
	"defined": func(c value.Ctx, v value.Value, a *value.Args) bool { return !v.IsUndefined() },
	"string":  func(c value.Ctx, v value.Value, a *value.Args) bool { return v.IsString() },
	"number":  func(c value.Ctx, v value.Value, a *value.Args) bool { return v.IsNumber() },
	"equalto": func(c value.Ctx, v value.Value, a *value.Args) bool { return value.Equal(c, v, a.Pos[0]) },
	"gt": func(c value.Ctx, v value.Value, a *value.Args) bool {
		return value.Compare(c, v, a.Pos[0], ">") == 1
	},
	"in": func(c value.Ctx, v value.Value, a *value.Args) bool { return value.Contains(c, a.Pos[0], v) },
}

// fromJSON decodes test data keeping dict order; {"$safe": s},
// {"$tuple": [...]} and {"$undef": 1} mark markup, tuples and undefined.
func fromJSON(t testing.TB, raw json.RawMessage) value.Value {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return decodeVal(t, dec)
}

func decodeVal(t testing.TB, dec *json.Decoder) value.Value {
	tok, err := dec.Token()
	if err != nil {
		t.Fatal(err)
	}
	switch x := tok.(type) {
	case nil:
		return value.NoneValue
	case bool:
		return value.FromBool(x)
	case string:
		return value.FromString(x)
	case json.Number:
		if n, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return value.FromInt(n)
		}
		f, _ := strconv.ParseFloat(string(x), 64)
		return value.FromFloat(f)
	case json.Delim:
		if x == '[' {
			items := []value.Value{}
			for dec.More() {
				items = append(items, decodeVal(t, dec))
			}
			dec.Token()
			return value.NewList(items)
		}
		d := value.NewDict(4)
		var marker value.Value
		isMarker := false
		for dec.More() {
			kt, _ := dec.Token()
			k := kt.(string)
			v := decodeVal(t, dec)
			switch k {
			case "$safe":
				marker, isMarker = value.Safe(v.Str()), true
			case "$tuple":
				marker, isMarker = value.NewTuple(v.Items()), true
			case "$undef":
				marker, isMarker = value.Undef("x"), true
			case "$float":
				f, _ := strconv.ParseFloat(v.Str(), 64)
				marker, isMarker = value.FromFloat(f), true
			case "$range":
				marker, isMarker = rangeView(v.Items()), true
			case "$keys", "$values", "$items":
				marker, isMarker = dictView(k[1:], v.DictData()), true
			default:
				d.Set(keyOf(k), v)
			}
		}
		dec.Token()
		if isMarker {
			return marker
		}
		return value.FromDict(d)
	}
	t.Fatalf("bad token %v", tok)
	return value.Value{}
}

// rangeView is Python's range(start, stop[, step]) as the engine's view.
func rangeView(args []value.Value) value.Value {
	start, stop, step := args[0].Int(), args[1].Int(), int64(1)
	if len(args) > 2 {
		step = args[2].Int()
	}
	var items []value.Value
	for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
		items = append(items, value.FromInt(i))
	}
	a := strconv.FormatInt(start, 10) + ", " + strconv.FormatInt(stop, 10)
	if step != 1 {
		a += ", " + strconv.FormatInt(step, 10)
	}
	return value.NewView("range", a, items)
}

// dictView is d.keys(), d.values() or d.items() as the engine's view.
func dictView(kind string, d *value.DictData) value.Value {
	items := make([]value.Value, d.Len())
	for i := range items {
		switch kind {
		case "keys":
			items[i] = d.KeyAt(i)
		case "values":
			items[i] = d.ValAt(i)
		default:
			items[i] = value.NewTuple([]value.Value{d.KeyAt(i), d.ValAt(i)})
		}
	}
	return value.NewView("dict_"+kind, "", items)
}

// keyOf lets JSON object keys stand for int keys when written "#1".
func keyOf(k string) value.Value {
	if strings.HasPrefix(k, "#") {
		n, _ := strconv.ParseInt(k[1:], 10, 64)
		return value.FromInt(n)
	}
	return value.FromString(k)
}

// run calls a filter and returns what Jinja would print, or the error.
func run(c *fakeCtx, name string, v value.Value, args *value.Args, post string) (out string, err *errs.Error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*errs.Error)
			if !ok {
				panic(fmt.Sprintf("%s: non-engine panic: %v", name, r))
			}
			err = e
		}
	}()
	f, ok := Filters[name]
	if !ok {
		return "", errs.New(errs.Internal, "no filter "+name)
	}
	r := f(c, v, args)
	if post != "" {
		r = Filters[post](c, r, nil)
	}
	if bad := wrongCount(r); bad != "" {
		return "", errs.New(errs.Internal, name+": "+bad)
	}
	if c.ae {
		return vops.EscapeStr(value.Escape(r)), nil
	}
	return value.ToString(r), nil
}

// wrongCount reports a string result whose code-point count (which its
// maker may set without a scan: value.StringLikeCounted) is not its text's.
func wrongCount(v value.Value) string {
	if !v.IsString() {
		return ""
	}
	if got, want := v.RuneCount(), utf8.RuneCountInString(v.Str()); got != want {
		return fmt.Sprintf("the result knows %d code points, its text has %d", got, want)
	}
	return ""
}
