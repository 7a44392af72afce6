//go:build unix

package executor

import (
	"io/fs"
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

	terminated bool // the group got SIGTERM
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

// terminate asks the tree to stop: SIGTERM to the group, then to the
// descendants outside it. Called again, it asks only the processes that
// were not there before (descendants of a command that had not seen the
// signal yet, or orphans re-parented since).
func (t *procTree) terminate() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.pid == 0 {
		return
	}
	first := !t.terminated
	if first {
		syscall.Kill(-t.pid, syscall.SIGTERM)
		t.terminated = true
	}
	t.out.signal(syscall.SIGTERM, first)
}

// kill kills what is left of the tree: SIGKILL to every member.
func (t *procTree) kill() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.pid == 0 {
		return
	}
	syscall.Kill(-t.pid, syscall.SIGKILL)
	t.out.signal(syscall.SIGKILL, true)
}

// exited records that the command has been waited for.
func (t *procTree) exited() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.out.waited()
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

// isExecutable reports whether a file can be run: not a directory, with
// an execute bit set.
func isExecutable(fi fs.FileInfo) bool { return !fi.IsDir() && fi.Mode()&0o111 != 0 }

// isPathVar reports whether an environment variable's name is PATH.
func isPathVar(name string) bool { return name == "PATH" }

// programFiles returns the files a program path may name: itself.
func programFiles(p string) []string { return []string{p} }
