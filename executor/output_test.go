package executor

import (
	"bytes"
	"fmt"
	"math/rand/v2"
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
