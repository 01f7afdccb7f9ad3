package value

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/engine/internal/errs"
)

// A map with the keys of the last map of its length copied shares that
// map's key array (the shape path), and gives the dict the long path
// gives: the same entries in sorted key order.
func TestCopyShapedRows(t *testing.T) {
	rows := []any{
		map[string]any{"b": 1, "a": "x"},
		map[string]any{"a": "y", "b": 2},
		map[string]any{"a": 3, "c": 4}, // same length, other keys
		map[string]any{"c": 5, "a": 6}, // the shape is now {a, c}
		map[string]any{"a": 7, "b": 8}, // and {a, b} again the long way
		map[string]any{"a": 9, "b": 10, "c": 11},
	}
	v, err := copyIn(rows)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]*DictData, len(rows))
	for i, it := range v.Items() {
		got[i] = it.DictData()
		var want Copier // one map alone: always the long path
		w, err := want.Copy(rows[i])
		if err != nil {
			t.Fatal(err)
		}
		if Repr(it) != Repr(w) {
			t.Errorf("row %d: %s, want %s", i, Repr(it), Repr(w))
		}
	}
	shared := func(a, b *DictData) bool { return &a.keys[0] == &b.keys[0] }
	for _, c := range []struct {
		i, j int
		want bool
	}{{0, 1, true}, {1, 2, false}, {2, 3, true}, {1, 4, false}, {4, 5, false}} {
		if shared(got[c.i], got[c.j]) != c.want {
			t.Errorf("rows %d and %d share keys: %v, want %v", c.i, c.j, !c.want, c.want)
		}
	}
	// a key added to a dict that shares its keys goes into a copy of
	// them: the other dict is unchanged
	got[1].SetStr("z", FromInt(1))
	if got[0].Len() != 2 || Repr(FromDict(got[0])) != "{'a': 'x', 'b': 1}" {
		t.Errorf("row 0 after a key was added to row 1: %s", Repr(FromDict(got[0])))
	}
	if Repr(FromDict(got[1])) != "{'a': 'y', 'b': 2, 'z': 1}" {
		t.Errorf("row 1: %s", Repr(FromDict(got[1])))
	}
}

// A refusal on the shape path names the path the long path names.
func TestCopyShapedRefusalPath(t *testing.T) {
	rows := []any{
		map[string]any{"a": 1, "b": 2},
		map[string]any{"b": []any{1, func() {}}, "a": 1},
	}
	_, err := copyIn(map[string]any{"rows": rows})
	if err == nil || !strings.Contains(err.Error(), "cannot copy data at rows[1].b[1]") {
		t.Fatalf("err = %v", err)
	}
}

// Ordered maps share keys only with the same keys in the same order, and
// a map that repeats a key records no shape.
func TestCopyShapedOrdered(t *testing.T) {
	om := func(kv ...any) *OrderedMap {
		m := &OrderedMap{}
		for i := 0; i < len(kv); i += 2 {
			m.Keys = append(m.Keys, kv[i].(string))
			m.Values = append(m.Values, kv[i+1])
		}
		return m
	}
	rows := []any{
		om("b", 1, "a", 2),
		om("b", 3, "a", 4),
		om("a", 5, "b", 6), // same set, other order
		om("x", 1, "x", 2), // repeats x: one entry, no shape recorded
		om("x", 3, "x", 4),
		map[string]any{"b": 7, "a": 8}, // a Go map: its own (sorted) shapes
	}
	v, err := copyIn(rows)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"{'b': 1, 'a': 2}", "{'b': 3, 'a': 4}", "{'a': 5, 'b': 6}", "{'x': 2}", "{'x': 4}", "{'a': 8, 'b': 7}"}
	items := v.Items()
	for i, it := range items {
		if got := Repr(it); got != want[i] {
			t.Errorf("row %d: %s, want %s", i, got, want[i])
		}
	}
	d := func(i int) *DictData { return items[i].DictData() }
	if &d(0).keys[0] != &d(1).keys[0] {
		t.Error("rows 0 and 1 (same keys, same order) do not share keys")
	}
	if &d(1).keys[0] == &d(2).keys[0] || &d(3).keys[0] == &d(4).keys[0] || &d(2).keys[0] == &d(5).keys[0] {
		t.Error("keys shared across a different order, a repeated key or a Go map")
	}
}

