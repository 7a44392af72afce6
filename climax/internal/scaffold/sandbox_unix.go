//go:build unix

package scaffold

import (
	"os/exec"
	"syscall"
)

// setProcessGroup runs cmd in a process group of its own and makes
// cancelling it kill the whole group, so that a helper the program started
// cannot keep a probe alive.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
