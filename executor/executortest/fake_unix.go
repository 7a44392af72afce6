//go:build unix

package executortest

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func newSession(c *exec.Cmd) { c.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

func ignoreTerm() { signal.Ignore(syscall.SIGTERM) }

func killSelf(n int) {
	syscall.Kill(os.Getpid(), syscall.Signal(n))
	time.Sleep(time.Second)
}

// Alive reports whether pid is a live process. Where /proc tells, a
// zombie counts as dead: a container's init may not reap orphans.
func Alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if errors.Is(err, fs.ErrNotExist) {
		_, noProc := os.Stat("/proc/self/stat")
		return noProc != nil // no /proc here: kill said it lives
	}
	if err != nil {
		return true
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}
