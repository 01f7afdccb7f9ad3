package builtins

import (
	"testing"
	"unsafe"
)

// TestTwChunkBytes keeps the constant wordwrap charges a chunk at the
// chunk's real size.
func TestTwChunkBytes(t *testing.T) {
	if got := unsafe.Sizeof(twChunk{}); got != twChunkBytes {
		t.Fatalf("twChunk is %d bytes, twChunkBytes says %d", got, twChunkBytes)
	}
}
