//go:build race

package fetchsim

const raceEnabled = true
