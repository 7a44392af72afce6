//go:build !linux

package main

// hideFromCommands does nothing: only Linux is known to need it here (see
// dumpable_linux.go).
func hideFromCommands() error { return nil }
