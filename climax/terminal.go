package main

import (
	"fmt"
	"io"
	"unicode"
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

// controlEscaper writes text with every control character but newline and
// tab (C0, DEL and C1) shown as an escape, e.g. \u001b, which means the
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
		if isEscaped(r, size) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, rest[:size]...)
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

// isEscaped reports whether the rune r, size bytes long in its text, is a
// control character other than newline and tab. An invalid byte (r is
// utf8.RuneError, size 1) is written as it is.
func isEscaped(r rune, size int) bool {
	if r == utf8.RuneError && size <= 1 {
		return false
	}
	return unicode.IsControl(r) && r != '\n' && r != '\t'
}
