package metatools_test

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/metatools"
)

// TestSuggestionsForAHugeName checks that an unknown name far longer than
// any tool costs memory in proportion to its length: an edit distance
// against it would cost its length times each candidate's, gigabytes for
// a few megabytes sent as climax_call's tool_name. A name that contains a
// tool's name still suggests it.
func TestSuggestionsForAHugeName(t *testing.T) {
	names := []string{"git_status", "git_commit", "git_log", "docker_ps"}
	for i := range 60 {
		names = append(names, "tool_number_"+strings.Repeat("x", i))
	}
	huge := strings.Repeat("y", 200_000) + "git_status"
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got := metatools.Suggestions(huge, names)
	runtime.ReadMemStats(&after)
	if !slices.Contains(got, "git_status") {
		t.Errorf("Suggestions(200 KB name ending in git_status) = %v, want git_status among them", got)
	}
	// The name itself and its lowered copy are 0.4 MB; an edit distance
	// against each candidate would allocate over 1 GB.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("Suggestions of a 200 KB name allocated %d MB, want under 16 MB", alloc>>20)
	}
}
