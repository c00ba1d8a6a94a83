//go:build race

package pagetype

// raceEnabled: under the race detector the tests that read and train on
// the whole development set skip (training is pure arithmetic, some ten
// times slower instrumented); CI runs them without it (.ci/run).
const raceEnabled = true
