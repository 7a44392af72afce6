package scaffold

import "fmt"

// fromManual would draft from data about the program that needs no run of
// it; climax holds none yet, so it says so instead of guessing.
func fromManual(program string, prefix []string) (*Command, error) {
	return nil, fmt.Errorf("--no-exec: climax has no offline data about %s yet: run without --no-exec to read its help in a sandbox", programName(program))
}
