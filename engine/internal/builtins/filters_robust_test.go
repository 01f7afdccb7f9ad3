package builtins

import (
	"fmt"
	"math"
	"sort"
	"testing"

	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/value"
)

// TestFiltersNeverCrash calls every filter with odd values and argument
// combinations: any failure must be an engine error, never a Go panic.
func TestFiltersNeverCrash(t *testing.T) {
	d := value.NewDict(2)
	d.SetStr("a", num(1))
	d.Set(num(2), str("<b>"))
	samples := []value.Value{
		value.UndefinedValue, value.NoneValue, value.True, num(0), num(-1), num(3), num(math.MaxInt64), num(math.MinInt64),
		value.FromFloat(math.NaN()), value.FromFloat(math.Inf(-1)), value.FromFloat(-2.5),
		str(""), str("a"), str("<é> x-y\n"), str("_x"), value.Safe("<b>&amp;</b>"),
		value.NewList(nil), value.NewList([]value.Value{num(2), num(1)}), value.NewTuple([]value.Value{str("k"), str("v")}),
		value.FromDict(d), value.FromDict(value.NewDict(0)), newIterator("list_iterator", []value.Value{num(1)}),
	}
	argSets := [][]value.Value{nil}
	for _, a := range samples {
		argSets = append(argSets, []value.Value{a})
	}
	for i, a := range samples {
		b := samples[(i*7+3)%len(samples)]
		argSets = append(argSets, []value.Value{a, b}, []value.Value{b, a, samples[(i*5+1)%len(samples)]})
	}
	names := make([]string, 0, len(Filters))
	for n := range Filters {
		names = append(names, n)
	}
	sort.Strings(names)
	calls := 0
	for _, name := range names {
		for _, v := range samples {
			for _, args := range argSets {
				for _, strict := range []bool{false, true} {
					c := newCtx(1<<22, strict)
					c.strict = strict
					func() {
						defer func() {
							if r := recover(); r != nil {
								if _, ok := r.(*errs.Error); !ok {
									t.Errorf("%s(%s, %v): Go panic: %v", name, value.Repr(v), fmt.Sprint(args), r)
								}
							}
						}()
						calls++
						r := Filters[name](c, v, &value.Args{Pos: args})
						_ = value.ToString(r)
						if r.Kind() == value.Object {
							_ = value.Iterate(c, r) // run a generator's body
						}
					}()
				}
			}
		}
	}
	t.Logf("%d calls", calls)
}
