package builtins

import (
	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/value"
)

// Jinja's lazy filters (map, select, reject, selectattr, rejectattr,
// unique, items, batch, slice) return generators, and reverse returns a
// reverse iterator. They are modelled as iterObj values with Python's
// iterator surface: iterable, always true, no length, no index, no
// attributes, so `x|map(f)|length` fails and `x|reverse is sequence` is
// false as in Jinja. A generator's body runs only when it is consumed,
// one item at a time: `x|select(t)|first` tests only up to the first hit,
// and errors surface when (and only if) the items are drawn, with each
// item charged as it is drawn.
//
// Unlike a Python generator, an iterObj keeps what it produced, so
// consuming it twice yields the same items (the evaluator may iterate a
// value more than once, e.g. for loop.length).

// puller yields the next item; ok is false when the iterator is done.
type puller func(c value.Ctx) (v value.Value, ok bool)

type iterObj struct {
	typ   string // Python type name for messages
	owner string // qualified function name for the repr
	items []value.Value
	start func(c value.Ctx) puller // the generator body, run on first pull
	// sized, instead of start, is a body that also says how many items
	// it yields (map's, one for each of its source's): a drain reserves
	// them at once, not by doubling
	sized func(c value.Ctx) (puller, int)
	size  int // what sized said, 0 when unknown
	// eager, instead of start, is a body that makes every item at once
	// (batch, slice, items): its result is the items, not copied again.
	eager func(c value.Ctx) []value.Value
	next  puller // nil before start and after the end
	done  bool
}

// TypeName implements value.ObjectImpl.
func (o *iterObj) TypeName() string { return o.typ }

// Attr implements value.ObjectImpl: iterators expose no attributes.
func (o *iterObj) Attr(c value.Ctx, name string) (value.Value, bool) { return value.Value{}, false }

// Iter implements value.Iterable: it drains the generator.
func (o *iterObj) Iter(c value.Ctx) []value.Value {
	if !o.done && o.eager == nil {
		o.begin(c)
		if o.size > cap(o.items) {
			// the source's items are made and were charged: an array of
			// as many is no more than they hold, and each item is still
			// charged as it is pulled
			//scratch:ok at most the source's number of items, an array the source already holds
			o.items = vmem.Append(vmem.Fresh(make([]value.Value, 0, o.size)), o.items...)
		}
	}
	for o.pull(c) {
	}
	return o.items
}

// begin runs the generator's body once, before its first item.
func (o *iterObj) begin(c value.Ctx) {
	switch {
	case o.next != nil:
	case o.sized != nil:
		sized := o.sized
		o.sized = nil
		o.next, o.size = sized(c)
	case o.start != nil:
		start := o.start
		o.start = nil
		o.next = start(c)
	}
}

// Repr is Python's repr without the address.
func (o *iterObj) Repr() string {
	if o.owner == "" {
		return "<" + o.typ + " object>"
	}
	return "<" + o.typ + " object " + o.owner + ">"
}

// pull draws one more item into o.items; false when exhausted.
func (o *iterObj) pull(c value.Ctx) bool {
	if o.done {
		return false
	}
	if o.eager != nil {
		body := o.eager
		o.eager = nil
		o.items, o.done = body(c), true
		return len(o.items) > 0
	}
	o.begin(c)
	v, ok := o.next(c)
	if !ok {
		o.done, o.next = true, nil
		return false
	}
	o.items = append(vmem.Grown(o.items), v)
	return true
}

// at returns item i, pulling as needed.
func (o *iterObj) at(c value.Ctx, i int) (value.Value, bool) {
	for i >= len(o.items) {
		if !o.pull(c) {
			return value.Value{}, false
		}
	}
	return o.items[i], true
}

// newGen returns a generator whose body runs on first consumption.
func newGen(owner string, start func(c value.Ctx) puller) value.Value {
	return value.FromObject(&iterObj{typ: "generator", owner: owner, start: start})
}

// newSizedGen is newGen for a body that also says how many items it
// yields.
func newSizedGen(owner string, sized func(c value.Ctx) (puller, int)) value.Value {
	return value.FromObject(&iterObj{typ: "generator", owner: owner, sized: sized})
}

// newEagerGen returns a generator whose body makes all its items at once,
// on first consumption.
func newEagerGen(owner string, body func(c value.Ctx) []value.Value) value.Value {
	return value.FromObject(&iterObj{typ: "generator", owner: owner, eager: body})
}

// newIterator wraps items computed eagerly (reversed() is not lazy).
func newIterator(typ string, items []value.Value) value.Value {
	return value.FromObject(&iterObj{typ: typ, items: items, done: true})
}

// pullSlice yields items in order.
func pullSlice(items []value.Value) puller {
	i := 0
	return func(c value.Ctx) (value.Value, bool) {
		if i >= len(items) {
			return value.Value{}, false
		}
		i++
		return items[i-1], true
	}
}

// source draws the items of a filter's input one at a time, charging
// each: a generator input is pulled lazily, anything else is iterated.
func source(c value.Ctx, v value.Value, op string) puller {
	p, _ := sourceN(c, v, op)
	return p
}

// sourceN is source with the number of items it yields, 0 when that is
// not known before they are drawn (another generator's).
func sourceN(c value.Ctx, v value.Value, op string) (puller, int) {
	if o, ok := v.ObjectImpl().(*iterObj); ok && v.Kind() == value.Object {
		i := 0
		return func(c value.Ctx) (value.Value, bool) {
			it, ok := o.at(c, i)
			if ok {
				i++
				c.Charge(budget.Elem, op)
			}
			return it, ok
		}, 0
	}
	var items []value.Value
	if v.IsString() {
		items = strChars(c, v.Str(), op)
	} else if !v.IsUndefined() || c.Strict() {
		items = value.Iterate(c, v)
	}
	next := pullSlice(items)
	return func(c value.Ctx) (value.Value, bool) {
		it, ok := next(c)
		if ok {
			c.Charge(budget.Elem, op)
		}
		return it, ok
	}, len(items)
}

// copyArgs snapshots call arguments for a body that runs later.
func copyArgs(args *value.Args) *value.Args {
	if args == nil {
		return nil
	}
	return &value.Args{Pos: vmem.Append([]value.Value(nil), args.Pos...), Kw: vmem.Append([]value.KV(nil), args.Kw...)}
}
