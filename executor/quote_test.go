package executor_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
)

func TestShellQuote(t *testing.T) {
	t.Parallel()
	tests := []struct {
		argv []string
		want string
	}{
		{[]string{"git", "log", "-n", "5", "--format=%H", "a/b.go", "x@y:1,2+3"}, "git log -n 5 --format=%H a/b.go x@y:1,2+3"},
		{[]string{"echo", ""}, "echo ''"},
		{[]string{"git", "commit", "-m", "fix: it's done"}, `git commit -m 'fix: it'\''s done'`},
		{[]string{"rm", "-rf", "$HOME", "a b", "*", "x;y", "`id`"}, `rm -rf '$HOME' 'a b' '*' 'x;y' '` + "`id`" + `'`},
		{[]string{"echo", "one\ntwo"}, `echo $'one\ntwo'`},
		{[]string{"echo", "tab\there 'q' \\"}, `echo $'tab\there \'q\' \\'`},
		{[]string{"echo", "\x1b[31mred"}, `echo $'\x1b[31mred'`},
		{[]string{"echo", "abc\u202edef"}, `echo $'abc\u202edef'`},
		{[]string{"echo", "ls\u2028ps\u2029x"}, `echo $'ls\u2028ps\u2029x'`},
		{[]string{"echo", "bad\xffbyte"}, `echo $'bad\xffbyte'`},
		{[]string{"echo", "héllo wörld"}, `echo 'héllo wörld'`},
	}
	for _, tt := range tests {
		if got := executor.ShellQuote(tt.argv); got != tt.want {
			t.Errorf("ShellQuote(%q) = %s, want %s", tt.argv, got, tt.want)
		}
	}
}

// TestShellQuoteRoundTrip has bash read the quoted line back: it must
// give the same words.
func TestShellQuoteRoundTrip(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	words := []string{"printf", "%s\\0", "", "plain", "it's", "a b", "$HOME", "`id`", "one\ntwo", "\x1b[0m", "tab\t\\'",
		"abc\u202edef", "bad\xffbyte", "\u0085", "héllo", "!", "~", "#x", "{a,b}", "-n"}
	cmd := exec.Command(bash, "-c", executor.ShellQuote(words))
	// bash decodes $'\u202e' in the character set of its locale: a machine
	// with no locale set (a fresh container) would run it in C, where it
	// stays an escape. The quoting is for a UTF-8 terminal.
	if !utf8Locale() {
		cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if want := words[2:]; !slices.Equal(got, want) {
		t.Errorf("bash read back %q, want %q", got, want)
	}
}

// utf8Locale reports whether the environment selects a UTF-8 locale, as
// the C library reads LC_ALL, LC_CTYPE and LANG in that order.
func utf8Locale() bool {
	for _, name := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := os.Getenv(name); v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false
}

// TestEscapeControlMatchesShellQuote checks that a value shown inside a
// message escapes each character as a command line shows it, so that the
// two never disagree about what a control character was.
func TestEscapeControlMatchesShellQuote(t *testing.T) {
	for _, s := range []string{"a\x07b", "tab\there", "line\nbreak", "bidi\u202eoverride", "bad\xffbyte", "esc\x1b[31m", "form\ffeed"} {
		got := executor.EscapeControl(s)
		quoted := executor.ShellQuote([]string{s})
		want := "$'" + got + "'"
		if quoted != want {
			t.Errorf("EscapeControl(%q) = %q, but ShellQuote shows %s", s, got, quoted)
		}
	}
	if got := executor.EscapeControl("plain text"); got != "plain text" {
		t.Errorf("EscapeControl changed plain text: %q", got)
	}
}
