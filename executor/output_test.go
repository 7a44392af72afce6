package executor

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/climax-mcp/climax/index/config"
)

// model is what capBuffer must produce for data under limit.
func model(data []byte, limit int) (string, bool) {
	if len(data) <= limit {
		return strings.ToValidUTF8(string(data), "\uFFFD"), false
	}
	head, tail := data[:limit/2], data[len(data)-(limit-limit/2):]
	sep := "\n"
	if len(head) > 0 && head[len(head)-1] == '\n' {
		sep = ""
	}
	return fmt.Sprintf("%s%s[... %d bytes omitted ...]\n%s", head, sep, len(data)-limit, tail), true
}

func TestCapBufferChunks(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, limit := range []int{2, 3, 10, 101, 4096} {
		for _, size := range []int{0, 1, limit - 1, limit, limit + 1, 2 * limit, 10*limit + 7} {
			if size < 0 {
				continue
			}
			data := make([]byte, size)
			for i := range data {
				data[i] = 'a' + byte(rng.IntN(26))
			}
			for trial := range 5 {
				b := newCapBuffer(limit)
				rest := data
				for len(rest) > 0 {
					k := 1 + rng.IntN(max(1, limit*(trial+1)/2))
					k = min(k, len(rest))
					b.Write(rest[:k])
					rest = rest[k:]
				}
				got, cut := b.String()
				want, wantCut := model(data, max(limit, 2))
				if got != want || cut != wantCut {
					t.Fatalf("limit %d size %d trial %d:\n got %q %v\nwant %q %v", limit, size, trial, got, cut, want, wantCut)
				}
			}
		}
	}
}

func TestCapBufferMemoryBounded(t *testing.T) {
	t.Parallel()
	b := newCapBuffer(1000)
	chunk := bytes.Repeat([]byte("y"), 32*1024)
	for range 100 {
		b.Write(chunk)
	}
	if cap(b.head)+cap(b.ring) > 2000 {
		t.Fatalf("buffer holds %d bytes", cap(b.head)+cap(b.ring))
	}
	got, cut := b.String()
	if !cut || !strings.Contains(got, "[... 3275800 bytes omitted ...]") {
		t.Fatalf("got %q", got[:600])
	}
}

func TestCapBufferRuneBoundaries(t *testing.T) {
	t.Parallel()
	// "é" is 2 bytes, "€" 3: cuts inside a character drop it whole.
	data := strings.Repeat("é", 10) + strings.Repeat("x", 50) + strings.Repeat("€", 10)
	b := newCapBuffer(11)
	b.Write([]byte(data))
	got, cut := b.String()
	if !cut || !utf8.ValidString(got) || strings.ContainsRune(got, utf8.RuneError) {
		t.Fatalf("got %q", got)
	}
	want := "éé\n[... 90 bytes omitted ...]\n€€"
	if got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestResultText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		res  Result
		want string
		fail bool
	}{
		{Result{Stdout: "out\n"}, "out", false},
		// Leading white space is data (docs/results.md): " M" is an
		// unstaged change, "M " a staged one; indentation and columns
		// stay aligned. Only trailing line breaks go.
		{Result{Stdout: " M README.md\nM  go.mod\n"}, " M README.md\nM  go.mod", false},
		{Result{Stdout: "\n  indented\r\n\r\n"}, "\n  indented", false},
		{Result{Stdout: "trailing spaces  \n"}, "trailing spaces  ", false},
		{Result{Stderr: "  note: indented\n", ExitCode: 1}, "[stderr]\n  note: indented\n\n[exit code: 1]", true},
		{Result{Stdout: "  \n", Stderr: "\n"}, "(no output)", false},
		{Result{Stdout: "out", Stderr: "warning\n"}, "out\n\n[stderr]\nwarning", false},
		{Result{Stderr: "error message\n", ExitCode: 1}, "[stderr]\nerror message\n\n[exit code: 1]", true},
		{Result{ExitCode: 2}, "[exit code: 2]", true},
		{Result{ExitCode: 139}, "[exit code: 139]", true},
		// A meaning from the config's exit_codes (git grep's no-match
		// exit would read as a bare "[exit code: 1]").
		{Result{ExitCode: 1, success: []int{0, 1}, meanings: map[int]string{1: "no matches"}}, "[exit code: 1 (no matches)]", false},
		{Result{ExitCode: 2, Stderr: "bad regex\n", success: []int{0, 1}, meanings: map[int]string{1: "no matches"}}, "[stderr]\nbad regex\n\n[exit code: 2]", true},
		{Result{TimedOut: true, ExitCode: 143, timeout: 30}, "Command timed out after 30 seconds", true},
		{Result{TimedOut: true, timeout: 1, Stdout: "partial\n", Stderr: "e"}, "Command timed out after 1 second\n\npartial\n\n[stderr]\ne", true},
		{Result{TimedOut: true, timeout: 0.25}, "Command timed out after 0.25 seconds", true},
		{Result{cancelled: true, ExitCode: 143, Stdout: "x"}, "Command cancelled\n\nx", true},
	}
	for _, tt := range tests {
		if got := tt.res.Text(); got != tt.want || tt.res.Failed() != tt.fail {
			t.Errorf("%+v: got %q (failed %v), want %q (failed %v)", tt.res, got, tt.res.Failed(), tt.want, tt.fail)
		}
	}
}

