//go:build unix

package main

import (
	"errors"
	"os"
	"syscall"
)

// openAppendNonBlocking opens name for appending, creating it with mode
// 0600, without waiting for a reader when it is a FIFO.
func openAppendNonBlocking(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND|syscall.O_NONBLOCK, 0o600)
}

// noReader reports whether err is the failure to open a FIFO for writing
// without a reader (ENXIO).
func noReader(err error) bool { return errors.Is(err, syscall.ENXIO) }
