//go:build unix

package executor

import (
	"os"
	"os/exec"
	"sync"
	"syscall"
)

// procTree is a command's process tree: its process group (the command
// is the group's leader) and, on Linux, the descendants that left the
// group (see [outsiders]).
type procTree struct {
	mu  sync.Mutex // terminate may run (from exec's Cancel) while start ends
	pid int        // the command's pid and group id; 0 until started
	out outsiders
}

func newProcTree() *procTree { return &procTree{} }

// start starts cmd as the leader of a new process group.
func (t *procTree) start(cmd *exec.Cmd) error {
	cmd.SysProcAttr = sysProcAttr()
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.out.start(cmd); err != nil {
		return err
	}
	t.pid = cmd.Process.Pid
	return nil
}

// terminate asks the tree to stop: SIGTERM to every member.
func (t *procTree) terminate() { t.signal(syscall.SIGTERM) }

// kill kills what is left of the tree: SIGKILL to every member.
func (t *procTree) kill() { t.signal(syscall.SIGKILL) }

func (t *procTree) signal(sig syscall.Signal) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.pid == 0 {
		return
	}
	syscall.Kill(-t.pid, sig)
	t.out.signal(sig)
}

// release forgets the tree once the call is over.
func (t *procTree) release() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.out.release()
}

// exitCode is the command's exit status, or 128+N when signal N killed it.
func exitCode(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
