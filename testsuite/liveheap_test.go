package testsuite

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"
)

// maxEngineScannedHeap bounds the heap of pointers the engine's packages
// keep live from init, which every collection of the host's heap scans:
// at 1e2caf1 it was 341 kB (an HTML entity map, the full case maps as Go
// maps and strings, urlize's compiled regular expressions), and a
// render that allocated its 100 kB output paid a third of a collection's
// share of it (bigtext in the peers harness: 32-46 µs against 15-18 µs
// without it). Now 86 kB.
const maxEngineScannedHeap = 128 << 10

// TestEngineLiveHeap holds the engine's live heap at init under
// maxEngineScannedHeap: cmd/heapprobe, built with the engine and without
// it (the heapprobe_baseline tag), reports the heap bytes a collection
// scans once init is done; the difference is the engine's.
func TestEngineLiveHeap(t *testing.T) {
	goBin := goTool(t)
	probe := func(tags ...string) (heap, globals uint64) {
		t.Helper()
		args := append([]string{"run"}, tags...)
		cmd := exec.Command(goBin, append(args, "./testsuite/cmd/heapprobe")...)
		cmd.Dir = filepath.Join("..")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("heapprobe %v: %v\n%s", tags, err, stderr.String())
		}
		if _, err := fmt.Sscan(string(out), &heap, &globals); err != nil {
			t.Fatalf("heapprobe %v printed %q: %v", tags, out, err)
		}
		return heap, globals
	}
	heap, globals := probe()
	baseHeap, baseGlobals := probe("-tags", "heapprobe_baseline")
	t.Logf("engine's scanned heap at init: %d bytes (globals %d)", int64(heap)-int64(baseHeap), int64(globals)-int64(baseGlobals))
	if heap < baseHeap || globals < baseGlobals {
		t.Fatalf("the probe without the engine scanned more (heap %d < %d or globals %d < %d): it measures nothing", heap, baseHeap, globals, baseGlobals)
	}
	if d := heap - baseHeap; d > maxEngineScannedHeap {
		t.Errorf("the engine keeps %d bytes of heap a collection scans live from init, over %d", d, maxEngineScannedHeap)
	}
}
