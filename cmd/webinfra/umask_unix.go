//go:build unix

package main

import "syscall"

// restrictUmask makes every file the process creates (the SQLite database,
// its WAL and shared-memory files, the queue's) readable by its owner only.
func restrictUmask() { syscall.Umask(0o077) }
