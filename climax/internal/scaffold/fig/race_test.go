//go:build race

package fig

// raceEnabled: the race detector makes decoding the biggest specs (aws,
// az, gcloud: tens of megabytes of JSON) take a minute.
const raceEnabled = true