// GetStrAt trusts its guess only when the key there is the name: any
// other guess (out of range, another key, a non-string key) gives the
// lookup's answer and the right index.
func TestGetStrAt(t *testing.T) {
	d := NewDict(3)
	d.SetStr("a", FromInt(1))
	d.Set(FromInt(7), FromInt(2)) // a non-string key at index 1
	d.SetStr("b", FromInt(3))
	for _, c := range []struct {
		name         string
		guess, wantI int
		want         int64
	}{
		{"a", 0, 0, 1}, {"a", 2, 0, 1}, {"b", 2, 2, 3}, {"b", 0, 2, 3},
		{"b", -1, 2, 3}, {"b", 99, 2, 3}, {"7", 1, -1, 0}, {"z", 0, -1, 0},
	} {
		v, i, ok := d.GetStrAt(c.name, c.guess)
		if i != c.wantI || ok != (c.wantI >= 0) || (ok && v.Int() != c.want) {
			t.Errorf("GetStrAt(%q, %d) = %v, %d, %v; want index %d", c.name, c.guess, v, i, ok, c.wantI)
		}
	}
	if _, i, ok := (*DictData)(nil).GetStrAt("a", 0); ok || i != -1 {
		t.Error("GetStrAt on a nil dict found something")
	}
}

// A Copier reuses the sorted top-level names of its last copy only for
// data with exactly those names: each copy's names are in sorted order.
func TestCopyTopKeys(t *testing.T) {
	var c Copier
	for _, x := range []struct {
		data map[string]any
		want string
	}{
		{map[string]any{"b": 1, "a": 2}, "{'a': 2, 'b': 1}"},
		{map[string]any{"a": 3, "b": 4}, "{'a': 3, 'b': 4}"},
		{map[string]any{"c": 1, "a": 2}, "{'a': 2, 'c': 1}"},
		{map[string]any{"c": 1, "a": 2, "b": 3}, "{'a': 2, 'b': 3, 'c': 1}"},
		{map[string]any{}, "{}"},
		{map[string]any{"b": 5, "c": 6, "a": 7}, "{'a': 7, 'b': 5, 'c': 6}"},
	} {
		c.Reset()
		d, err := c.CopyMapInto(nil, x.data)
		if err != nil {
			t.Fatal(err)
		}
		if got := Repr(FromDict(d)); got != x.want {
			t.Errorf("copy of %v: %s, want %s", x.data, got, x.want)
		}
	}
}

// A Copier warm with the last copy's names (placeTop, copyPlaced) copies
// any data as a fresh one does: the same dict, the same refusal (the
// first bad value in name order), past maxPlacedKeys and back.
func TestCopyTopKeysWarmAsFresh(t *testing.T) {
	nine := map[string]any{}
	for i := range 9 {
		nine[string(rune('a'+i))] = i
	}
	var warm Copier
	var into *DictData // one dict's storage, as a pooled renderer's root data
	for _, data := range []map[string]any{
		{"x": "a", "y": []any{"b", 1}, "z": 2.5},
		{"x": "c", "y": []any{}, "z": nil},
		{"z": func() {}, "x": "d", "y": make(chan int)}, // refused: y's is named, x's is fine
		{"x": "e", "y": 1, "w": 3},
		nine,
		nine,
		{"x": "a", "y": []any{"b", 1}, "z": 2.5},
		{"x": strings.Repeat("é", 3), "y": map[string]any{"k": 1}, "z": true},
		{"x": 1, "y": 2, "z": 3}, // the index the nine names made is kept, and used
	} {
		warm.Reset()
		d, err := warm.CopyMapInto(into, data)
		if d != nil {
			into = d
			for i := range d.Len() {
				if v, ok := d.Get(d.KeyAt(i)); !ok || Repr(v) != Repr(d.ValAt(i)) {
					t.Fatalf("copy of %v: key %s not found by its lookup", data, Repr(d.KeyAt(i)))
				}
			}
		}
		var fresh Copier
		fd, ferr := fresh.CopyMapInto(nil, data)
		if (err == nil) != (ferr == nil) || (err != nil && err.Error() != ferr.Error()) {
			t.Fatalf("copy of %v: warm %v, fresh %v", data, err, ferr)
		}
		if err == nil && Repr(FromDict(d)) != Repr(FromDict(fd)) {
			t.Fatalf("copy of %v: warm %s, fresh %s", data, Repr(FromDict(d)), Repr(FromDict(fd)))
		}
		if err == nil {
			for i := range d.Len() {
				if d.KeyAt(i).n != fd.KeyAt(i).n || d.ValAt(i).n != fd.ValAt(i).n {
					t.Fatalf("copy of %v: entry %d counted differently", data, i)
				}
			}
		}
	}
}

