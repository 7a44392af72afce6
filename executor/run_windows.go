//go:build windows

package executor

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"
)

// procTree is a command's process tree: a job object that the command is
// assigned to as soon as it has started, so that its descendants are in
// it too. The job kills whatever is in it when its last handle closes,
// also when this process dies. (A descendant started in the instant
// between the command's start and its assignment escapes the job.)
type procTree struct {
	mu   sync.Mutex // terminate may run (from exec's Cancel) while start ends
	job  windows.Handle
	proc *os.Process
}

// newProcTree makes the job. Without one (its creation failed), only the
// command itself is killed.
func newProcTree() *procTree {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return &procTree{}
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{
			LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
		},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return &procTree{}
	}
	return &procTree{job: job}
}

// start starts cmd and assigns it to the job.
func (t *procTree) start(cmd *exec.Cmd) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := cmd.Start(); err != nil {
		return err
	}
	t.proc = cmd.Process
	if t.job != 0 {
		h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(cmd.Process.Pid))
		if err == nil {
			windows.AssignProcessToJobObject(t.job, h)
			windows.CloseHandle(h)
		}
	}
	return nil
}

// terminate kills the tree: Windows has no signal asking a whole tree to
// stop, so there is no grace period.
func (t *procTree) terminate() { t.kill() }

// kill terminates every process in the job.
func (t *procTree) kill() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.job != 0 {
		windows.TerminateJobObject(t.job, 1)
	}
	if t.proc != nil {
		t.proc.Kill()
	}
}

// exited does nothing: the job holds the tree whether the command lives
// or not.
func (t *procTree) exited() {}

// release closes the job.
func (t *procTree) release() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.job != 0 {
		windows.CloseHandle(t.job)
		t.job = 0
	}
}

// exitCode is the command's exit status.
func exitCode(ps *os.ProcessState) int { return ps.ExitCode() }

// isExecutable reports whether a file can be run: Windows has no execute
// bits, so any file that is not a directory.
func isExecutable(fi fs.FileInfo) bool { return !fi.IsDir() }

// isPathVar reports whether an environment variable's name is PATH, in
// any case.
func isPathVar(name string) bool { return strings.EqualFold(name, "PATH") }

// programFiles returns the files a program path may name: itself when it
// has an extension, else itself with each extension of PATHEXT.
func programFiles(p string) []string {
	if filepath.Ext(p) != "" {
		return []string{p}
	}
	exts := os.Getenv("PATHEXT")
	if exts == "" {
		exts = ".com;.exe;.bat;.cmd"
	}
	var files []string
	for _, e := range filepath.SplitList(exts) {
		if e != "" {
			files = append(files, p+strings.ToLower(e))
		}
	}
	return files
}
