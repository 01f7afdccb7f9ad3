package value

import "testing"

// An Arena hands out zeroed storage of exactly the capacity asked for,
// and after Reset the same storage again, cleared of what the last
// render stored in it.
func TestArenaReuseClears(t *testing.T) {
	var a Arena
	d := a.newDict(3)
	d.keys = append(d.keys, FromString("k"))
	d.vals = append(d.vals, FromString("v"))
	ld, items := a.listWith(4)
	items[0] = FromDict(d)
	if cap(d.keys) != 3 || cap(d.vals) != 3 || len(items) != 4 || cap(items) != 4 {
		t.Fatalf("capacities: keys %d vals %d items %d/%d", cap(d.keys), cap(d.vals), len(items), cap(items))
	}
	first, firstItems := d, &items[0]
	_ = ld
	a.Reset()
	d2 := a.newDict(3)
	_, items2 := a.listWith(4)
	if d2 != first || &items2[0] != firstItems {
		t.Error("Reset did not hand the same storage out again")
	}
	if d2.Len() != 0 || items2[0].k != Undefined {
		t.Error("storage handed out again still holds the last render's values")
	}
	for _, v := range first.keys[:cap(first.keys)] {
		if v.s != "" {
			t.Error("a key of the last render survived Reset")
		}
	}
}

// A copy through an Arena gives what a heap copy gives, and takes its
// containers from the Arena: a second copy after Reset allocates none.
func TestCopyThroughArena(t *testing.T) {
	data := map[string]any{"rows": []any{
		map[string]any{"a": 1, "b": "x"}, map[string]any{"b": "y", "a": 2}, map[string]any{"c": []any{1.5, nil}},
	}, "m": map[string]string{"k": "v"}, "o": &OrderedMap{Keys: []string{"z", "y"}, Values: []any{1, 2}}}
	var heap Copier
	want, err := heap.CopyMapInto(nil, data)
	if err != nil {
		t.Fatal(err)
	}
	var a Arena
	var c Copier
	copyOnce := func() *DictData {
		c.Reset()
		c.UseArena(&a)
		got, err := c.CopyMapInto(nil, data)
		if err != nil {
			t.Fatal(err)
		}
		if Repr(FromDict(got)) != Repr(FromDict(want)) {
			t.Fatalf("through the arena: %s, want %s", Repr(FromDict(got)), Repr(FromDict(want)))
		}
		return got
	}
	copyOnce()
	a.Reset()
	copyOnce() // the same result from storage handed out again
	a.Reset()
	n := testing.AllocsPerRun(20, func() {
		c.Reset()
		c.UseArena(&a)
		if _, err := c.CopyMapInto(nil, data); err != nil {
			t.Fatal(err)
		}
		a.Reset()
	})
	if n > 1 {
		t.Errorf("a copy through a warm arena allocated %.0f times, want 1 (the top-level dict)", n)
	}
}

// An Arena's Reset clears every array a render took storage from, and
// only those are touched: after renders that grew several arrays and
// renders that used a few slots of the first, every array is empty and
// all its storage zero, and what take hands out is zero.
func TestArenaResetClearsEveryArray(t *testing.T) {
	var a Arena
	for round, n := range []int{3000, 5, 40000, 70, 9000} {
		for i := 0; i < n; i += 7 {
			items := a.vals.take(7)
			for j := range items {
				if items[j].k != Undefined || items[j].s != "" {
					t.Fatalf("round %d: take handed out a slot still holding a value", round)
				}
				items[j] = FromString("x")
			}
		}
		a.Reset()
		if len(a.vals.list) < 2 {
			t.Fatalf("round %d: %d arrays, the test wants several", round, len(a.vals.list))
		}
		for i, arr := range a.vals.list {
			if len(arr) != 0 {
				t.Fatalf("round %d: array %d keeps %d items after Reset", round, i, len(arr))
			}
			for _, v := range arr[:cap(arr)] {
				if v.s != "" {
					t.Fatalf("round %d: array %d holds a value after Reset", round, i)
				}
			}
		}
	}
}
