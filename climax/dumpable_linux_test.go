package main

import (
	"testing"

	"golang.org/x/sys/unix"
)

// After hideFromCommands the process is not dumpable: Linux then gives
// its /proc entries to root, out of reach of the commands it runs as the
// same user.
func TestHideFromCommands(t *testing.T) {
	t.Cleanup(func() { unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0) })
	if err := hideFromCommands(); err != nil {
		t.Fatal(err)
	}
	if d, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0); err != nil || d != 0 {
		t.Errorf("dumpable %d, %v after hideFromCommands", d, err)
	}
}
