//go:build unix

package engine

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used (user and system, every
// thread: the render's goroutine and the collector's work it causes).
// Unlike wall time it does not grow while other processes hold the
// machine's cores, so the fuzz time property holds on a loaded machine.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