// Invalid UTF-8 shown as U+FFFD takes at most three times the limit
// (docs/calls.md, Output caps), whatever the bytes.
func TestCapBufferInvalidUTF8Bound(t *testing.T) {
	const limit = 1000
	for name, data := range map[string][]byte{
		"lone invalid bytes": bytes.Repeat([]byte{0xff, 'a'}, 5000),
		"all invalid":        bytes.Repeat([]byte{0xff}, 5000),
		"random":             randomBytes(5000),
		"short":              bytes.Repeat([]byte{0x80}, limit),
	} {
		b := newCapBuffer(limit)
		b.Write(data)
		s, _ := b.String()
		marker := len(fmt.Sprintf("\n[... %d bytes omitted ...]\n", len(data)))
		if len(s) > 3*limit+marker || !utf8.ValidString(s) {
			t.Errorf("%s: %d bytes of text for a limit of %d", name, len(s), limit)
		}
	}
}

func randomBytes(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.IntN(256))
	}
	return b
}

// The result text starts with a line naming the ignored argument names
// and what each probably meant (docs/results.md, The result text).
func TestResultTextIgnoredArgs(t *testing.T) {
	t.Parallel()
	noCwd := &config.Tool{Args: []config.Arg{{Name: "pattern"}}}
	ignored, more := UnknownArgs(noCwd, map[string]any{"cwd": "/repo"})
	tests := []struct {
		res  Result
		want string
	}{
		{Result{Stdout: " M a\n", IgnoredArgs: []IgnoredArg{{Name: "cwd", DidYouMean: "dir"}}},
			"[ignored argument 'cwd' (did you mean 'dir'?): the tool has no argument of that name, so the command ran without it]\n\n M a"},
		{Result{IgnoredArgs: ignored, IgnoredArgsOmitted: more},
			"[ignored argument 'cwd' (the tool has no working-directory argument): the tool has no argument of that name, so the command ran without it]\n\n(no output)"},
		{Result{ExitCode: 1, IgnoredArgs: []IgnoredArg{{Name: "a\nb"}, {Name: "c"}, {Name: "d"}}, IgnoredArgsOmitted: 2},
			`[ignored arguments 'a\nb', 'c', 'd' and 2 more` + ": the tool has no arguments of those names, so the command ran without them]\n\n[exit code: 1]"},
		// A line separator, a bidirectional override and a zero-width
		// space would break the line or reorder the text around them:
		// escaped, as every message and ignored_args show them.
		{Result{IgnoredArgs: []IgnoredArg{{Name: "a\u2028b"}, {Name: "\u202eevil"}, {Name: "\u200bzw"}}},
			`[ignored arguments 'a\u2028b', '\u202eevil' and '\u200bzw'` + ": the tool has no arguments of those names, so the command ran without them]\n\n(no output)"},
		{Result{TimedOut: true, timeout: 1, IgnoredArgs: []IgnoredArg{{Name: "x"}, {Name: "y"}}},
			"[ignored arguments 'x' and 'y': the tool has no arguments of those names, so the command ran without them]\n\nCommand timed out after 1 second"},
	}
	for _, tt := range tests {
		if got := tt.res.Text(); got != tt.want {
			t.Errorf("got  %q\nwant %q", got, tt.want)
		}
	}
}

