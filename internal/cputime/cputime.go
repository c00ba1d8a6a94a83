package cputime

import (
	"syscall"
	"time"
)

// Process is the user and system CPU time the process has used so far.
func Process() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0 // Getrusage(RUSAGE_SELF) fails only with a bad pointer
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
