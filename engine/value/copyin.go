package value

import (
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/ordered"
)

// Ceilings of the copy-in boundary.
const (
	// MaxContainerEntries bounds one copied container.
	MaxContainerEntries = 100000
	// MaxGraphEntries bounds all entries of one copied data graph.
	MaxGraphEntries = 100000
	// MaxDepth bounds nesting; a cycle through maps or slices hits it.
	MaxDepth = 256
	// MaxGraphBytes bounds the bytes of all strings (values and keys) of
	// one copied data graph, the limit data_bytes: checked before each
	// string enters the model (which counts its code points), so data
	// of any size is refused in time proportional to this ceiling, never
	// to the data (a 200 MB string took 1 GB before it was refused, M5).
	MaxGraphBytes = 64 << 20
)

// LimitDataBytes names the copy-in byte ceiling in its refusal.
const LimitDataBytes = "data_bytes"

// Surface is implemented by host types that declare a template surface;
// the copier passes them through as objects instead of refusing them.
type Surface interface {
	ObjectImpl
	// TemplateSurface marks the type as declaring its surface on purpose.
	TemplateSurface()
}

// Copier copies host data into the closed model under the ceilings.
type Copier struct {
	entries int
	bytes   int64     // string bytes copied, keys included (MaxGraphBytes)
	path    []pathSeg // reused between copies
	// keys holds the sorted keys of the maps being copied, a stack: each
	// map's keys are appended, walked and dropped (sortedKeys), so a copy
	// allocates no key list per map.
	keys []string
	// shapes holds, by length, the sorted keys of the last map of that
	// many keys copied the long way (at most smallDict: such a dict has
	// no index). A map with the same keys (the rows of a table) is copied
	// by looking its keys up in that order, with no iteration or sort,
	// and its dict shares the key array (shapedDict).
	shapes [smallDict + 1][]Value
	// orderedShapes is shapes for *OrderedMap: keys in their given order,
	// matched as a sequence (a Go map's shape is sorted and matched as a
	// set, so the two are kept apart).
	orderedShapes [smallDict + 1][]Value
	// top is the sorted names of the last top-level copy (topKeys), kept
	// across Resets: the caller's key strings, at most maxTopKeys; topKeys
	// holds them as string values (a dict's keys, in an array it never
	// writes, which a dict of up to smallDict names shares), topAt is
	// where placeTop puts a copy's values in their order, and topCopied
	// where a copy of more names puts its copies.
	top       []string
	topVals   []Value
	topAt     []any
	topCopied []Value
	// shapesSet has bit n set when shapes[n] or orderedShapes[n] is (Reset
	// clears those alone)
	shapesSet uint16
	// keptShapes and keptOrdered are the shapes of the last successful
	// top-level copy (CopyMapInto), cloned out of its storage (which an
	// Arena hands out again) into arrays of the Copier's own that nothing
	// ever writes (a dict adding a key copies its shared keys first):
	// each copy starts from them (Reset), so the maps of the renders of
	// one template on data of one shape take the shape path from the
	// first, with no sort. keptSet is shapesSet for them.
	keptShapes, keptOrdered [smallDict + 1][]Value
	keptSet                 uint16
	// arena, when set (UseArena), gives the containers their storage.
	arena *Arena
	// sawObject records that a host object crossed (SawObject).
	sawObject bool
	// marks records what was passed through inside the container being
	// copied (enterContainer, leaveContainer)
	marks copyMarks
}

// copyMarks are what a container's copy met below it that changes how
// the container is marked (copiedList, copiedDict).
type copyMarks uint8

const (
	// markImpure: a value the host made that is not data (markable):
	// the container is not marked data-only.
	markImpure copyMarks = 1 << iota
	// markUnsized: a value the host made (a container, a callable, an
	// object), whose size is the host's: the container's Size is left to
	// be walked, not set by the copy.
	markUnsized
)

// enterContainer starts the copy of a container's items: it returns the
// marks of the containers around it, for leaveContainer.
func (c *Copier) enterContainer() (outer copyMarks) {
	outer, c.marks = c.marks, 0
	return outer
}

