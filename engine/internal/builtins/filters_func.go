package builtins

import (
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/value"
)

// map, select, reject, selectattr, rejectattr: they call registered
// filters and tests by name only, never a callable handed to them.

func init() {
	regFilter(fMap, "map")
	regFilter(func(c value.Ctx, v value.Value, a *value.Args) value.Value {
		return selectOrReject(c, v, a, true, false)
	}, "select")
	regFilter(func(c value.Ctx, v value.Value, a *value.Args) value.Value {
		return selectOrReject(c, v, a, false, false)
	}, "reject")
	regFilter(func(c value.Ctx, v value.Value, a *value.Args) value.Value {
		return selectOrReject(c, v, a, true, true)
	}, "selectattr")
	regFilter(func(c value.Ctx, v value.Value, a *value.Args) value.Value {
		return selectOrReject(c, v, a, false, true)
	}, "rejectattr")
}

func splitArgs(args *value.Args) ([]value.Value, []value.KV) {
	if args == nil {
		return nil, nil
	}
	return args.Pos, args.Kw
}

// fMap is sync_do_map with prepare_map: a generator whose body (argument
// checks included) runs when it is consumed.
func fMap(c value.Ctx, v value.Value, args *value.Args) value.Value {
	args = copyArgs(args)
	return newSizedGen("sync_do_map", func(c value.Ctx) (puller, int) {
		if !v.Truth() {
			if v.IsUndefined() && c.Strict() {
				vops.ThrowUndefined(v) // bool(StrictUndefined) fails
			}
			if args != nil && len(args.Pos) == 0 {
				for _, kv := range args.Kw {
					if kv.Key == "attribute" {
						refuseUnresolved(parseAttrPath(c, kv.Val))
					}
				}
			}
			return pullSlice(nil), 0
		}
		fn := prepareMap(c, args)
		src, n := sourceN(c, v, "filter map")
		return func(c value.Ctx) (value.Value, bool) {
			it, ok := src(c)
			if !ok {
				return it, false
			}
			return fn(c, it), true
		}, n
	})
}

// prepareMap is Jinja's prepare_map: attribute= (with default=) or a
// filter name with its arguments.
func prepareMap(c value.Ctx, args *value.Args) func(value.Ctx, value.Value) value.Value {
	pos, kw := splitArgs(args)
	attrIdx := -1
	for i, p := range kw {
		if p.Key == "attribute" {
			attrIdx = i
		}
	}
	if len(pos) == 0 && attrIdx >= 0 {
		path := parseAttrPath(c, kw[attrIdx].Val)
		var dflt *value.Value
		for _, p := range kw {
			switch p.Key {
			case "attribute":
			case "default":
				if !p.Val.IsNone() {
					d := p.Val
					dflt = &d
				}
			default:
				errs.Throwf(errs.Render, "Unexpected keyword argument %s", strutil.QuoteString(p.Key))
			}
		}
		return func(c value.Ctx, it value.Value) value.Value { return path.get(c, it, dflt) }
	}
	if len(pos) == 0 {
		errs.Throw(errs.Render, "map requires a filter argument")
	}
	name := pyStr(c, pos[0])
	rest := &value.Args{Pos: pos[1:], Kw: kw}
	return func(c value.Ctx, it value.Value) value.Value { return c.CallFilter(name, it, rest) }
}

// selectOrReject is select_or_reject with prepare_select_or_reject, as a
// generator.
func selectOrReject(c value.Ctx, v value.Value, args *value.Args, keep, lookupAttr bool) value.Value {
	args = copyArgs(args)
	return newGen("select_or_reject", func(c value.Ctx) puller {
		if !v.Truth() {
			if v.IsUndefined() && c.Strict() {
				vops.ThrowUndefined(v) // bool(StrictUndefined) fails
			}
			if lookupAttr && args != nil && len(args.Pos) > 0 {
				refuseUnresolved(parseAttrPath(c, args.Pos[0]))
			}
			return pullSlice(nil)
		}
		pos, kw := splitArgs(args)
		var path attrPath
		off := 0
		if lookupAttr {
			if len(pos) == 0 {
				errs.Throw(errs.Render, "Missing parameter for attribute name")
			}
			path = parseAttrPath(c, pos[0])
			off = 1
		}
		test := func(c value.Ctx, it value.Value) bool { return it.Truth() }
		if len(pos) > off {
			name := pyStr(c, pos[off])
			rest := &value.Args{Pos: pos[off+1:], Kw: kw}
			test = func(c value.Ctx, it value.Value) bool { return c.CallTest(name, it, rest) }
		}
		src := source(c, v, "filter select")
		return func(c value.Ctx) (value.Value, bool) {
			for {
				it, ok := src(c)
				if !ok {
					return it, false
				}
				x := it
				if lookupAttr {
					x = path.get(c, it, nil)
				}
				if test(c, x) == keep {
					return it, true
				}
			}
		}
	})
}
