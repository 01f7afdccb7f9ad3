package builtins

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/policy"
)

// mctx is a stand-in for the evaluator's value.Ctx: a real meter, the
// attribute/item chokepoint with the underscore rule (P1/P2), a fixed
// generator.
type mctx struct {
	meter  *budget.Meter
	strict bool
	rnd    uint64
	attrs  int // chokepoint attribute reads, for tests
}

func newMCtx(units int64) *mctx {
	m := budget.NewMeter(budget.Limits{WorkUnits: units})
	m.Phase = budget.PhaseRender
	return &mctx{meter: m, rnd: 0x9E3779B97F4A7C15}
}

func (c *mctx) Charge(n int64, op string) { errs.Raise(c.meter.Charge(n, op)) }
func (c *mctx) Meter() *budget.Meter      { return c.meter }
func (c *mctx) Spender() *budget.Meter    { return nil }
func (c *mctx) Autoescape() bool          { return false }
func (c *mctx) Strict() bool              { return c.strict }
func (c *mctx) HasFilter(n string) bool   { return n == "upper" || n == "format" }
func (c *mctx) HasTest(n string) bool     { _, ok := Tests[n]; return ok }

func (c *mctx) Rand() uint64 {
	c.rnd ^= c.rnd << 13
	c.rnd ^= c.rnd >> 7
	c.rnd ^= c.rnd << 17
	return c.rnd
}

func (c *mctx) Attr(v value.Value, name string) value.Value {
	c.attrs++
	if policy.IsPrivateName(name) {
		errs.Throwf(errs.Security, "access to attribute %s is refused", errs.Quote(name))
	}
	if v.IsUndefined() {
		vops.ThrowUndefined(v)
	}
	m, st, why := LookupMethod(c, v, name)
	switch st {
	case MethodFound:
		return m
	case MethodRefused:
		errs.Throw(errs.Security, why)
	}
	switch v.Kind() {
	case value.Dict:
		if x, ok := v.DictData().GetStr(name); ok {
			return x
		}
	case value.Object:
		if x, ok := v.ObjectImpl().Attr(c, name); ok {
			return x
		}
	}
	return value.UndefHint(name, "object has no attribute "+errs.Quote(name))
}

func (c *mctx) Item(v value.Value, key value.Value) value.Value {
	if key.IsString() && policy.IsPrivateName(key.Str()) {
		if v.Kind() == value.Dict {
			if x, ok := v.DictData().Get(key); ok {
				return x
			}
		}
		errs.Throwf(errs.Security, "access to item %s is refused", errs.Quote(key.Str()))
	}
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
	case value.String:
		if key.Kind() == value.Int {
			rs := []rune(v.Str())
			if i := key.Int(); i >= 0 && i < int64(len(rs)) {
				return value.FromString(string(rs[i]))
			}
		}
	case value.Undefined:
		vops.ThrowUndefined(v)
	}
	if key.IsString() {
		return c.Attr(v, key.Str())
	}
	return value.Undef("")
}

func (c *mctx) Lookup(v value.Value, seg string) value.Value {
	return c.Item(v, value.FromString(seg))
}

func (c *mctx) CallFilter(name string, v value.Value, args *value.Args) value.Value {
	panic("no filters in the fake")
}

func (c *mctx) CallTest(name string, v value.Value, args *value.Args) bool {
	return Tests[name](c, v, args)
}

func (c *mctx) CallValue(f value.Value, args *value.Args) value.Value {
	if f.Kind() != value.Callable {
		if f.IsUndefined() {
			vops.ThrowUndefined(f)
		}
		errs.Throwf(errs.Type, "%s object is not callable", errs.Quote(f.TypeName()))
	}
	return f.CallableImpl().Call(c, args)
}

// run calls f and converts a panic to the engine error.
func catchErr(f func()) (err *errs.Error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*errs.Error)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	f()
	return nil
}

func kindName(e *errs.Error) string {
	if e == nil {
		return ""
	}
	return e.Kind.String()
}

// decode turns the golden JSON encoding into a value: {"$m": s} Markup,
// {"$f": repr} float, {"$t": [...]} tuple, {"$d": [[k, v], ...]} dict.
func decode(raw json.RawMessage) value.Value {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var x any
	if err := d.Decode(&x); err != nil {
		panic(err)
	}
	return goldenValue(x)
}

func goldenValue(x any) value.Value {
	switch t := x.(type) {
	case nil:
		return value.NoneValue
	case bool:
		return value.FromBool(t)
	case string:
		return value.FromString(t)
	case json.Number:
		n, err := strconv.ParseInt(string(t), 10, 64)
		if err != nil {
			panic(err)
		}
		return value.FromInt(n)
	case []any:
		out := make([]value.Value, len(t))
		for i := range t {
			out[i] = goldenValue(t[i])
		}
		return value.NewList(out)
	case map[string]any:
		if s, ok := t["$u"]; ok {
			return value.Undef(s.(string))
		}
		if s, ok := t["$m"]; ok {
			return value.Safe(s.(string))
		}
		if s, ok := t["$f"]; ok {
			switch s {
			case "inf":
				return value.FromFloat(math.Inf(1))
			case "-inf":
				return value.FromFloat(math.Inf(-1))
			case "nan":
				return value.FromFloat(math.NaN())
			}
			f, err := strconv.ParseFloat(s.(string), 64)
			if err != nil {
				panic(err)
			}
			return value.FromFloat(f)
		}
		if items, ok := t["$t"]; ok {
			return value.NewTuple(goldenValue(items).Items())
		}
		if kvs, ok := t["$d"]; ok {
			d := value.NewDict(0)
			for _, kv := range kvs.([]any) {
				p := kv.([]any)
				d.Set(goldenValue(p[0]), goldenValue(p[1]))
			}
			return value.FromDict(d)
		}
	}
	panic(fmt.Sprintf("cannot decode %T", x))
}

func TestFakeCtxSelf(t *testing.T) {
	c := newMCtx(1000)
	if e := catchErr(func() { c.Charge(2000, "x") }); e == nil || e.Kind != errs.Budget || !errors.As(e, new(*budget.Error)) {
		t.Fatalf("budget: %v", e)
	}
}