// leaveContainer ends it: it returns the marks its items made (none for
// a container of data the copier built, at any depth) and carries them
// out to the containers around it.
func (c *Copier) leaveContainer(outer copyMarks) copyMarks {
	m := c.marks
	c.marks |= outer
	return m
}

// UseArena makes the copy take its containers' storage from a (nil: the
// heap) until the next Reset.
func (c *Copier) UseArena(a *Arena) { c.arena = a }

// SawObject reports whether the copy passed a host object (a Surface)
// through since the last Reset: its methods see the render's values, so
// an Arena that held them must not be handed out again.
func (c *Copier) SawObject() bool { return c.sawObject }

// Reset readies a Copier for a new graph, keeping its buffers.
func (c *Copier) Reset() {
	c.entries, c.bytes = 0, 0
	c.path, c.keys = c.path[:0], c.keys[:0]
	// a shape's keys are the last copy's (perhaps in an Arena handed out
	// again since): a copy starts with the kept ones alone
	for set := c.shapesSet | c.keptSet; set != 0; set &= set - 1 {
		n := bits.TrailingZeros16(set)
		c.shapes[n], c.orderedShapes[n] = c.keptShapes[n], c.keptOrdered[n]
	}
	c.shapesSet = c.keptSet
	c.arena, c.sawObject, c.marks = nil, false, 0
}

// maxKeptShapeBytes bounds the key bytes of a kept shape: a pooled
// Copier keeps no large key of its callers alive.
const maxKeptShapeBytes = 512

// keepShapes keeps the shapes of a copy that succeeded for the next
// (keptShapes): a shape that is a kept one already stays; another is
// cloned, when its keys are short.
func (c *Copier) keepShapes() {
	for set := c.shapesSet; set != 0; set &= set - 1 {
		n := bits.TrailingZeros16(set)
		plain := keepShape(&c.keptShapes[n], c.shapes[n])
		if ordered := keepShape(&c.keptOrdered[n], c.orderedShapes[n]); plain || ordered {
			c.keptSet |= 1 << n
		}
	}
}

// keepShape sets *kept to a clone of shape unless it is one already (the
// same array) or its keys are long, and reports whether *kept is set.
func keepShape(kept *[]Value, shape []Value) bool {
	if len(shape) == 0 {
		return len(*kept) > 0
	}
	if len(*kept) == len(shape) && &(*kept)[0] == &shape[0] {
		return true
	}
	size := 0
	for i := range shape {
		size += len(shape[i].s)
	}
	if size > maxKeptShapeBytes {
		return len(*kept) > 0
	}
	*kept = slices.Clone(shape)[:len(shape):len(shape)]
	return true
}

// CopyMapInto copies the top-level data of a render into d: each name in
// key order, so the first refused value is the same every time, and named
// in error paths. The names are not entries of the graph (its containers'
// items are), as a context's names are not counted. d is emptied first
// (Reset), so a caller that owns a dict nothing else refers to (a pooled
// renderer's top-level data) reuses its storage; nil makes a new one.
func (c *Copier) CopyMapInto(d *DictData, data map[string]any) (*DictData, error) {
	if err := topSize(data); err != nil {
		return nil, err
	}
	d = emptied(d, len(data))
	if vals := c.placeTop(data); vals != nil {
		var err error
		if n := len(vals); n <= smallDict && d.ix == nil {
			// the values go straight into d, under the keys made once
			// for the names, which d shares (DictData.shareKeys)
			d.shareKeys(c.topVals, n)
			err = c.copyPlaced(c.top, vals, d.vals)
		} else {
			err = c.copyPlaced(c.top, vals, c.topCopied)
			if err == nil {
				d.fillKeys(c.topVals, c.topCopied)
			}
			clearValues(c.topCopied)
		}
		return c.placed(d, vals, err)
	}
	base := len(c.keys)
	defer func() { c.keys = c.keys[:base] }()
	return c.copyTop(d, data, c.topKeys(data))
}

// topSize refuses a top-level mapping of more than MaxContainerEntries
// names: the top-level dict is a container like any other (its names are
// not graph entries, but it holds at most as many).
func topSize(data map[string]any) error {
	if len(data) > MaxContainerEntries {
		return errs.New(errs.Type, "cannot copy data: the top-level mapping has more than "+strconv.Itoa(MaxContainerEntries)+" entries")
	}
	return nil
}

