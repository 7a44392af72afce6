//go:build windows

package executortest

import (
	"os"
	"os/exec"
)

// newSession does nothing: Windows has no sessions to leave.
func newSession(*exec.Cmd) {}

// ignoreTerm does nothing: Windows sends no SIGTERM.
func ignoreTerm() {}

// killSelf exits with the status a shell gives for signal n.
func killSelf(n int) { os.Exit(128 + n) }
