package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestControlEscaper(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text\n\tindented é ✓\n", "plain text\n\tindented é ✓\n"},
		{"red \x1b[31mtext", `red \u001b[31mtext`},
		{"title \x1b]0;pwned\a", `title \u001b]0;pwned\u0007`},
		{"cr\roverwrite", `cr\u000doverwrite`},
		{"del \x7f c1 \u0085 \u009b", `del \u007f c1 \u0085 \u009b`},
		{"bad utf8 \xff stays", "bad utf8 \xff stays"},
		{"rlo \u202e zwsp \u200b ls \u2028 ps \u2029", `rlo \u202e zwsp \u200b ls \u2028 ps \u2029`},
		{"tag \U000e0001 end", `tag \udb40\udc01 end`},
	} {
		var b strings.Builder
		n, err := controlEscaper{&b}.Write([]byte(tc.in))
		if err != nil || n != len(tc.in) {
			t.Errorf("Write(%q) = %d, %v; want %d, nil", tc.in, n, err, len(tc.in))
		}
		if b.String() != tc.want {
			t.Errorf("Write(%q) wrote %q, want %q", tc.in, b.String(), tc.want)
		}
	}
}

// A config's text cannot send terminal control sequences through list,
// validate or search, and JSON output stays valid with the same values.
func TestTextOutputEscapesControlCharacters(t *testing.T) {
	path := writeFile(t, t.TempDir(), "ctl.yaml", `name: "evil\e[2J"
description: "clears \e]0;title\a the screen"
command: echo
tools:
  - name: t1
    description: "tool \e[31m red \x7f \x85"
    command: hi
`)
	for _, args := range [][]string{
		{"list", path},
		{"validate", path},
		{"search", "tool", path},
		{"search", "--explain", "tool", path},
		{"list", "--format", "json", path},
		{"validate", "--format", "json", path},
		{"search", "--format", "json", "tool", path},
	} {
		code, stdout, stderr := runClimax(t, args...)
		if code != exitOK {
			t.Fatalf("climax %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		}
		if i := strings.IndexFunc(stdout+stderr, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f }); i >= 0 {
			t.Errorf("climax %s printed a control character:\n%q", strings.Join(args, " "), stdout+stderr)
		}
		if args[1] == "--format" || args[1] == "--explain" {
			if args[1] == "--format" && !json.Valid([]byte(stdout)) {
				t.Errorf("climax %s: not valid JSON:\n%s", strings.Join(args, " "), stdout)
			}
			continue
		}
		if !strings.Contains(stdout, `\u001b[`) {
			t.Errorf("climax %s: the escape is not shown:\n%s", strings.Join(args, " "), stdout)
		}
	}
	_, stdout, _ := runClimax(t, "list", "--format", "json", path)
	var out struct {
		Tools []struct {
			Description string `json:"description"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || len(out.Tools) != 1 {
		t.Fatalf("list --format json: %v\n%s", err, stdout)
	}
	if want := "tool \x1b[31m red \x7f \u0085"; out.Tools[0].Description != want {
		t.Errorf("description decoded from JSON = %q, want %q", out.Tools[0].Description, want)
	}
}

// Errors that quote a path reach the terminal escaped, whatever the command.
func TestErrorsEscapeControlCharacters(t *testing.T) {
	dir := t.TempDir()
	missing := dir + "/no\x1b[31mfile.yaml"
	bad := writeFile(t, dir, "bad\x1b[31mname.yaml", "name: x\ncommand: [oops\n")
	for _, args := range [][]string{
		{"list", missing},
		{"search", "x", missing},
		{"run", missing},
		{"list", bad},
		{"run", bad},
	} {
		_, stdout, stderr := runClimax(t, args...)
		if strings.ContainsRune(stdout+stderr, 0x1b) || !strings.Contains(stderr, `\u001b[31m`) {
			t.Errorf("climax %s: stderr %q", args[0], stderr)
		}
	}
}
