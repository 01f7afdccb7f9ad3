package templating

import (
	"errors"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/value"
)

// fakeCtx is a value.Ctx with a real meter and nothing else, so filters
// can be tested without the parser.
type fakeCtx struct {
	m      *budget.Meter
	esc    bool
	strict bool
	host   any // the render's state (engine.HostState)
}

func (f *fakeCtx) Host() any { return f.host }

func newCtx(units int64) *fakeCtx {
	m := budget.NewMeter(budget.Limits{WorkUnits: units})
	m.Phase = budget.PhaseRender
	return &fakeCtx{m: m}
}

func (f *fakeCtx) Charge(n int64, op string) {
	if err := f.m.Charge(n, op); err != nil {
		engine.Fail(err)
	}
}
func (f *fakeCtx) Meter() *budget.Meter                            { return f.m }
func (f *fakeCtx) Spender() *budget.Meter                          { return nil }
func (f *fakeCtx) Autoescape() bool                                { return f.esc }
func (f *fakeCtx) Attr(v value.Value, name string) value.Value     { panic("unused") }
func (f *fakeCtx) Item(v value.Value, key value.Value) value.Value { panic("unused") }
func (f *fakeCtx) Lookup(v value.Value, seg string) value.Value    { panic("unused") }
func (f *fakeCtx) CallFilter(name string, v value.Value, args *value.Args) value.Value {
	panic("unused")
}
func (f *fakeCtx) CallTest(name string, v value.Value, args *value.Args) bool { panic("unused") }
func (f *fakeCtx) HasFilter(name string) bool                                 { return false }
func (f *fakeCtx) HasTest(name string) bool                                   { return false }
func (f *fakeCtx) Rand() uint64                                               { return 4 }
func (f *fakeCtx) Strict() bool                                               { return f.strict }
func (f *fakeCtx) CallValue(fn value.Value, args *value.Args) value.Value     { panic("unused") }

// call runs a filter and returns its error, returned or raised by the
// value model or the meter underneath (engine.Catch), as an *engine.Error.
func call(c value.Ctx, fn engine.Filter, v value.Value, args *value.Args) (out value.Value, err *engine.Error) {
	var ferr error
	if e := engine.Catch(func() { out, ferr = fn(c, v, args) }); e != nil {
		ferr = e
	}
	if ferr != nil {
		if !errors.As(ferr, &err) {
			panic(ferr)
		}
		return value.Value{}, err
	}
	return out, nil
}

func strArgs(s ...string) *value.Args {
	a := &value.Args{}
	for _, x := range s {
		a.Pos = append(a.Pos, value.FromString(x))
	}
	return a
}
