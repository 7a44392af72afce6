//go:build !unix

package main

import "os/exec"

// detachTerminal does nothing where there is no /dev/tty.
func detachTerminal(*exec.Cmd) {}
