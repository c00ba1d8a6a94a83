//go:build !race

package pageinfo

const raceEnabled = false
