// Command heapprobe prints the heap and the globals the garbage collector
// scans in a process that imports the engine, once its packages are
// initialised (built with the heapprobe_baseline tag: one that does not).
// testsuite.TestEngineLiveHeap runs both: what the engine keeps live from
// init is scanned by every collection of its host's heap, a Temporal
// worker's, whether or not a template uses it.
package main

import (
	"fmt"
	"runtime"
	"runtime/metrics"
)

func main() {
	runtime.GC()
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/scan/heap:bytes"}, {Name: "/gc/scan/globals:bytes"}}
	metrics.Read(s)
	fmt.Println(s[0].Value.Uint64(), s[1].Value.Uint64())
}
