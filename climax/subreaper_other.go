//go:build !linux

package main

// leaveSubreaper does nothing: only Linux has child subreapers.
func leaveSubreaper() {}
