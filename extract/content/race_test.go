//go:build race

package content

// raceEnabled: the race detector slows extraction about tenfold, so the
// tests over whole data sets (the quality gates, Markdown fidelity,
// metadata, the with ceiling) skip under it, and CI runs them without it
// (.ci/run); under it, TestQualityWCXB extracts a sample of the pages.
const raceEnabled = true
