//go:build !unix

package realtest

import "os/exec"

// runAs does nothing where there are no Unix users to switch to.
func runAs(uid, gid int) func(*exec.Cmd) { return func(*exec.Cmd) {} }
