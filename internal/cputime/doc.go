// Package cputime reads the CPU time the process has used, for benchmarks
// that report CPU per operation: a figure other load on a shared machine
// skews far less than wall-clock throughput.
package cputime
