//go:build race

package content

// raceEnabled: the race detector slows extraction about tenfold, so the
// quality tests score only our two modes, not the reference libraries.
const raceEnabled = true
