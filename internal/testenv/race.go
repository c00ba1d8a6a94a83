//go:build race

package testenv

// Race reports whether the test binary was built with the race detector,
// which slows parsing and extraction about tenfold: tests over whole data
// sets read a sample of them under it, or skip and run in .ci/run's
// second step, which goes without it.
const Race = true
