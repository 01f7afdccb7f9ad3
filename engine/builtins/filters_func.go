package builtins

import (
	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/errs"
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

// fMap is sync_do_map with prepare_map.
func fMap(c value.Ctx, v value.Value, args *value.Args) value.Value {
	if !v.Truth() {
		if v.IsUndefined() && c.Strict() {
			value.ThrowUndefined(v)
		}
		return newGenerator("sync_do_map", nil)
	}
	pos, kw := splitArgs(args)
	var fn func(value.Value) value.Value
	attrIdx := -1
	for i, p := range kw {
		if p.Key == "attribute" {
			attrIdx = i
		}
	}
	if len(pos) == 0 && attrIdx >= 0 {
		path := parseAttrPath(kw[attrIdx].Val)
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
				value.Throwf(errs.Render, "Unexpected keyword argument %s", value.QuoteString(p.Key))
			}
		}
		fn = func(it value.Value) value.Value { return path.get(c, it, dflt) }
	} else {
		if len(pos) == 0 {
			value.Throw(errs.Render, "map requires a filter argument")
		}
		name := pyStr(c, pos[0])
		rest := &value.Args{Pos: pos[1:], Kw: kw}
		fn = func(it value.Value) value.Value { return c.CallFilter(name, it, rest) }
	}
	items := value.Iterate(c, v)
	out := make([]value.Value, 0, len(items))
	for _, it := range items {
		c.Charge(budget.Elem, "filter map")
		out = append(out, fn(it))
	}
	return newGenerator("sync_do_map", out)
}

// selectOrReject is select_or_reject with prepare_select_or_reject.
func selectOrReject(c value.Ctx, v value.Value, args *value.Args, keep, lookupAttr bool) value.Value {
	if !v.Truth() {
		if v.IsUndefined() && c.Strict() {
			value.ThrowUndefined(v)
		}
		return newGenerator("select_or_reject", nil)
	}
	pos, kw := splitArgs(args)
	var path attrPath
	off := 0
	if lookupAttr {
		if len(pos) == 0 {
			value.Throw(errs.Render, "Missing parameter for attribute name")
		}
		path = parseAttrPath(pos[0])
		off = 1
	}
	test := func(it value.Value) bool { return it.Truth() }
	if len(pos) > off {
		name := pyStr(c, pos[off])
		rest := &value.Args{Pos: pos[off+1:], Kw: kw}
		test = func(it value.Value) bool { return c.CallTest(name, it, rest) }
	}
	items := value.Iterate(c, v)
	out := []value.Value{}
	for _, it := range items {
		c.Charge(budget.Elem, "filter select")
		x := it
		if lookupAttr {
			x = path.get(c, it, nil)
		}
		if test(x) == keep {
			out = append(out, it)
		}
	}
	return newGenerator("select_or_reject", out)
}
