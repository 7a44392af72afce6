package config

import (
	"fmt"
	"strings"
	"testing"
)

// TestSyntaxErrorPositions checks where a YAML syntax error is reported
// and what it says, for the common mistakes. The YAML library alone put
// most of these on another line (given in the case's comment), and said
// nothing about a tab, the indentation or an unclosed quote.
func TestSyntaxErrorPositions(t *testing.T) {
	tool := "name: t\ncommand: git\ntools:\n  - name: a\n    description: d\n"
	tests := []struct {
		name, src, want string
	}{
		{ // library: line 6, the line before the tab
			"tab indenting the line after a plain string",
			tool + "    command: x\n\tcommand: y\n",
			`t.yaml:7:1: invalid YAML: a tab in the indentation: YAML indents with spaces only`,
		},
		{
			"tab indenting a list entry",
			tool + "    args:\n\t- name: x\n",
			`t.yaml:7:1: invalid YAML: a tab in the indentation: YAML indents with spaces only`,
		},
		{
			"tab after spaces",
			tool + "    args:\n      - name: x\n  \t  description: y\n",
			`t.yaml:8:3: invalid YAML: a tab in the indentation: YAML indents with spaces only`,
		},
		{ // library: line 3, the line before the list
			"a key indented less than its siblings",
			tool + "    command: status\n   timeout: 5\n",
			`t.yaml:7:4: invalid YAML: bad indentation: this line is inside the list that starts at line 4 but is not one of its "- " entries: indent it like the lines it belongs with (did not find expected '-' indicator)`,
		},
		{ // library: line 3
			"a list entry lined up with neither list",
			tool + "    args:\n     - name: b\n    - name: c\n",
			`t.yaml:8:5: invalid YAML: bad indentation: this line is inside the mapping that starts at line 4 but is not one of its keys: indent it like the lines it belongs with (did not find expected key)`,
		},
		{ // library: line 4, the line before the mapping
			"a list entry under a mapping",
			"name: t\ncommand: git\nenv:\n  A: b\n - x\ntools: []\n",
			`t.yaml:5:2: invalid YAML: bad indentation: this line is inside the mapping that starts at line 1 but is not one of its keys: indent it like the lines it belongs with (did not find expected key)`,
		},
		{ // library: the right line, without saying a quote is open
			"unclosed double quote",
			tool + "    command: \"status\n    timeout: 5\n",
			`t.yaml:6:14: invalid YAML: the quoted string that starts here is never closed (the file ends inside it): add the closing "`,
		},
		{ // library: line 4, the last line
			"unclosed single quote on line 1",
			"name: 'it''s\ncommand: git\ntools: []\n",
			`t.yaml:1:7: invalid YAML: the quoted string that starts here is never closed (the file ends inside it): add the closing '`,
		},
		{
			"unclosed quote after a closed one spanning lines",
			"name: \"a\n  b\"\ndescription: 'x\ncommand: git\ntools: []\n",
			`t.yaml:3:14: invalid YAML: the quoted string that starts here is never closed (the file ends inside it): add the closing '`,
		},
		{ // library: line 1, the line before the list
			"unclosed flow list",
			"name: t\ntags: [a,\n  b\ncommand: git\ntools: []\n",
			`t.yaml:2: invalid YAML: did not find expected ',' or ']' in the flow collection that opens on this line: close it with ], and separate its items with commas`,
		},
		{
			"a key indented deeper than the one above",
			tool + "  - name: b\n      description: e\n",
			`t.yaml:7: invalid YAML: mapping values are not allowed in this context: a "key: value" indented deeper than the line above it, or ": " inside a string that is not quoted (quote it)`,
		},
		{
			"byte order mark first",
			"\uFEFF" + tool + "    command: x\n\tcommand: y\n",
			`t.yaml:7:1: invalid YAML: a tab in the indentation: YAML indents with spaces only`,
		},
		{
			"CRLF line breaks",
			strings.ReplaceAll(tool+"    command: status\n   timeout: 5\n", "\n", "\r\n"),
			`t.yaml:7:4: invalid YAML: bad indentation: this line is inside the list that starts at line 4 but is not one of its "- " entries: indent it like the lines it belongs with (did not find expected '-' indicator)`,
		},
		{ // library: line 9, the line before the list
			"in a second document",
			tool + "---\n" + tool + "    command: status\n   timeout: 5\n",
			`t.yaml:13:4: invalid YAML: bad indentation: this line is inside the list that starts at line 10 but is not one of its "- " entries: indent it like the lines it belongs with (did not find expected '-' indicator)`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src), "t.yaml")
			if err == nil {
				t.Fatal("Parse succeeded")
			}
			if got := strings.Join(problemLines(t, err), "\n"); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// Past maxBisected bytes, the mistake is not looked for line by line: the
// error is at the start of the block, and says the mistake is later.
func TestSyntaxErrorInALargeFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("command: git\ntools:\n")
	for i := 0; b.Len() <= maxBisected; i++ {
		fmt.Fprintf(&b, "  - name: t%d\n    description: d\n", i)
	}
	b.WriteString("   timeout: 5\n")
	_, err := Parse([]byte(b.String()), "t.yaml")
	want := "t.yaml:3: invalid YAML: did not find expected '-' indicator (in the block that starts on this line; the mistake is on a later line)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// A policy file gets the same positions.
func TestPolicySyntaxErrorPosition(t *testing.T) {
	_, err := ParsePolicy([]byte("default: enabled\ntools:\n  git_log:\n    description: x\n\tdescription: y\n"), "p.yaml")
	want := "p.yaml:5:1: invalid YAML: a tab in the indentation: YAML indents with spaces only"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestOpenQuote(t *testing.T) {
	tests := []struct {
		line  string
		col   int
		quote rune
	}{
		{`description: "d`, 14, '"'},
		{`name: 'it''s`, 7, '\''},
		{`name: it's "x`, 12, '"'},
		{`a: "x\"y`, 4, '"'},
		{`a: "x", b: "y`, 12, '"'},
		{`a: "closed" # it's "here`, 0, 0},
		{`a: don't`, 0, 0},
		{`- "é`, 3, '"'},
		{`ä: "x`, 4, '"'},
	}
	for _, tt := range tests {
		col, q := openQuote(tt.line)
		if col != tt.col || q != tt.quote {
			t.Errorf("openQuote(%q) = %d, %q; want %d, %q", tt.line, col, q, tt.col, tt.quote)
		}
	}
}
