//go:build !linux

package render

// processesUsing is only implemented on Linux; elsewhere the allocator's
// own cleanup (killing the browser process) is all there is.
func processesUsing(dir string) map[int]string { return nil }

func killProcessesUsing(dir string) {}
