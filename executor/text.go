package executor

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Text returns the result text (docs/results.md, The result text):
//
//   - when the call gave argument names the tool does not have
//     ([Result].IgnoredArgs), a first line naming each with the argument
//     it probably stands for, and a blank line;
//   - stdout without its trailing line breaks, unless it is only white
//     space (leading white space is kept: it is data, as in the " M
//     README.md" of git status --short);
//   - then, if stderr is not only white space, a blank line (only when
//     something precedes it), "[stderr]", a newline and stderr without
//     its trailing line breaks;
//   - then, if the exit code is not 0, a blank line and "[exit code: N]"
//     (128+S for a command killed by signal S), or "[exit code: N
//     (MEANING)]" when the tool says what N means (config exit_codes:
//     "[exit code: 1 (no matches)]");
//   - "(no output)" when all of that is empty.
//
// A timed-out command gives "Command timed out after N seconds" and a
// cancelled one "Command cancelled", each followed by a blank line and the
// output captured so far (stdout and stderr sections as above, no exit
// code) when there is any.
func (res *Result) Text() string {
	var b strings.Builder
	section := func(s string) {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(s)
	}
	note := ignoredNote(res.IgnoredArgs, res.IgnoredArgsOmitted)
	if note != "" {
		section(note)
	}
	switch {
	case res.TimedOut:
		section("Command timed out after " + secondsText(res.timeout))
	case res.cancelled:
		section("Command cancelled")
	}
	if s := outputText(res.Stdout); s != "" {
		section(s)
	}
	if s := outputText(res.Stderr); s != "" {
		section("[stderr]\n" + s)
	}
	if res.ExitCode != 0 && !res.TimedOut && !res.cancelled {
		if m := res.meanings[res.ExitCode]; m != "" {
			section(fmt.Sprintf("[exit code: %d (%s)]", res.ExitCode, m))
		} else {
			section(fmt.Sprintf("[exit code: %d]", res.ExitCode))
		}
	}
	if b.Len() == len(note) {
		section("(no output)")
	}
	return b.String()
}

// outputText is a stream as the result text shows it: without its
// trailing line breaks ("\n", "\r\n"), its leading white space kept; ""
// when it holds nothing but white space.
func outputText(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return strings.TrimRight(s, "\r\n")
}

// Failed reports whether the result is an error for the caller: an exit
// code that is not a success (0, or one of the command's
// SuccessExitCodes), a timeout or a cancellation.
func (res *Result) Failed() bool {
	if res.TimedOut || res.cancelled {
		return true
	}
	if len(res.success) == 0 {
		return res.ExitCode != 0
	}
	return !slices.Contains(res.success, res.ExitCode)
}

// secondsText renders a timeout: "30 seconds", "0.5 seconds", "1 second".
func secondsText(s float64) string {
	if s == 1 {
		return "1 second"
	}
	return strconv.FormatFloat(s, 'f', -1, 64) + " seconds"
}
