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

// TestCompat05FlagForms checks the other arg placements CLImax 0.5
// accepted: a flag on a positional arg (ignored: the value goes alone)
// and an empty flag (no flag), each with a warning.
func TestCompat05FlagForms(t *testing.T) {
	cfg, err := Parse([]byte(`command: x
tools:
  - name: t
    description: d
    args:
      - {name: path, positional: true, flag: --path}
      - {name: max_count, flag: ""}
      - {name: rest, positional: true, flag: " "}
`), "old.yaml")
	if err != nil {
		t.Fatalf("a 0.5 config does not load:\n%v", err)
	}
	for _, a := range cfg.Tools[0].Args {
		if a.Flag != "" || !a.Positional && a.Name != "max_count" {
			t.Errorf("arg %s: flag %q, positional %v", a.Name, a.Flag, a.Positional)
		}
	}
	var got []string
	for _, w := range cfg.Warnings {
		got = append(got, w.String())
	}
	want := []string{
		`old.yaml:6:46: tool "t": arg "path": flag is ignored: a positional arg goes on the command line without it (as in CLImax 0.5); remove flag, or remove positional to pass the value after the flag`,
		`old.yaml:7:33: tool "t": arg "max_count": flag is empty, so the arg goes on the command line as --max-count, as without a flag (as in CLImax 0.5): remove flag, or give the option`,
		`old.yaml:8:46: tool "t": arg "rest": flag is empty, so it is ignored (as in CLImax 0.5): remove it`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// after_double_dash still needs positional or a flag: an empty one is none.
	_, err = Parse([]byte("command: x\ntools:\n  - {name: t, description: d, args: [{name: a, flag: '', after_double_dash: true}]}\n"), "t.yaml")
	if err == nil || !strings.Contains(err.Error(), "after_double_dash places the value after") {
		t.Errorf("after_double_dash with an empty flag: %v", err)
	}
}
