//go:build unix

package executortest

import (
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

func newSession(c *exec.Cmd) { c.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

func ignoreTerm() { signal.Ignore(syscall.SIGTERM) }

func killSelf(n int) {
	syscall.Kill(os.Getpid(), syscall.Signal(n))
	time.Sleep(time.Second)
}
