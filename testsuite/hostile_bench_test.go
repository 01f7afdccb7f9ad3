package testsuite

import (
	"path/filepath"
	"runtime"
	"sort"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jinjabox/jinjabox/internal/casecheck"
)

// hostileCost is one hostile case's wall time and peak heap growth.
type hostileCost struct {
	id   string
	dur  time.Duration
	peak uint64 // bytes above the heap before the render
}

// measureCase renders c once and samples the heap while it runs, so the
// peak includes memory a refused render allocated before it stopped.
func measureCase(c *casecheck.Case) hostileCost {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		var s runtime.MemStats
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				runtime.ReadMemStats(&s)
				if s.HeapAlloc > base && s.HeapAlloc-base > peak.Load() {
					peak.Store(s.HeapAlloc - base)
				}
			}
		}
	}()
	start := time.Now()
	r := casecheck.Run(c, casecheck.RunOptions{})
	d := time.Since(start)
	close(done)
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > base && ms.HeapAlloc-base > peak.Load() {
		peak.Store(ms.HeapAlloc - base)
	}
	_ = r
	return hostileCost{id: c.ID, dur: d, peak: peak.Load()}
}

// BenchmarkHostileCases renders every hostile case at the default budget
// (or the case's own) and reports the slowest case's wall time and the
// largest peak heap growth; -v logs the five slowest.
func BenchmarkHostileCases(b *testing.B) {
	cases, err := casecheck.LoadFile(filepath.Join(corporaDir, "hostile", "cases.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		costs := make([]hostileCost, 0, len(cases))
		for i := range cases {
			costs = append(costs, measureCase(&cases[i]))
		}
		sort.Slice(costs, func(i, j int) bool { return costs[i].dur > costs[j].dur })
		var maxPeak hostileCost
		for _, c := range costs {
			if c.peak > maxPeak.peak {
				maxPeak = c
			}
		}
		b.ReportMetric(float64(costs[0].dur.Microseconds())/1000, "slowest-ms")
		b.ReportMetric(float64(maxPeak.peak)/(1<<20), "peak-MiB")
		if i == 0 {
			for _, c := range costs[:5] {
				b.Logf("slow: %-60s %7.1f ms %6.1f MiB", c.id, float64(c.dur.Microseconds())/1000, float64(c.peak)/(1<<20))
			}
			b.Logf("peak: %-60s %7.1f ms %6.1f MiB", maxPeak.id, float64(maxPeak.dur.Microseconds())/1000, float64(maxPeak.peak)/(1<<20))
		}
	}
}