// TestCopyMapIntoSharedNames holds the sharing of the names' keys
// between the top-level dicts of a Copier's copies (DictData.shareKeys):
// a dict that adds a key, or is reset and refilled, never writes the
// shared array, so no other copy's keys change.
func TestCopyMapIntoSharedNames(t *testing.T) {
	var c Copier
	if _, err := c.CopyMapInto(nil, map[string]any{"x": 0, "y": 0}); err != nil { // learns the names
		t.Fatal(err)
	}
	c.Reset()
	a, err := c.CopyMapInto(nil, map[string]any{"x": 1, "y": 2})
	if err != nil {
		t.Fatal(err)
	}
	c.Reset()
	b, err := c.CopyMapInto(nil, map[string]any{"x": 3, "y": 4})
	if err != nil {
		t.Fatal(err)
	}
	if !b.sharedKeys || &a.keys[0] != &b.keys[0] {
		t.Fatalf("the second copy did not share the names' keys")
	}
	a.SetStr("z", FromInt(5))
	a.Reset(2)
	a.SetStr("q", FromInt(6))
	a.SetStr("r", FromInt(7))
	if got := Repr(FromDict(b)); got != "{'x': 3, 'y': 4}" {
		t.Fatalf("b = %s after a changed", got)
	}
	if got := Repr(FromDict(a)); got != "{'q': 6, 'r': 7}" {
		t.Fatalf("a = %s", got)
	}
	c.Reset()
	d, err := c.CopyMapInto(a, map[string]any{"x": 8, "y": 9})
	if err != nil {
		t.Fatal(err)
	}
	if got := Repr(FromDict(d)); got != "{'x': 8, 'y': 9}" {
		t.Fatalf("third copy = %s", got)
	}
	if got := Repr(FromDict(b)); got != "{'x': 3, 'y': 4}" {
		t.Fatalf("b = %s after a third copy", got)
	}
}

// testSurface is a host object with a declared surface.
type testSurface struct{}

func (testSurface) TypeName() string               { return "thing" }
func (testSurface) Attr(Ctx, string) (Value, bool) { return Value{}, false }
func (testSurface) TemplateSurface()               {}
func (testSurface) CallName() string               { return "thing" }
func (testSurface) Call(Ctx, *Args) Value          { return NoneValue }

// testFn is a host callable.
type testFn struct{}

func (testFn) CallName() string      { return "fn" }
func (testFn) Call(Ctx, *Args) Value { return NoneValue }

