package config

import (
	"fmt"
	"strings"
	"testing"
)

// compat05Args holds tools in the shape CLImax 0.5 accepted: a flag or
// positional: true on a stdin or cwd arg, which 0.5 ignored.
const compat05Args = `name: old-tools
command: fakecli
tools:
  - name: old_report
    description: Report how it was called
    args:
      - name: workdir
        cwd: true
        flag: --workdir
      - name: data
        stdin: true
        positional: true
      - name: word
        positional: true
  - name: old_other
    description: Another
    args:
      - {name: dir, cwd: true, positional: true}
      - {name: body, stdin: true, flag: --body}
`

// TestCompat05StdinCwdPlacement checks that a flag or positional: true on a
// stdin or cwd arg loads, as in CLImax 0.5, with the flag or positional
// dropped and one warning each at its position.
func TestCompat05StdinCwdPlacement(t *testing.T) {
	src := compat05Args
	cfg, err := Parse([]byte(src), "old.yaml")
	if err != nil {
		t.Fatalf("a 0.5 config does not load:\n%v", err)
	}
	for _, tool := range cfg.Tools {
		for _, a := range tool.Args {
			if (a.Stdin || a.Cwd) && (a.Flag != "" || a.Positional) {
				t.Errorf("%s.%s keeps flag %q, positional %v: a stdin or cwd arg never goes on the command line", tool.Name, a.Name, a.Flag, a.Positional)
			}
		}
	}
	if a := cfg.Tools[0].Args[2]; a.Name != "word" || !a.Positional {
		t.Errorf("an ordinary positional arg changed: %+v", a)
	}
	var got []string
	for _, w := range cfg.Warnings {
		got = append(got, w.String())
	}
	want := []string{
		`old.yaml:9:15: tool "old_report": arg "workdir": flag is ignored: a cwd arg sets the working directory and never goes on the command line (as in CLImax 0.5); remove flag`,
		`old.yaml:12:21: tool "old_report": arg "data": positional is ignored: a stdin arg is written to standard input and never goes on the command line (as in CLImax 0.5); remove positional`,
		`old.yaml:18:44: tool "old_other": arg "dir": positional is ignored: a cwd arg sets the working directory and never goes on the command line (as in CLImax 0.5); remove positional`,
		`old.yaml:19:41: tool "old_other": arg "body": flag is ignored: a stdin arg is written to standard input and never goes on the command line (as in CLImax 0.5); remove flag`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestWarningsCounted checks that a config without such forms has
// no warnings, and that warnings past MaxProblems are counted in one last
// warning.
func TestWarningsCounted(t *testing.T) {
	cfg, err := Parse([]byte("command: x\ntools:\n  - {name: t, description: d, args: [{name: a, cwd: true}]}\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Warnings != nil {
		t.Errorf("warnings %v, want none", cfg.Warnings)
	}
	var b strings.Builder
	b.WriteString("command: x\ntools:\n")
	for i := range MaxProblems + 7 {
		fmt.Fprintf(&b, "  - {name: t%d, description: d, args: [{name: a, cwd: true, flag: --a}]}\n", i)
	}
	cfg, err = Parse([]byte(b.String()), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(cfg.Warnings); n != MaxProblems+1 {
		t.Fatalf("%d warnings, want %d", n, MaxProblems+1)
	}
	if last := cfg.Warnings[MaxProblems].String(); last != "t.yaml: … and 7 more warnings" {
		t.Errorf("last warning %q", last)
	}
}
