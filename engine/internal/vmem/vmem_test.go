package vmem

import (
	"slices"
	"strconv"
	"testing"
)

// TestAppendIsAppend holds Append and Copy to append and copy on every
// size around a chunk's edge, with dst holding room and without, and
// checks that Append grows an array it must replace by at least a
// quarter (a caller appending again and again stays linear).
func TestAppendIsAppend(t *testing.T) {
	sizes := []int{0, 1, CopyChunk - 1, CopyChunk, CopyChunk + 1, 3*CopyChunk + 5}
	items := func(n, from int) []string {
		s := make([]string, n)
		for i := range s {
			s[i] = strconv.Itoa(from + i)
		}
		return s
	}
	for _, nd := range sizes {
		for _, ns := range sizes {
			for _, room := range []int{0, ns, ns + 7} {
				dst := append(make([]string, 0, nd+room), items(nd, 0)...)
				src := items(ns, nd)
				want := append(slices.Clone(dst), src...)
				got := Append(dst, src...)
				if !slices.Equal(got, want) {
					t.Fatalf("Append(%d items, room %d, %d items) differs from append", nd, room, ns)
				}
				if room >= ns && ns > 0 && &got[0] != &dst[:1][0] {
					t.Fatalf("Append(%d items, room %d, %d items) moved an array with room", nd, room, ns)
				}
				if cap(dst)-len(dst) < ns && cap(got) < cap(dst)+cap(dst)/4 {
					t.Fatalf("Append grew a %d-item array to %d", cap(dst), cap(got))
				}
				out := make([]string, nd)
				if n := Copy(out, src); n != min(nd, ns) || !slices.Equal(out[:n], src[:n]) {
					t.Fatalf("Copy(%d into %d) = %d, differs from copy", ns, nd, n)
				}
			}
		}
	}
}