// emptied returns d emptied for n entries (DictData.Reset), or a new dict
// when d is nil.
func emptied(d *DictData, n int) *DictData {
	if d == nil {
		return NewDict(n)
	}
	d.Reset(n)
	return d
}

// placed ends a top-level copy of values placed in order (copyPlaced)
// into d, err its refusal: the Copier keeps none of the caller's values,
// a refused copy leaves d empty, and a copy that succeeded keeps its
// shapes for the next.
func (c *Copier) placed(d *DictData, vals []any, err error) (*DictData, error) {
	clearAnys(vals)
	if err != nil {
		d.Reset(0)
		return nil, err
	}
	c.keepShapes()
	return d, nil
}

// copyTop copies data's names, in their order, into the empty d: the walk
// of each value, under one recovery (copyNames); a refused copy leaves d
// empty.
func (c *Copier) copyTop(d *DictData, data map[string]any, names []string) (*DictData, error) {
	return c.placed(d, nil, c.copyNames(d, data, names, nil))
}

// placeTop returns data's values in the order of the names of the last
// top-level copy when data has exactly those names (as many, each
// present), else nil: one lookup a name, where topKeys' check and then
// copyNames' read were two.
func (c *Copier) placeTop(data map[string]any) []any {
	n := len(c.top)
	if n == 0 || n != len(data) {
		return nil
	}
	vals := c.topAt[:n]
	for i, k := range c.top {
		v, ok := data[k]
		if !ok {
			clear(vals[:i])
			return nil
		}
		vals[i] = v
	}
	return vals
}

// copyPlaced is copyNames for names (the last top-level copy's, or a
// template's TopNames), their values placed in that order (placeTop,
// CopyReadInto): it copies them into out (as long as vals), the values
// of a dict with the names' keys made once (c.topVals, TopNames.keys).
func (c *Copier) copyPlaced(names []string, vals []any, out []Value) error {
	out = out[:len(names)]
	for i, k := range names {
		if !c.topValue(vals[i], &out[i]) {
			// a value for the walk, which refuses by panicking: the
			// names from here on are copied under a recovery, which
			// the values topValue takes (most of a small data's) go
			// without
			return c.walkPlaced(i, names, vals, out)
		}
		if !c.takeBytes(len(k)) {
			return c.bytesError("<root>", len(k))
		}
	}
	return nil
}

// walkPlaced is copyPlaced from the name at i on, each value walked
// (walkAt, which tries topValue first), under one recovery.
func (c *Copier) walkPlaced(i int, names []string, vals []any, out []Value) (err error) {
	defer recoverCopy(&err)
	for ; i < len(names); i++ {
		k := names[i]
		out[i] = c.walkAt(nil, k, vals[i])
		if !c.takeBytes(len(k)) {
			return c.bytesError("<root>", len(k))
		}
	}
	return nil
}

// maxTopKeys is the most top-level names a Copier remembers (topKeys).
const maxTopKeys = 64

// topKeys returns data's keys sorted (sortedKeys) and remembers them as
// the names of the last top-level copy, for placeTop to match the next
// copy's against (the renders of one template get the same names).
func (c *Copier) topKeys(data map[string]any) []string {
	keys := sortedKeys(c, data)
	c.top, c.topVals = c.top[:0], nil
	if len(keys) <= maxTopKeys {
		c.top = vmem.Append(c.top, keys...)
		// a new array, never written again: the dicts of earlier copies
		// may share the last one (DictData.shareKeys)
		//scratch:ok copy-in: the Copier's ceilings (entries, bytes, depth) count each entry before it is copied
		c.topVals = vmem.Fresh(make([]Value, len(keys)))
		for i, k := range keys {
			c.topVals[i] = FromString(k)
		}
		c.topAt = slices.Grow(c.topAt[:0], len(keys))[:len(keys)]
		c.topCopied = slices.Grow(c.topCopied[:0], len(keys))[:len(keys)]
	}
	return keys
}

