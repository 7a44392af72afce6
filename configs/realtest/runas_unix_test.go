//go:build unix

package realtest

import (
	"os/exec"
	"syscall"
)

// runAs returns a function that makes a command run as user uid, group
// gid (the PostgreSQL server refuses to run as root).
func runAs(uid, gid int) func(*exec.Cmd) {
	return func(cmd *exec.Cmd) {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	}
}
