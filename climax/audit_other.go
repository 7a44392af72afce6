//go:build !unix

package main

import "os"

// openAppendNonBlocking opens name for appending, creating it.
func openAppendNonBlocking(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
}

// noReader reports false: outside Unix no file fails to open for want of
// a reader.
func noReader(error) bool { return false }
