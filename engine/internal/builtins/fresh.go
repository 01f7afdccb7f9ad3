package builtins

import (
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
)

// intEntryBytes is an intEntry's size.
const intEntryBytes = 8 + vmem.ValueBytes

// The built-ins' own items of large arrays are touched when fresh
// (vmem.Fresh); TestTouchersFitTheirItems holds the sizes to the types.
func init() {
	vmem.Toucher(keyedBytes, func(s []keyed, i int) { s[i].i = 0 })
	vmem.Toucher(intEntryBytes, func(s []intEntry, i int) { s[i].key = 0 })
}
