package vmem

import (
	"testing"
	"unsafe"
)

// item is a registered test type: a pointer and a plain word, 40 bytes
// (a size that does not divide a page, so the written words drift
// across page edges).
type item struct {
	p    *int
	pad  [3]int64
	word int64
}

// unregistered has no toucher.
type unregistered struct {
	p *int
	w int64
}

func init() {
	Toucher(int(unsafe.Sizeof(item{})), func(s []item, i int) { s[i].word = 0 })
}

// TestTestItems: the test types are laid out as their comments say.
func TestTestItems(t *testing.T) {
	var it item
	var u unregistered
	if unsafe.Sizeof(it) != 40 || unsafe.Offsetof(it.word) != 32 || unsafe.Sizeof(it.p)+unsafe.Sizeof(it.pad) != 32 || unsafe.Sizeof(u.p)+unsafe.Sizeof(u.w) != 16 {
		t.Fatal("the test items are not the layout the tests assume")
	}
}

// TestFreshTouchesEveryPage: for arrays around TouchBytes and items of
// sizes that do and do not divide a page, the words touchPages writes
// leave no page that holds some item's word without a written one,
// wherever the word lies in the item (its first byte or its last
// eight), and only a last page holding less than an item can hold no
// word; smaller arrays are not written at all.
func TestFreshTouchesEveryPage(t *testing.T) {
	for _, size := range []int{8, 16, 24, 40, 48, 56, 64, 96, 128} {
		for _, n := range []int{1, TouchBytes/size - 1, TouchBytes / size, TouchBytes/size + 1, 3*pageBytes/size + 7, 100000} {
			s := make([]int, n)
			var written []int
			touchPages(s, toucher[int]{size, func(_ []int, i int) { written = append(written, i) }})
			if n*size < TouchBytes {
				if len(written) > 0 {
					t.Fatalf("size %d, %d items (%d bytes): %d writes below TouchBytes", size, n, n*size, len(written))
				}
				continue
			}
			for _, w := range []int{0, size - 8} {
				pages := make([]bool, (n*size+pageBytes-1)/pageBytes)
				last := ((n-1)*size + w) / pageBytes // the page of the last item's word
				if len(pages)-1-last > 1 || (last < len(pages)-1 && n*size-(len(pages)-1)*pageBytes >= size) {
					t.Fatalf("size %d, %d items, word at %d: %d bytes past the last word's page", size, n, w, n*size-(last+1)*pageBytes)
				}
				pages = pages[:last+1]
				for _, i := range written {
					if i < 0 || i >= n {
						t.Fatalf("size %d, %d items: wrote item %d", size, n, i)
					}
					pages[(i*size+w)/pageBytes] = true
				}
				for p, ok := range pages {
					if !ok {
						t.Fatalf("size %d, %d items, word at %d: page %d of %d untouched", size, n, w, p, len(pages))
					}
				}
			}
		}
	}
}

// TestFreshKeepsZeroes: Fresh returns the array it was given, zero in
// every field (the toucher writes only zeroes into zero memory), for a
// registered type large enough to be touched, a small one, and a type
// with no toucher; Touches knows which are registered.
func TestFreshKeepsZeroes(t *testing.T) {
	s := make([]item, 5, 100000)
	got := Fresh(s)
	if len(got) != 5 || cap(got) != 100000 || &got[0] != &s[0] {
		t.Fatal("Fresh did not return its argument")
	}
	for i, it := range got[:cap(got)] {
		if it != (item{}) {
			t.Fatalf("item %d not zero after Fresh", i)
		}
	}
	if small := Fresh(make([]item, 3)); len(small) != 3 {
		t.Fatal("Fresh changed a small array")
	}
	if u := Fresh(make([]unregistered, 10000)); len(u) != 10000 || u[9999] != (unregistered{}) {
		t.Fatal("Fresh changed an array of an unregistered type")
	}
	if !Touches[item]() || Touches[unregistered]() {
		t.Fatal("Touches is wrong about which types are registered")
	}
}

// TestToucherRefusesBadSizes: an item size Fresh's first test would skip
// wrongly (over MaxTouchedItem) or that cannot be one is refused at
// registration, which happens at init: the program does not start.
func TestToucherRefusesBadSizes(t *testing.T) {
	for _, size := range []int{0, -1, MaxTouchedItem + 1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Toucher accepted item size %d", size)
				}
			}()
			Toucher(size, func(s []unregistered, i int) {})
		}()
	}
	if Touches[unregistered]() {
		t.Fatal("a refused toucher was registered")
	}
}
