//go:build unix

package main

import (
	"os"
	"syscall"
)

// openNonBlocking opens name for reading without waiting for a writer
// when it is a FIFO.
func openNonBlocking(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
