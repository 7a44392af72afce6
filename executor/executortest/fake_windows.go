//go:build windows

package executortest

import (
	"os"
	"os/exec"

	"golang.org/x/sys/windows"
)

// newSession does nothing: Windows has no sessions to leave.
func newSession(*exec.Cmd) {}

// ignoreTerm does nothing: Windows sends no SIGTERM.
func ignoreTerm() {}

// killSelf exits with the status a shell gives for signal n.
func killSelf(n int) { os.Exit(128 + n) }

// Alive reports whether pid is a process that has not exited.
func Alive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return false
	}
	return code == stillActive
}

// stillActive is the exit code of a process that has not exited
// (STILL_ACTIVE).
const stillActive = 259
