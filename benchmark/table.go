package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// align is a column's alignment in a Markdown table.
type align int

const (
	left align = iota
	right
)

// A table is a Markdown table: a header row and data rows, padded so that
// it also reads well as plain text.
type table struct {
	header []string
	aligns []align // per column; missing entries are left-aligned
	rows   [][]string
}

// addRow appends a row; missing cells are empty.
func (t *table) addRow(cells ...string) { t.rows = append(t.rows, cells) }

// write renders the table to w, one line per row, each ending in "\n".
func (t *table) write(w io.Writer) error {
	n := len(t.header)
	for _, r := range t.rows {
		n = max(n, len(r))
	}
	widths := make([]int, n)
	for i := range widths {
		widths[i] = 3 // a separator needs at least three characters
	}
	cell := func(r []string, i int) string {
		if i < len(r) {
			return strings.ReplaceAll(r[i], "|", `\|`)
		}
		return ""
	}
	measure := func(r []string) {
		for i := range n {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell(r, i)))
		}
	}
	measure(t.header)
	for _, r := range t.rows {
		measure(r)
	}
	alignOf := func(i int) align {
		if i < len(t.aligns) {
			return t.aligns[i]
		}
		return left
	}
	var b strings.Builder
	line := func(r []string) {
		b.WriteString("|")
		for i := range n {
			c := cell(r, i)
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if alignOf(i) == right {
				c = pad + c
			} else {
				c += pad
			}
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n")
	}
	line(t.header)
	b.WriteString("|")
	for i := range n {
		w := widths[i]
		if alignOf(i) == right {
			b.WriteString(" " + strings.Repeat("-", w-1) + ": |")
		} else {
			b.WriteString(" " + strings.Repeat("-", w) + " |")
		}
	}
	b.WriteString("\n")
	for _, r := range t.rows {
		line(r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// formatInt formats n with thousands separators: 12345 → "12,345".
func formatInt(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// percentTenths returns part/whole as a percentage in tenths of a percent,
// rounded half away from zero, with integer arithmetic only so that the
// result never depends on floating-point formatting. ok is false when whole
// is zero.
func percentTenths(part, whole int) (tenths int, ok bool) {
	if whole == 0 {
		return 0, false
	}
	num, den := int64(part)*1000, int64(whole)
	if den < 0 {
		num, den = -num, -den
	}
	q := (abs64(num)*2 + den) / (2 * den)
	if num < 0 {
		q = -q
	}
	return int(q), true
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// formatPercent formats part/whole as a percentage with one decimal, for
// example "97.3 %"; "n/a" when whole is zero.
func formatPercent(part, whole int) string {
	t, ok := percentTenths(part, whole)
	if !ok {
		return "n/a"
	}
	sign := ""
	if t < 0 {
		sign, t = "-", -t
	}
	return fmt.Sprintf("%s%d.%d %%", sign, t/10, t%10)
}

// formatRatio formats a/b as "1.23×"; "n/a" when b is not positive.
func formatRatio(a, b float64) string {
	if b <= 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f×", a/b)
}

// formatDuration formats d with three significant figures in a unit that
// suits it: "850 ns", "12.3 µs", "4.56 ms", "1.23 s".
func formatDuration(d time.Duration) string {
	f := float64(d)
	unit, scale := "ns", 1.0
	switch {
	case d >= time.Second:
		unit, scale = "s", float64(time.Second)
	case d >= time.Millisecond:
		unit, scale = "ms", float64(time.Millisecond)
	case d >= time.Microsecond:
		unit, scale = "µs", float64(time.Microsecond)
	}
	v := f / scale
	switch {
	case unit == "ns" || v >= 100:
		return fmt.Sprintf("%.0f %s", v, unit)
	case v >= 10:
		return fmt.Sprintf("%.1f %s", v, unit)
	default:
		return fmt.Sprintf("%.2f %s", v, unit)
	}
}

// formatBytes formats a byte count in MiB with one decimal.
func formatBytes(n int64) string {
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