// capped writes data to a capBuffer of limit in chunks of chunk bytes.
func capped(data string, limit, chunk int) (string, bool) {
	b := newCapBuffer(limit)
	for len(data) > 0 {
		k := min(chunk, len(data))
		b.Write([]byte(data[:k]))
		data = data[k:]
	}
	return b.String()
}

func omittedLine(n int) string { return fmt.Sprintf("[... %d bytes omitted ...]\n", n) }

// numbered returns lines "PREFIX0000" to PREFIX(n-1), each ending with eol.
func numbered(prefix string, from, to int, eol string) string {
	var s strings.Builder
	for i := from; i < to; i++ {
		fmt.Fprintf(&s, "%s%04d%s", prefix, i, eol)
	}
	return s.String()
}

// Cuts fall where lines end when that gives up at most a quarter of a
// half (docs/calls.md, Output caps): no fragment of a line reads as a
// whole one, and N counts every byte not shown.
func TestCapBufferLineCuts(t *testing.T) {
	t.Parallel()
	// 1000 lines of 10 bytes; each half is 503 bytes, 3 bytes into a line.
	data := numbered("line ", 0, 1000, "\n")
	want := numbered("line ", 0, 50, "\n") + omittedLine(9000) + numbered("line ", 950, 1000, "\n")
	for _, chunk := range []int{1, 7, 503, 4096, len(data)} {
		got, cut := capped(data, 1006, chunk)
		if !cut || got != want {
			t.Fatalf("chunks of %d:\n got %q\nwant %q", chunk, got, want)
		}
	}
}

// A line longer than the bound is cut at a character boundary as before:
// the output still shows its start and its end.
func TestCapBufferHugeLine(t *testing.T) {
	t.Parallel()
	for name, tt := range map[string]struct{ data, want string }{
		"no newline": {
			"start" + strings.Repeat("é", 5000) + "end",
			"start" + strings.Repeat("é", 22) + "\n" + omittedLine(9910) + strings.Repeat("é", 23) + "end"},
		"between short lines": {
			"a\n" + strings.Repeat("x", 10000) + "\nb",
			"a\n" + strings.Repeat("x", 48) + "\n" + omittedLine(9904) + strings.Repeat("x", 48) + "\nb"},
	} {
		for _, chunk := range []int{1, 64, 100000} {
			got, cut := capped(tt.data, 100, chunk)
			if !cut || got != tt.want {
				t.Errorf("%s, chunks of %d:\n got %q\nwant %q", name, chunk, got, tt.want)
			}
		}
	}
}

