//go:build !unix

package main

import "os"

// openNonBlocking opens name for reading; outside Unix no file that
// passes for regular blocks its opener.
func openNonBlocking(name string) (*os.File, error) {
	return os.Open(name)
}
