package ordered

import (
	"slices"
	"testing"
)

func TestKeys(t *testing.T) {
	m := map[string]int{"b": 2, "a": 1, "c": 3, "": 0}
	for range 20 { // map order is random: sorted every time
		if got := Keys(m); !slices.Equal(got, []string{"", "a", "b", "c"}) {
			t.Fatalf("Keys = %q", got)
		}
	}
	if got := Keys(map[int]bool(nil)); len(got) != 0 {
		t.Fatalf("Keys(nil) = %v", got)
	}
}
