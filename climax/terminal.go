package main

import (
	"fmt"
	"io"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// forText returns e with stdout and stderr escaping control characters,
// for the commands that print text from configs (list, validate, search):
// a config's name or description must not be able to move the cursor,
// recolour or retitle the terminal, or clear the screen of the person
// reading it.
func (e *env) forText() *env {
	return &env{stdin: e.stdin, stdout: controlEscaper{e.stdout}, stderr: controlEscaper{e.stderr}}
}

// controlEscaper writes text with every character that does not show as
// itself (see isEscaped) shown as an escape, e.g. \u001b, which means the
// same character inside a JSON or Go string, so that JSON output stays
// valid JSON. Each Write is escaped on its own: the commands write whole
// strings.
type controlEscaper struct{ w io.Writer }

func (c controlEscaper) Write(p []byte) (int, error) {
	i := firstControl(p)
	if i < 0 {
		return c.w.Write(p)
	}
	out := make([]byte, 0, len(p)+16)
	out = append(out, p[:i]...)
	for rest := p[i:]; len(rest) > 0; {
		r, size := utf8.DecodeRune(rest)
		switch {
		case !isEscaped(r, size):
			out = append(out, rest[:size]...)
		case r > 0xffff: // as JSON writes it: a surrogate pair
			r1, r2 := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		rest = rest[size:]
	}
	if _, err := c.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// firstControl returns the index of the first rune of p that is escaped,
// or -1.
func firstControl(p []byte) int {
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRune(p[i:])
		if isEscaped(r, size) {
			return i
		}
		i += size
	}
	return -1
}

// isEscaped reports whether the rune r, size bytes long in its text, does
// not show as itself: a control character other than newline and tab, a
// format character (a bidirectional override that makes a line read
// backwards, a zero-width space) or a line or paragraph separator. An
// invalid byte (r is utf8.RuneError, size 1) is written as it is.
func isEscaped(r rune, size int) bool {
	if r == utf8.RuneError && size <= 1 {
		return false
	}
	return (unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)) && r != '\n' && r != '\t'
}