// copyNames copies the names keys into d, in their order, under one
// recovery for all of them: the value of keys[i] is vals[i] when vals is
// not nil (looked up already), data's otherwise.
func (c *Copier) copyNames(d *DictData, data map[string]any, keys []string, vals []any) (err error) {
	defer recoverCopy(&err)
	for i, k := range keys {
		var x any
		if vals != nil {
			x = vals[i]
		} else {
			x = data[k]
		}
		v := c.walkAt(nil, k, x)
		if !c.takeBytes(len(k)) {
			return c.bytesError("<root>", len(k))
		}
		d.appendStr(k, v)
	}
	return nil
}

// sortedKeys pushes m's keys, sorted, on c.keys and returns them; the
// caller drops them (c.keys = c.keys[:len before]) once walked. Go maps
// have no order: copying in key order keeps the output and the first
// failing value independent of it.
func sortedKeys[V any](c *Copier, m map[string]V) []string {
	start := len(c.keys)
	c.keys = ordered.AppendKeys(c.keys, m)
	return c.keys[start:]
}

// copyIn copies JSON-shaped Go data (map[string]any, []any, strings,
// numbers, json.Number, bools, nil, and the common typed slices and maps)
// into the closed value model. Anything else (funcs, channels, structs:
// package godata converts a struct first, by reflection, outside the
// engine) is refused with an error naming the path and the Go type; so
// are cycles (they exceed the depth ceiling) and data past the entry
// ceilings.
func copyIn(x any) (Value, error) {
	var c Copier
	return c.Copy(x)
}

// Copy copies one value; entries accumulate across calls on the same Copier.
func (c *Copier) Copy(x any) (v Value, err error) { return c.copyAt(nil, "", x) }

// CopyNamed copies x, naming it name in error paths (a context key).
func (c *Copier) CopyNamed(name string, x any) (v Value, err error) { return c.copyAt(nil, name, x) }

// CopyPath copies x as the value at path of a data graph (a prepared
// context's update): error paths name it, and x nests at most as deep as
// MaxDepth leaves below it (path[0] is a context key, at depth 0).
func (c *Copier) CopyPath(path []string, x any) (v Value, err error) {
	if len(path) == 0 {
		return c.copyAt(nil, "", x)
	}
	return c.copyAt(path[:len(path)-1], path[len(path)-1], x)
}

// Join makes the Copier count into a graph that already holds entries
// (a prepared context being updated): the next copy fails, as a copy of
// the whole graph would, when the total passes MaxGraphEntries.
func (c *Copier) Join(entries int) { c.entries = entries }

// JoinBytes is Join for the graph's string bytes (MaxGraphBytes). It
// refuses a graph whose bytes are already past the ceiling (a key added
// by a path), which no later copy would see.
func (c *Copier) JoinBytes(n int64) error {
	c.bytes = 0
	if n > MaxGraphBytes {
		return c.bytesError("the path", int(min(n, 1<<40)))
	}
	c.bytes = n
	return nil
}

// Bytes returns the string bytes counted so far (the graph's, after
// JoinBytes).
func (c *Copier) Bytes() int64 { return c.bytes }

// takeBytes counts n more string bytes when they fit under the ceiling
// and reports whether they did.
func (c *Copier) takeBytes(n int) bool {
	if c.bytes+int64(n) > MaxGraphBytes {
		return false
	}
	c.bytes += int64(n)
	return true
}

// bytesError is the refusal of the byte ceiling: a budget error naming
// the limit and the amounts, never the data.
func (c *Copier) bytesError(at string, n int) *errs.Error {
	return errs.New(errs.Budget, "copying the data at "+at+" would pass the copy-in ceiling of "+strconv.Itoa(MaxGraphBytes)+
		" bytes of strings (limit "+LimitDataBytes+"): "+strconv.FormatInt(c.bytes, 10)+" copied, "+strconv.Itoa(n)+" more")
}

// countBytes counts n string bytes at path, refusing past the ceiling.
// The check is written out, not takeBytes, so that countBytes inlines (a
// string copied, a dict's key); the refusal is not.
func (c *Copier) countBytes(n int, path *[]pathSeg) {
	if c.bytes+int64(n) > MaxGraphBytes {
		c.refuseBytes(n, path)
	}
	c.bytes += int64(n)
}

// refuseBytes is countBytes' refusal.
func (c *Copier) refuseBytes(n int, path *[]pathSeg) {
	if path == nil {
		panic(errRetrace)
	}
	panic(c.bytesError(pathString(*path), n))
}

