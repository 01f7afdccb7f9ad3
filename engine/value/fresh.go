package value

import "github.com/jinjabox/jinjabox/engine/internal/vmem"

// The value model's arrays are touched when fresh (vmem.Fresh): each
// toucher writes a zero into an item's non-pointer word, which in a
// fresh array is zero already. TestTouchersFitTheirItems holds the sizes
// to the types.
func init() {
	vmem.Toucher(vmem.ValueBytes, func(s []Value, i int) { s[i].n = 0 })
	vmem.Toucher(vmem.ValueBytes+16, func(s []KV, i int) { s[i].Val.n = 0 })
	vmem.Toucher(2*vmem.ValueBytes, func(s [][2]Value, i int) { s[i][0].n = 0 })
	vmem.Toucher(vmem.ListHeaderBytes, func(s []ListData, i int) { s[i].size = 0 })
}
