//go:build !linux

package render

import "time"

// cpuTime is only measured on Linux.
func cpuTime(dir string) time.Duration { return 0 }
