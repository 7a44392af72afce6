package metatools

import "testing"

func TestListNames(t *testing.T) {
	if got := listNames([]string{"a", "b", "c"}, 2); got != "a, b, ... and 1 more" {
		t.Errorf("got %q", got)
	}
	if got := listNames([]string{"a", "b"}, 2); got != "a, b" {
		t.Errorf("got %q", got)
	}
}
