package engine

import (
	"runtime"
	"testing"
)

// scratchAllocCases are hostile renders whose peak memory was scratch
// grown a quarter at a time: each is rendered once and may allocate at
// most maxMB (the heap is what a process faults in, about 3.5 ms of CPU a
// MiB on the development VM: docs/COSTS.md, "The hostile cases at the
// default budget").
var scratchAllocCases = []struct {
	name, src string
	maxMB     uint64
}{
	// a million one-character lines: 16 MB of lines and 11.5 MB of
	// twSplit's arrays (95 MB when the lines were appended to one slice)
	{"wordwrap-long-word", `{{ ('x' * 1000000) | wordwrap(1) }}`, 40},
}

// TestScratchAllocBounded renders scratchAllocCases and holds each to its
// allocation bound.
func TestScratchAllocBounded(t *testing.T) {
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range scratchAllocCases {
		tpl, err := env.Parse(c.name, c.src)
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, _ = tpl.RenderResult(nil, RenderOptions{})
		runtime.ReadMemStats(&after)
		if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > c.maxMB {
			t.Errorf("%s: allocated %d MiB, at most %d", c.name, mb, c.maxMB)
		}
	}
}
