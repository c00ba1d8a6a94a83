//go:build !race

package pagetype

const raceEnabled = false
