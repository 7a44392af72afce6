package executor

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ShellQuote renders argv as one line a POSIX shell (bash for words with
// control characters) would read back as the same words: words made only
// of letters, digits and @%+=:,./_- stay bare; others are single-quoted,
// or written as $'...' with escapes when they hold control or format
// characters (such as a bidirectional override) or invalid UTF-8, so that
// a newline inside a word cannot pass for the end of the command. It is
// for showing a command to a person; no command is ever run through a
// shell.
func ShellQuote(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = shellWord(a)
	}
	return strings.Join(words, " ")
}

func shellWord(s string) string {
	switch {
	case s == "":
		return "''"
	case strings.IndexFunc(s, unsafeShellRune) < 0:
		return s
	case !utf8.ValidString(s) || strings.ContainsFunc(s, isControl):
		return ansiQuote(s)
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// unsafeShellRune reports whether r needs quoting.
func unsafeShellRune(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return false
	}
	return !strings.ContainsRune("@%+=:,./_-", r)
}

// isControl reports whether r would not show as itself: a control
// character, a format character such as a bidirectional override that
// could make the line read differently from what runs, or a line or
// paragraph separator (U+2028, U+2029), which many interfaces show as a
// line break.
func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// ansiQuote writes s as $'...': printable characters as they are, \\
// and \', and the escapes of [writeEscaped] for the rest.
func ansiQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	writeEscaped(&b, s, true)
	b.WriteByte('\'')
	return b.String()
}

// writeEscaped writes s to b with the usual escapes for \a \b \t \n \v
// \f \r, \xHH for other control bytes and for bytes that are not UTF-8,
// and \uHHHH for other control and format characters; with quoted, it
// also escapes \\ and \' as the inside of $'...' needs.
func writeEscaped(b *strings.Builder, s string, quoted bool) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(b, `\x%02x`, s[i])
		case quoted && (r == '\\' || r == '\''):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\a':
			b.WriteString(`\a`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\v':
			b.WriteString(`\v`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(b, `\x%02x`, r)
		case isControl(r):
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
}