// TestCopiedMarksAsCheckData holds that the copier marks every container
// it builds data-only exactly when each of its items is markable (what
// checkData would mark): the copier's mark is carried by
// enterContainer/leaveContainer, not read off the items again.
func TestCopiedMarksAsCheckData(t *testing.T) {
	marked := NewList([]Value{FromInt(1)})
	marked.ref.(*ListData).dataOnly = true
	unmarked := NewList([]Value{FromInt(1)}) // data, but not marked yet
	fn := FromCallable(testFn{})
	// refSize is Size by its rule, walked whole, no cache read
	var refSize func(v Value) int64
	refSize = func(v Value) int64 {
		switch v.k {
		case String:
			return int64(len(v.s))
		case List, Tuple:
			n := int64(len(v.Items())) * 8
			for _, it := range v.Items() {
				if it.k == List || it.k == Tuple || it.k == Dict || it.k == String || it.k == Object {
					n += refSize(it)
				}
			}
			return n
		case Dict:
			d := v.DictData()
			n := int64(d.Len()) * 16
			for i := range d.keys {
				n += refSize(d.keys[i]) + refSize(d.vals[i])
			}
			return n
		}
		return 8
	}
	var check func(v Value) bool // reports markable(v), asserting each container's mark and size
	check = func(v Value) bool {
		var size int64
		switch v.k {
		case List, Tuple:
			size = v.ref.(*ListData).size
		case Dict:
			size = v.DictData().size
		}
		if size > 0 && size-1 != refSize(v) {
			t.Errorf("%s: size %d set, its walk says %d", Repr(v), size-1, refSize(v))
		}
		switch v.k {
		case List, Tuple:
			want := true
			for _, it := range v.Items() {
				want = check(it) && want
			}
			if got := v.ref.(*ListData).dataOnly; got != want && v.ref != marked.ref && v.ref != unmarked.ref {
				t.Errorf("list %s marked %v, its items say %v", Repr(v), got, want)
			}
		case Dict:
			d := v.DictData()
			want := true
			for i := range d.vals {
				want = check(d.vals[i]) && want
			}
			if d.dataOnly != want {
				t.Errorf("dict %s marked %v, its items say %v", Repr(v), d.dataOnly, want)
			}
		}
		return markable(v)
	}
	for _, data := range []any{
		map[string]any{"a": []any{1, "x", []any{2}}, "b": map[string]any{"c": 1}},
		map[string]any{"a": []any{1, fn}, "b": map[string]any{"c": []any{marked}}, "d": []any{unmarked}},
		map[string]any{"a": []any{[]any{[]any{testSurface{}}}, 1}, "b": []any{"ok"}},
		[]map[string]any{{"k": 1, "v": fn}, {"k": 2, "v": 3}, {"k": 4, "v": marked}},
		&OrderedMap{Keys: []string{"z", "a"}, Values: []any{[]any{fn}, map[string]string{"s": "t"}}},
		[]any{&OrderedMap{Keys: []string{"z", "a"}, Values: []any{1, 2}}, &OrderedMap{Keys: []string{"z", "a"}, Values: []any{unmarked, 2}}},
	} {
		var c Copier
		v, err := c.Copy(data)
		if err != nil {
			t.Fatal(err)
		}
		check(v)
		if c.SawObject() {
			continue
		}
		// data alone: every container's size is set by the copy
		if v.k == List && v.ref.(*ListData).size == 0 || v.k == Dict && v.DictData().size == 0 {
			t.Errorf("copy of %v: no size set", data)
		}
	}
	for _, data := range []any{
		map[string]any{"a": []any{1, "xy", []any{2, 2.5, nil, true}}, "b": map[string]any{"c": 1, "d": "é"}},
		[]map[string]any{{"k": 1, "v": "w"}, {"k": 2, "v": []string{"a", "bc"}}},
		map[string]any{"s": map[string]string{"k": "vv"}, "i": []int{1, 2}, "f": []float64{1}},
	} {
		var c Copier
		v, err := c.Copy(data)
		if err != nil || c.SawObject() {
			t.Fatal(err)
		}
		check(v)
		if got := Size(v, math.MaxInt64); got != refSize(v) || (v.k == Dict && v.DictData().size == 0) {
			t.Errorf("copy of %v: Size %d, walk %d", data, got, refSize(v))
		}
	}
}

