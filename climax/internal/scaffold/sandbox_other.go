//go:build !unix

package scaffold

import "os/exec"

// setProcessGroup leaves cmd as it is: without process groups, cancelling
// kills the program alone.
func setProcessGroup(cmd *exec.Cmd) {}
