package metatools

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxDisplayName is the number of characters of a caller-supplied name a
// message shows.
const maxDisplayName = 120

// displayName makes a caller-supplied name safe to put on one line of a
// message: a name holding control or other non-printable characters (a
// newline, an ANSI escape, invalid UTF-8), or nothing at all, is
// quoted as a Go string literal, and a very long name is cut to 120 characters followed by "…".
// Names a config can declare are printable and come back unchanged.
func displayName(name string) string {
	if utf8.RuneCountInString(name) > maxDisplayName {
		n := 0
		for i := range name {
			if n == maxDisplayName {
				name = name[:i] + "…"
				break
			}
			n++
		}
	}
	if name == "" || !utf8.ValidString(name) || strings.ContainsFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }) {
		return strconv.Quote(name)
	}
	return name
}