// Entries returns the entries counted so far (the graph's, after Join).
func (c *Copier) Entries() int { return c.entries }

// copyAt copies x at prefix.name (either may be empty), at the depth of
// that position.
func (c *Copier) copyAt(prefix []string, name string, x any) (v Value, err error) {
	defer recoverCopy(&err)
	return c.walkAt(prefix, name, x), nil
}

// recoverCopy turns a refusal raised by the walk into the copy's error.
func recoverCopy(err *error) {
	if r := recover(); r != nil {
		if e, ok := r.(*errs.Error); ok {
			*err = e
			return
		}
		panic(r)
	}
}

// walkAt is copyAt without the recovery: a refusal panics.
//
// A container is walked first with no path (tryCopy): pushing and
// popping a step for every key and item copied was a tenth of a copy's
// instructions, for the refusals alone to name. A refusal in that walk
// puts the Copier back as it was and walks x again, keeping the path:
// the walk is deterministic (keys in sorted order, the ceilings counted
// from the same totals), so it stops at the same value with the same
// refusal, now named. A refused copy costs its walk twice, never more.
func (c *Copier) walkAt(prefix []string, name string, x any) Value {
	if len(prefix) == 0 {
		var v Value
		if c.topValue(x, &v) {
			return v
		}
	}
	saved := c.save()
	if v, ok := c.tryCopy(x, len(prefix)); ok {
		return v
	}
	c.restore(saved)
	path := c.path[:0]
	for _, s := range prefix {
		//scratch:ok copy-in: one segment a level of a path the Copier's depth ceiling bounds
		path = append(path, pathSeg{key: s, idx: -1})
	}
	if name != "" {
		path = append(path, pathSeg{key: name, idx: -1})
	}
	c.count(0, &path)
	c.copy(x, &path, len(prefix))
	// the walk without a path was refused where this one was not: the
	// two walks differ, a bug
	c.path = path[:0]
	panic(errs.New(errs.Internal, "copy-in: the retraced walk was not refused"))
}

// topValue copies x, a top-level value, into *out when it is a scalar or
// a short list of scalars (scalarList): those need no path and no walk.
// It reports false, *out untouched, for anything else and for a string
// over the byte ceiling, which the walk then refuses, naming the path.
// copyPlaced tries it before walkAt, whose frame (the walk's state, its
// path) a scalar does not need, and it writes in place: a returned Value
// is 48 bytes copied again at every return (141 of a one-line
// condition's 4,774 instructions a render).
func (c *Copier) topValue(x any, out *Value) bool {
	if c.entries > MaxGraphEntries {
		return false
	}
	switch t := x.(type) {
	case string:
		if c.takeBytes(len(t)) {
			*out = FromString(t)
			return true
		}
		return false
	case []any:
		return c.scalarList(t, out)
	}
	if v, ok := fromScalar(x); ok {
		*out = v
		return true
	}
	return false
}

// maxScalarList is the longest list scalarList copies.
const maxScalarList = 16

// scalarList copies t, a list at the top of the data, as the walk does
// when it is short and holds only strings, ints, floats, bools and nils
// (a list of tags, of scores), without the walk's recovery, frames and
// type switch for each item, into *out: about a third of a one-line condition's
// copy-in. It reports false with the Copier as it was when t holds
// anything else or a ceiling would refuse it (tested before any storage
// is taken), and the walk copies t, naming any refusal.
func (c *Copier) scalarList(t []any, out *Value) bool {
	n := len(t)
	if n == 0 || n > maxScalarList || c.entries+n > MaxGraphEntries {
		return false
	}
	size := 0
	for _, e := range t {
		switch e := e.(type) {
		case string:
			size += len(e)
		case int, int64, float64, bool, nil:
		default:
			return false
		}
	}
	if !c.takeBytes(size) {
		return false
	}
	c.entries += n
	ld, items := c.arena.listWith(n)
	for i, e := range t {
		if s, ok := e.(string); ok {
			items[i] = FromString(s)
		} else {
			items[i], _ = fromScalar(e) // a scalar, as the pass above found
		}
	}
	// copiedList with its sum already made: 8 a slot and a string's
	// bytes (TestScalarListAsWalk holds it to the walk's)
	ld.Items, ld.dataOnly, ld.size = items, true, int64(n)*8+int64(size)+1
	*out = Value{k: List, ref: ld}
	return true
}

