//go:build unix

package scaffold

import (
	"os/exec"
	"syscall"
	"time"
)

// killGrace is how long a probe's process group has between SIGTERM and
// SIGKILL: time for a shell's exit trap to release what it holds (pyenv's
// shim locks its shims directory to rehash around `pip install`; killed
// outright, it left the lock, and every later pip waited for it), short
// beside the probe's time limit. It is below the probe's WaitDelay, so
// the group is killed before Run stops waiting for it.
const killGrace = 500 * time.Millisecond

// setProcessGroup runs cmd in a process group of its own and makes
// cancelling it end the whole group, so that a helper the program started
// cannot keep a probe alive: SIGTERM, then SIGKILL after killGrace.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		pgid := cmd.Process.Pid
		time.AfterFunc(killGrace, func() { syscall.Kill(-pgid, syscall.SIGKILL) })
		return syscall.Kill(-pgid, syscall.SIGTERM)
	}
}
