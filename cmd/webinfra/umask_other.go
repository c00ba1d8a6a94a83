//go:build !unix

package main

// restrictUmask does nothing where there is no umask; the data directory's
// own permissions protect it.
func restrictUmask() {}