// fromScalar is the value of x when it is a bool, an int, an int64, a
// float64 or nil, the scalars other than strings that walkAt and
// scalarList copy without the walk (a string's bytes are counted first).
func fromScalar(x any) (Value, bool) {
	switch t := x.(type) {
	case bool:
		return FromBool(t), true
	case int:
		return FromInt(int64(t)), true
	case int64:
		return FromInt(t), true
	case float64:
		return FromFloat(t), true
	case nil:
		return NoneValue, true
	}
	return Value{}, false
}

// errRetrace is the refusal of a walk without a path (tryCopy): walkAt
// retraces the walk to name the refused value.
var errRetrace = new(int)

// tryCopy copies x at depth keeping no path, or reports false when the
// copy was refused.
func (c *Copier) tryCopy(x any, depth int) (v Value, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if r != errRetrace {
				panic(r)
			}
			ok = false
		}
	}()
	c.count(0, nil)
	return c.copy(x, nil, depth), true
}

// copierState is what a walk changes in a Copier beyond the storage it
// takes (save, restore).
type copierState struct {
	entries int
	bytes   int64
	keys    int
	marks   copyMarks
}

func (c *Copier) save() copierState {
	return copierState{c.entries, c.bytes, len(c.keys), c.marks}
}

// restore puts back what a refused walk changed, for its retrace: the
// counts it made and the key lists it left on the stack.
func (c *Copier) restore(s copierState) {
	c.entries, c.bytes, c.keys, c.marks = s.entries, s.bytes, c.keys[:s.keys], s.marks
}

// pathSeg is one step of the path being copied; it is formatted only when
// an error names it, so copying allocates nothing for it.
type pathSeg struct {
	key string
	idx int // -1 for a key
}

func pathString(path []pathSeg) string {
	if len(path) == 0 {
		return "<root>"
	}
	var sb strings.Builder
	for i, p := range path {
		if p.idx >= 0 {
			sb.WriteString("[" + strconv.Itoa(p.idx) + "]")
			continue
		}
		if i > 0 {
			sb.WriteByte('.')
		}
		sb.WriteString(p.key)
	}
	return errs.Bound(sb.String())
}

// fail refuses the value at path; in a walk without a path (nil), it
// ends the walk for walkAt to retrace.
func (c *Copier) fail(path *[]pathSeg, msg string) {
	if path == nil {
		panic(errRetrace)
	}
	panic(errs.New(errs.Type, "cannot copy data at "+pathString(*path)+": "+msg))
}

// count counts a container's n entries at path, refusing past the
// ceilings. The check is inline; the refusal is not.
func (c *Copier) count(n int, path *[]pathSeg) {
	if n > MaxContainerEntries || c.entries+n > MaxGraphEntries {
		c.refuseCount(n, path)
	}
	c.entries += n
}

// refuseCount is count's refusal.
func (c *Copier) refuseCount(n int, path *[]pathSeg) {
	if n > MaxContainerEntries {
		c.fail(path, "container has more than "+strconv.Itoa(MaxContainerEntries)+" entries")
	}
	c.entries += n
	c.fail(path, "data has more than "+strconv.Itoa(MaxGraphEntries)+" entries")
}

