package main

import (
	"strings"
	"testing"
	"time"

	"github.com/climax-mcp/climax/index/config"
)

func TestFormatInt(t *testing.T) {
	for n, want := range map[int]string{
		0: "0", 7: "7", 999: "999", 1000: "1,000", 19448: "19,448",
		123456: "123,456", 1234567: "1,234,567", -1: "-1", -1234: "-1,234", -123456: "-123,456",
	} {
		if got := formatInt(n); got != want {
			t.Errorf("formatInt(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestFormatPercent(t *testing.T) {
	tests := []struct {
		part, whole int
		want        string
	}{
		{0, 100, "0.0 %"},
		{1, 1, "100.0 %"},
		{1, 3, "33.3 %"},
		{2, 3, "66.7 %"},
		{1, 8, "12.5 %"},
		{1, 16, "6.3 %"},   // 6.25 rounds half away from zero
		{-1, 16, "-6.3 %"}, // and so does -6.25
		{1, 2000, "0.1 %"}, // 0.05
		{1, 2001, "0.0 %"}, // 0.0499…
		{-62, 246, "-25.2 %"},
		{19202, 19448, "98.7 %"},
		{3, -4, "-75.0 %"},
		{5, 0, "n/a"},
	}
	for _, tt := range tests {
		if got := formatPercent(tt.part, tt.whole); got != tt.want {
			t.Errorf("formatPercent(%d, %d) = %q, want %q", tt.part, tt.whole, got, tt.want)
		}
	}
}

func TestPercentTenths(t *testing.T) {
	if _, ok := percentTenths(1, 0); ok {
		t.Error("percentTenths(1, 0) reported ok")
	}
	// Large counts do not overflow.
	if got, _ := percentTenths(1<<40, 1<<41); got != 500 {
		t.Errorf("percentTenths(2^40, 2^41) = %d, want 500", got)
	}
}

func TestRoundDiv(t *testing.T) {
	for _, tt := range []struct{ a, b, want int }{{0, 3, 0}, {10, 4, 3}, {9, 4, 2}, {14, 4, 4}, {10893, 14, 778}} {
		if got := roundDiv(tt.a, tt.b); got != tt.want {
			t.Errorf("roundDiv(%d, %d) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		850:                                      "850 ns",
		12345:                                    "12.3 µs",
		999 * time.Microsecond:                   "999 µs",
		4561 * time.Microsecond:                  "4.56 ms",
		29800 * time.Microsecond:                 "29.8 ms",
		202 * time.Millisecond:                   "202 ms",
		1234 * time.Millisecond:                  "1.23 s",
		time.Minute + 30*time.Second:             "90.0 s",
		time.Duration(0):                         "0 ns",
		time.Millisecond:                         "1.00 ms",
		time.Second - time.Millisecond:           "999 ms",
		2*time.Microsecond + 500*time.Nanosecond: "2.50 µs",
	} {
		if got := formatDuration(d); got != want {
			t.Errorf("formatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestFormatRatio(t *testing.T) {
	if got := formatRatio(3, 2); got != "1.50×" {
		t.Errorf("formatRatio(3, 2) = %q", got)
	}
	if got := formatRatio(3, 0); got != "n/a" {
		t.Errorf("formatRatio(3, 0) = %q", got)
	}
}

func TestTableWrite(t *testing.T) {
	tb := table{
		header: []string{"Config", "Tools", "Saved"},
		aligns: []align{left, right, right},
	}
	tb.addRow("git", "47", "95.6 %")
	tb.addRow("a|b", "1,234") // a pipe is escaped; a missing cell is empty
	tb.addRow("µ", "1", "0.0 %")
	var b strings.Builder
	if err := tb.write(&b); err != nil {
		t.Fatal(err)
	}
	want := `| Config | Tools |  Saved |
| ------ | ----: | -----: |
| git    |    47 | 95.6 % |
| a\|b   | 1,234 |        |
| µ      |     1 |  0.0 % |
`
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestTableNarrowColumns(t *testing.T) {
	tb := table{header: []string{"A", "B"}, aligns: []align{left, right}}
	tb.addRow("x", "1")
	var b strings.Builder
	if err := tb.write(&b); err != nil {
		t.Fatal(err)
	}
	// Columns are at least three wide, as separators must be.
	want := "| A   |   B |\n| --- | --: |\n| x   |   1 |\n"
	if b.String() != want {
		t.Errorf("table:\n%q\nwant:\n%q", b.String(), want)
	}
}

// git's settings before a subcommand are no subcommand words: the bundled
// git config's read-only tools and a draft's both start with them.
func TestCommandPath(t *testing.T) {
	for command, want := range map[string]string{
		"branch --list":                      "branch",
		"--max-time 60":                      "",
		"-c core.hooksPath=/dev/null status": "status",
		"-c a=b -c c=d stash list --quiet":   "stash list",
	} {
		if got := commandPath(&config.Tool{Command: command}); got != want {
			t.Errorf("%q: got %q, want %q", command, got, want)
		}
	}
}
