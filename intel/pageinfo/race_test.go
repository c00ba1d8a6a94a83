//go:build race

package pageinfo

// raceEnabled: the race detector slows parsing about tenfold, so the
// corpus test reads fewer pages under it.
const raceEnabled = true
