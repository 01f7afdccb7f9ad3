//go:build !unix

package engine

import "time"

// cpuTime is unknown here: the calibration then reads the wall time only.
func cpuTime() time.Duration { return 0 }
