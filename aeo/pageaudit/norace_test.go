//go:build !race

package pageaudit

const raceEnabled = false