func (c *Copier) copy(x any, path *[]pathSeg, depth int) Value {
	if depth > MaxDepth {
		c.fail(path, "nested deeper than "+strconv.Itoa(MaxDepth)+" levels (or cyclic)")
	}
	// Concrete types first: the interface case (Surface) is a method-set
	// check, paid by every value that reaches it; no type listed above it
	// has methods, so the order changes no outcome.
	switch t := x.(type) {
	case nil:
		return NoneValue
	case string:
		c.countBytes(len(t), path)
		return FromString(t)
	case bool:
		return FromBool(t)
	case int:
		return FromInt(int64(t))
	case int8:
		return FromInt(int64(t))
	case int16:
		return FromInt(int64(t))
	case int32:
		return FromInt(int64(t))
	case int64:
		return FromInt(t)
	case uint8:
		return FromInt(int64(t))
	case uint16:
		return FromInt(int64(t))
	case uint32:
		return FromInt(int64(t))
	case uint:
		if uint64(t) > math.MaxInt64 {
			c.fail(path, "integer wider than 64 bits")
		}
		return FromInt(int64(t))
	case uint64:
		if t > math.MaxInt64 {
			c.fail(path, "integer wider than 64 bits")
		}
		return FromInt(int64(t))
	case float32:
		return FromFloat(float64(t))
	case float64:
		return FromFloat(t)
	case json.Number:
		if !strings.ContainsAny(string(t), ".eE") {
			i, err := strconv.ParseInt(string(t), 10, 64)
			if err != nil {
				c.fail(path, "integer wider than 64 bits")
			}
			return FromInt(i)
		}
		f, ok := strutil.ParseFloat(string(t))
		if !ok {
			c.fail(path, "bad number")
		}
		return FromFloat(f)
	case []any:
		c.count(len(t), path)
		ld, items := c.arena.listWith(len(t))
		outer := c.enterContainer()
		for i, e := range t {
			items[i] = c.copyAtIndex(i, e, path, depth)
		}
		return copiedList(ld, items, c.leaveContainer(outer))
	case []string:
		c.count(len(t), path)
		ld, items := c.arena.listWith(len(t))
		for i, e := range t {
			c.countBytes(len(e), path)
			items[i] = FromString(e)
		}
		return copiedList(ld, items, 0)
	case []int:
		c.count(len(t), path)
		ld, items := c.arena.listWith(len(t))
		for i, e := range t {
			items[i] = FromInt(int64(e))
		}
		return copiedList(ld, items, 0)
	case []float64:
		c.count(len(t), path)
		ld, items := c.arena.listWith(len(t))
		for i, e := range t {
			items[i] = FromFloat(e)
		}
		return copiedList(ld, items, 0)
	case []map[string]any:
		c.count(len(t), path)
		ld, items := c.arena.listWith(len(t))
		outer := c.enterContainer()
		for i, e := range t {
			items[i] = c.copyAtIndex(i, e, path, depth)
		}
		return copiedList(ld, items, c.leaveContainer(outer))
	case map[string]any:
		c.count(len(t), path)
		outer := c.enterContainer()
		if d := c.copyShaped(t, path, depth); d != nil {
			return copiedDict(d, c.leaveContainer(outer))
		}
		d := c.arena.newDict(len(t))
		// Go maps have no order: copy in key order, so the output and the
		// first failing value never depend on it.
		base := len(c.keys)
		for _, k := range sortedKeys(c, t) {
			c.countBytes(len(k), path) // at the dict: the key is not named
			d.appendStr(k, c.copyAtKey(k, t[k], path, depth))
		}
		c.keys = c.keys[:base]
		if n := len(t); n > 1 && n <= smallDict {
			// full: a dict that adds a key to shared keys copies them
			c.shapes[n] = d.keys[:n:n]
			c.shapesSet |= 1 << n
		}
		return copiedDict(d, c.leaveContainer(outer))
	case map[string]string:
		c.count(len(t), path)
		d := c.arena.newDict(len(t))
		base := len(c.keys)
		for _, k := range sortedKeys(c, t) {
			c.countBytes(len(k)+len(t[k]), path)
			d.appendStr(k, FromString(t[k]))
		}
		c.keys = c.keys[:base]
		return copiedDict(d, 0)
	case *OrderedMap:
		c.count(len(t.Keys), path)
		n := len(t.Keys)
		outer := c.enterContainer()
		if keys := c.orderedShape(t); keys != nil {
			d := c.arena.shapedDict(keys)
			for i, k := range t.Keys {
				c.countBytes(len(k), path)
				//scratch:ok copy-in: the Copier's ceilings (entries, bytes, depth) count each entry before it is copied
				d.vals = append(d.vals, c.copyAtKey(k, t.Values[i], path, depth))
			}
			return copiedDict(d, c.leaveContainer(outer))
		}
		d := c.arena.newDict(n)
		for i, k := range t.Keys {
			c.countBytes(len(k), path)
			d.SetStr(k, c.copyAtKey(k, t.Values[i], path, depth))
		}
		if n > 1 && n <= smallDict && d.Len() == n {
			// no key repeated: a map with these keys in this order makes
			// the same dict
			c.orderedShapes[n] = d.keys[:n:n]
			c.shapesSet |= 1 << n
		}
		return copiedDict(d, c.leaveContainer(outer))
	case Value:
		if t.k > String {
			// a container or a callable the host made: it may hold
			// host code, which would see the render's values
			c.sawObject = true
			c.marks |= markUnsized
		}
		if !markable(t) {
			c.marks |= markImpure
		}
		return t
	case Surface:
		c.sawObject = true
		c.marks |= markUnsized
		v := FromObject(t)
		if !markable(v) {
			c.marks |= markImpure
		}
		return v
	}
	c.fail(path, "values of Go type "+goType(x)+" are not data here: convert structs, pointers and typed maps and slices with godata.Convert first (only JSON-shaped values and declared surfaces cross the boundary)")
	return Value{}
}

