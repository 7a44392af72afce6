package metatools

import (
	"strings"
	"testing"
)

func TestListNames(t *testing.T) {
	if got := listNames([]string{"a", "b", "c"}, 2); got != "a, b, ... and 1 more" {
		t.Errorf("got %q", got)
	}
	if got := listNames([]string{"a", "b"}, 2); got != "a, b" {
		t.Errorf("got %q", got)
	}
}

func TestDisplayName(t *testing.T) {
	long := strings.Repeat("é", 130)
	for name, want := range map[string]string{
		"git_status":         "git_status",
		"with space":         "with space",
		"bad\nname":          `"bad\nname"`,
		"\x1b[31mred\x1b[0m": `"\x1b[31mred\x1b[0m"`,
		"tab\there":          `"tab\there"`,
		"del\x7f":            `"del\x7f"`,
		"c1\u0085":           `"c1\u0085"`,
		"bidi\u202eevil":     `"bidi\u202eevil"`,
		"bad\xffutf8":        `"bad\xffutf8"`,
		"":                   `""`,
		long:                 strings.Repeat("é", 120) + "…",
	} {
		if got := displayName(name); got != want {
			t.Errorf("displayName(%q) = %q, want %q", name, got, want)
		}
	}
}