// The bound is a quarter of each half: with a limit of 200 a cut gives up
// at most 25 bytes to end or start a line, never 26.
func TestCapBufferLineBound(t *testing.T) {
	t.Parallel()
	a, b, c, d := strings.Repeat("a", 100), strings.Repeat("b", 100), strings.Repeat("c", 100), strings.Repeat("d", 100)
	tests := []struct {
		name, head, tail, want string
	}{
		{"head gives up 25", a[:74] + "\n" + b[:25], d,
			a[:74] + "\n" + omittedLine(1025) + d},
		{"head would give up 26", a[:73] + "\n" + b[:26], d,
			a[:73] + "\n" + b[:26] + "\n" + omittedLine(1000) + d},
		{"tail gives up 25", a, c[:24] + "\n" + d[:75],
			a + "\n" + omittedLine(1025) + d[:75]},
		{"tail would give up 26", a, c[:25] + "\n" + d[:74],
			a + "\n" + omittedLine(1000) + c[:25] + "\n" + d[:74]},
	}
	for _, tt := range tests {
		// 100 bytes of head, 1000 omitted in any case, 100 of tail.
		data := tt.head + strings.Repeat("m", 1000) + tt.tail
		got, cut := capped(data, 200, 37)
		if !cut || got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

// CRLF lines are cut after their LF; a half that ends between CR and LF
// ends its line with that LF, and a tail that starts with the LF drops it.
func TestCapBufferCRLF(t *testing.T) {
	t.Parallel()
	// Lines of 11 bytes; halves of 50 bytes are 6 bytes into a line.
	data := numbered("rows ", 0, 100, "\r\n")
	want := numbered("rows ", 0, 4, "\r\n") + omittedLine(1100-44-44) + numbered("rows ", 96, 100, "\r\n")
	if got, cut := capped(data, 100, 9); !cut || got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// Halves of 20 bytes: the head ends with a CR and the tail starts
	// with an LF.
	data = "abcdefghijklmnopqrs\r\n" + strings.Repeat("filler\r\n", 10) + "end\r\n0123456789abcdefg\r\n"
	want = "abcdefghijklmnopqrs\r\n" + omittedLine(len(data)-21-19) + "0123456789abcdefg\r\n"
	if got, cut := capped(data, 40, 3); !cut || got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// Whatever the lines and the writes, the text before the marker starts
// the stream, the text after it ends the stream, and N is exactly the
// bytes in between; a cut that does not fall where a line ends had no
// line end within the bound.
func TestCapBufferLineCutsExact(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	marker := regexp.MustCompile(`\[\.\.\. (\d+) bytes omitted \.\.\.\]\n`)
	for trial := range 2000 {
		var data strings.Builder
		maxLine := []int{3, 20, 200}[trial%3]
		for data.Len() < 2000 {
			data.WriteString(strings.Repeat("x", rng.IntN(maxLine)))
			data.WriteString([]string{"\n", "\r\n"}[rng.IntN(2)])
		}
		limit := 20 + rng.IntN(600)
		got, cut := capped(data.String(), limit, 1+rng.IntN(300))
		s := data.String()
		m := marker.FindStringSubmatchIndex(got)
		if !cut || m == nil {
			t.Fatalf("trial %d: no marker in %q", trial, got)
		}
		head, tail := got[:m[0]], got[m[1]:]
		n, _ := strconv.Atoi(got[m[2]:m[3]])
		if len(head)+n+len(tail) != len(s) {
			// The line break before the marker was added.
			head = strings.TrimSuffix(head, "\n")
		}
		if !strings.HasPrefix(s, head) || !strings.HasSuffix(s, tail) || len(head)+n+len(tail) != len(s) {
			t.Fatalf("trial %d: limit %d, head %d + %d omitted + tail %d of %d bytes:\n%q", trial, limit, len(head), n, len(tail), len(s), got)
		}
		half, tailHalf := limit/2, limit-limit/2
		if !strings.HasSuffix(head, "\n") && strings.Contains(s[half-lineSlack(half)-1:half], "\n") {
			t.Fatalf("trial %d: limit %d, head %q not cut at a line end", trial, limit, head)
		}
		if start := len(s) - tailHalf; s[start-1] != '\n' && len(tail) == tailHalf && strings.Contains(s[start:start+lineSlack(tailHalf)], "\n") {
			t.Fatalf("trial %d: limit %d, tail %q not cut at a line start", trial, limit, tail)
		}
	}
}