// A refused copy names the refused value's path, whichever walk found it:
// the walk without a path (walkAt) is retraced to name it, from the
// Copier's totals as they were, so the message is the one the walk that
// keeps the path gives (the messages below are the ones the copier gave
// when every walk kept it), on a fresh Copier and on one whose names and
// shapes are warm from the same data.
func TestCopyRefusalNamesPath(t *testing.T) {
	cyc := []any{nil}
	cyc[0] = cyc
	row := func(a, b any) map[string]any { return map[string]any{"a": a, "b": b} }
	notData := ": values of Go type func() are not data here: convert structs, pointers and typed maps and slices with godata.Convert first (only JSON-shaped values and declared surfaces cross the boundary)"
	for _, tc := range []struct {
		name string
		data map[string]any
		want string
	}{
		{"func-nested", map[string]any{"user": map[string]any{"items": []any{1, "x", func() {}}}, "z": 1},
			"type error: cannot copy data at user.items[2]" + notData},
		{"cycle", map[string]any{"a": 1, "c": cyc},
			errs.New(errs.Type, "cannot copy data at "+errs.Bound("c"+strings.Repeat("[0]", MaxDepth+1))+": nested deeper than 256 levels (or cyclic)").Error()},
		{"container", map[string]any{"big": map[string]any{"l": make([]int, MaxContainerEntries+1)}},
			"type error: cannot copy data at big.l: container has more than 100000 entries"},
		{"graph", map[string]any{"a": make([]any, 60000), "b": []any{[]any{1}, make([]any, 60000)}},
			"type error: cannot copy data at b[1]: data has more than 100000 entries"},
		{"bytes", map[string]any{"a": strings.Repeat("x", 40<<20), "b": []any{"y", row("z", strings.Repeat("w", 30<<20))}},
			"budget error: copying the data at b[1].b would pass the copy-in ceiling of 67108864 bytes of strings (limit data_bytes): 41943045 copied, 31457280 more"},
		{"bytes-top-list", map[string]any{"a": strings.Repeat("x", 40<<20), "b": []any{"y", strings.Repeat("w", 30<<20)}},
			"budget error: copying the data at b[1] would pass the copy-in ceiling of 67108864 bytes of strings (limit data_bytes): 41943042 copied, 31457280 more"},
		{"func-top-list", map[string]any{"l": []any{"x", func() {}}},
			"type error: cannot copy data at l[1]" + notData},
		{"uint-shaped", map[string]any{"rows": []any{row(1, 2), row(3, uint64(1)<<63)}},
			"type error: cannot copy data at rows[1].b: integer wider than 64 bits"},
		{"number-ordered", map[string]any{"o": &OrderedMap{Keys: []string{"k", "n"}, Values: []any{1, json.Number("1e")}}},
			"type error: cannot copy data at o.n: bad number"},
		{"int-number", map[string]any{"m": []map[string]any{{"n": json.Number("99999999999999999999")}}},
			"type error: cannot copy data at m[0].n: integer wider than 64 bits"},
	} {
		var c Copier
		for round := range 2 {
			c.Reset()
			_, err := c.CopyMapInto(nil, tc.data)
			if err == nil || err.Error() != tc.want {
				t.Errorf("%s, copy %d: err = %.300v\nwant %.300s", tc.name, round+1, err, tc.want)
			}
		}
		// the refused copy leaves nothing behind: the Copier copies the
		// next data as a new one does
		c.Reset()
		d, err := c.CopyMapInto(nil, map[string]any{"ok": []any{"a", 1}})
		if err != nil || Repr(FromDict(d)) != "{'ok': ['a', 1]}" || c.Entries() != 2 || c.Bytes() != 3 {
			t.Errorf("%s: the next copy gave %v, %v (entries %d, bytes %d)", tc.name, d, err, c.Entries(), c.Bytes())
		}
	}
}

// The shapes a Copier keeps from one copy to the next (keptShapes) are
// its own arrays, outside the Arena: after the Arena is handed out again
// a later copy through it still gives the dicts a fresh Copier gives; a
// dict sharing a kept shape that adds a key leaves the shape alone; and
// a shape with long keys is not kept.
func TestCopyKeptShapes(t *testing.T) {
	om := &OrderedMap{Keys: []string{"z", "y"}, Values: []any{1, 2}}
	data := func(i int) map[string]any {
		return map[string]any{
			"rows": []any{map[string]any{"a": i, "b": "x"}, map[string]any{"b": "y", "a": i + 1}},
			"o":    om,
			"long": map[string]any{strings.Repeat("k", 600): 1, "j": 2, "i": 3},
		}
	}
	var a Arena
	var c Copier
	for i := range 4 {
		a.Reset() // the last copy's storage is handed out again, cleared
		if i > 0 && (len(c.keptShapes[2]) != 2 || c.keptShapes[2][0].s != "a" || c.keptOrdered[2][0].s != "z") {
			t.Fatalf("copy %d: the kept shapes were cleared with the Arena: %v, %v", i, c.keptShapes[2], c.keptOrdered[2])
		}
		c.Reset()
		c.UseArena(&a)
		got, err := c.CopyMapInto(nil, data(i))
		if err != nil {
			t.Fatal(err)
		}
		var fresh Copier
		want, _ := fresh.CopyMapInto(nil, data(i))
		if Repr(FromDict(got)) != Repr(FromDict(want)) {
			t.Fatalf("copy %d: %s, want %s", i, Repr(FromDict(got)), Repr(FromDict(want)))
		}
		row := got.vals[slices.IndexFunc(got.keys, func(k Value) bool { return k.s == "rows" })].Items()[0].DictData()
		if i > 0 && &row.keys[0] != &c.keptShapes[2][0] {
			t.Errorf("copy %d: a row does not share the kept shape", i)
		}
		row.SetStr("c", FromInt(3)) // copies the shared keys first
		if len(c.keptShapes[2]) != 2 || cap(c.keptShapes[2]) != 2 || c.keptShapes[2][0].s != "a" || c.keptShapes[2][1].s != "b" {
			t.Fatalf("copy %d: the kept shape is %v", i, c.keptShapes[2])
		}
		if len(c.keptOrdered[2]) != 2 || c.keptOrdered[2][0].s != "z" {
			t.Fatalf("copy %d: the kept ordered shape is %v", i, c.keptOrdered[2])
		}
	}
	if c.keptShapes[3] != nil || c.keptSet&(1<<3) != 0 {
		t.Errorf("a shape with long keys was kept: %v", c.keptShapes[3])
	}
}

