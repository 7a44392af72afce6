//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// detachTerminal starts cmd in a session of its own, without a
// controlling terminal, as a desktop MCP client starts climax: whatever
// terminal runs the tests, the terminal channel of --confirm-via is
// unavailable unless a script provides one.
func detachTerminal(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
