//go:build unix && !linux

package executor

import (
	"os/exec"
	"syscall"
)

func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// outsiders does nothing here: without /proc and a subreaper, a
// descendant that leaves the command's process group is beyond reach.
type outsiders struct{}

func (*outsiders) start(cmd *exec.Cmd) error   { return cmd.Start() }
func (*outsiders) signal(syscall.Signal, bool) {}
func (*outsiders) waited()                     {}
func (*outsiders) release()                    {}