// goType names x's Go type in a refusal (fmt's %T: the engine itself
// never reflects).
func goType(x any) string { return fmt.Sprintf("%T", x) }

// copyAtKey copies x, the value at key k of the container being copied
// at depth, with k on the path its refusals name (none in a walk
// without a path).
func (c *Copier) copyAtKey(k string, x any, path *[]pathSeg, depth int) Value {
	return c.copyStep(pathSeg{key: k, idx: -1}, x, path, depth)
}

// copyAtIndex is copyAtKey for item i of a list.
func (c *Copier) copyAtIndex(i int, x any, path *[]pathSeg, depth int) Value {
	return c.copyStep(pathSeg{idx: i}, x, path, depth)
}

// copyStep copies x one step below the container being copied at depth,
// the step seg on the path (when there is one). A string, most of the
// values of a graph, is copied here as copy's string case copies it,
// without copy's frame: a Value result passes through memory, not
// registers, and copy's is a large frame.
func (c *Copier) copyStep(seg pathSeg, x any, path *[]pathSeg, depth int) Value {
	if path == nil {
		if t, ok := x.(string); ok && depth < MaxDepth {
			c.countBytes(len(t), nil) // a refusal retraces, as copy's would
			return FromString(t)
		}
		return c.copy(x, nil, depth+1)
	}
	*path = append(*path, seg)
	v := c.copy(x, path, depth+1)
	*path = (*path)[:len(*path)-1]
	return v
}

// copyShaped copies m as copy does when it has the keys of the last map
// of its length copied the long way (c.shapes), and returns nil, with
// nothing done, when it has not. The keys are the same set (as many,
// each present), so that sorted order is m's: the walk, its ceilings and
// its refusals are copy's, key by key, without iterating or sorting m.
func (c *Copier) copyShaped(m map[string]any, path *[]pathSeg, depth int) *DictData {
	n := len(m)
	if n > smallDict {
		return nil
	}
	keys := c.shapes[n]
	if keys == nil {
		return nil
	}
	var vals [smallDict]any
	for i := range keys {
		v, ok := m[keys[i].s]
		if !ok {
			return nil
		}
		vals[i] = v
	}
	d := c.arena.shapedDict(keys)
	for i := range keys {
		k := keys[i].s
		c.countBytes(len(k), path) // at the dict: the key is not named
		//scratch:ok copy-in: the Copier's ceilings (entries, bytes, depth) count each entry before it is copied
		d.vals = append(d.vals, c.copyAtKey(k, vals[i], path, depth))
	}
	return d
}

// orderedShape returns the keys of the last ordered map of m's length
// copied the long way when m has those keys in that order, else nil.
func (c *Copier) orderedShape(m *OrderedMap) []Value {
	n := len(m.Keys)
	if n > smallDict || len(m.Values) < n {
		return nil
	}
	keys := c.orderedShapes[n]
	if keys == nil {
		return nil
	}
	for i, k := range m.Keys {
		if keys[i].s != k {
			return nil
		}
	}
	return keys
}

// OrderedMap is a host map that keeps its key order (Go maps have none;
// plain map[string]any is copied in sorted key order for determinism).
type OrderedMap struct {
	Keys   []string
	Values []any
}
