//go:build race

package pageaudit

const raceEnabled = true
