package scaffold

import "fmt"

// fromManual drafts from the program's installed manual page, without
// running anything.
func fromManual(program string, prefix []string) (*Command, error) {
	return nil, fmt.Errorf("--no-exec: %s: %w", program, errNoManual)
}
