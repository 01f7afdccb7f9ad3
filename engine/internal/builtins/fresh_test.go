package builtins

import (
	"testing"
	"unsafe"

	"github.com/jinjabox/jinjabox/engine/internal/vmem"
)

// TestTouchersFitTheirItems: the sizes fresh.go registers are the items'
// real sizes (a smaller one would leave pages of a fresh array
// untouched).
func TestTouchersFitTheirItems(t *testing.T) {
	if got := unsafe.Sizeof(keyed{}); got != keyedBytes {
		t.Fatalf("a keyed is %d bytes, keyedBytes says %d", got, keyedBytes)
	}
	if got := unsafe.Sizeof(intEntry{}); got != intEntryBytes {
		t.Fatalf("an intEntry is %d bytes, intEntryBytes says %d", got, intEntryBytes)
	}
	if !vmem.Touches[keyed]() || !vmem.Touches[intEntry]() {
		t.Fatal("a built-in item type is not registered with vmem.Toucher")
	}
}