// A short list of scalars at the top of the data (scalarList) copies to
// what the walk makes of the same list one level down: the same items,
// size and marks, the same entries and bytes counted; a list it does not
// take (too long, holding a container, empty) is the walk's.
func TestScalarListAsWalk(t *testing.T) {
	long := make([]any, maxScalarList+1)
	for i := range long {
		long[i] = i
	}
	for _, list := range [][]any{
		{"billing", "urgent", "eu"},
		{1, int64(-2), 2.5, true, nil, "é"},
		{"a", map[string]any{"k": 1}},
		{"a", []any{"b"}},
		long,
		{},
	} {
		var top, walk Copier
		d, err := top.CopyMapInto(nil, map[string]any{"l": list})
		if err != nil {
			t.Fatal(err)
		}
		w, err := walk.Copy(map[string]any{"x": map[string]any{"l": list}})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := d.GetStr("l")
		want, _ := w.DictData().vals[0].DictData().GetStr("l")
		gl, wl := got.ref.(*ListData), want.ref.(*ListData)
		if Repr(got) != Repr(want) || gl.size != wl.size || gl.dataOnly != wl.dataOnly {
			t.Errorf("%s: %s size %d data-only %v, want %s size %d data-only %v",
				Repr(want), Repr(got), gl.size, gl.dataOnly, Repr(want), wl.size, wl.dataOnly)
		}
		// the walk counted its two maps' entries and its key "x" as well
		if top.Entries() != walk.Entries()-2 || top.Bytes() != walk.Bytes()-1 {
			t.Errorf("%s: entries %d bytes %d, want %d and %d", Repr(want), top.Entries(), top.Bytes(), walk.Entries()-2, walk.Bytes()-1)
		}
	}
}

// A top-level scalar copied in place (topValue, from the first copy and
// from a warm Copier's placed one) is the value the walk makes of it
// nested one level down, with the same counts: the kind, the bits, a
// string's code-point count.
func TestTopValueAsWalk(t *testing.T) {
	for _, x := range []any{"", "urgent", strings.Repeat("é", 9), 2.5, 0.0, 3, int64(-7), true, false, nil} {
		var top, walk Copier
		data := map[string]any{"v": x}
		var d *DictData
		for i := 0; i < 2; i++ { // the second copy is placeTop's and copyPlaced's
			top.Reset()
			var err error
			if d, err = top.CopyMapInto(d, data); err != nil {
				t.Fatal(err)
			}
		}
		w, err := walk.Copy(map[string]any{"x": data})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := d.GetStr("v")
		want, _ := w.DictData().vals[0].DictData().GetStr("v")
		if got != want {
			t.Errorf("%#v: copied as %#v, the walk gives %#v", x, got, want)
		}
		// the walk counted its two maps' entries and its key "x" as well
		if top.Entries() != walk.Entries()-2 || top.Bytes() != walk.Bytes()-1 {
			t.Errorf("%#v: entries %d bytes %d, want %d and %d", x, top.Entries(), top.Bytes(), walk.Entries()-2, walk.Bytes()-1)
		}
	}
}
