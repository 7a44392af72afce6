package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// tuneGC doubles the collector's target for a small heap, and leaves the
// target alone when the operator set GOGC.
func TestTuneGC(t *testing.T) {
	old := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(old) })
	t.Setenv("GOGC", "150")
	tuneGC()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set: GC percent %d, want it left at 100", got)
	}
	t.Setenv("GOGC", "")
	// An empty GOGC is set too (the runtime reads it as 100): left alone.
	tuneGC()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC empty: GC percent %d, want 100", got)
	}
	// Unset, with this test's small heap: doubled.
	os.Unsetenv("GOGC") // t.Setenv restores it
	tuneGC()
	if got := debug.SetGCPercent(100); got != smallHeapGCPercent {
		t.Errorf("GOGC unset, small heap: GC percent %d, want %d", got, smallHeapGCPercent)
	}
}
