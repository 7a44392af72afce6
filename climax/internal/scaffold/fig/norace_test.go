//go:build !race

package fig

const raceEnabled = false
