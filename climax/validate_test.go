package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestValidateManyProblems checks that a file with many problems prints the
// first 50, a line saying how many more there are, and the full count.
func TestValidateManyProblems(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	var b strings.Builder
	b.WriteString("command: x\ntools:\n")
	for i := range 120 {
		fmt.Fprintf(&b, "  - {name: t%d, description: d, bogus: 1}\n", i)
	}
	writeFile(t, dir, "many.yaml", b.String())

	code, out, _ := runClimax(t, "validate", "many.yaml")
	if code != exitError {
		t.Errorf("exit %d, want %d", code, exitError)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{"many.yaml: … and 70 more problems", "FAIL  many.yaml: 120 errors", "validation failed"}
	if len(lines) != 50+len(want) || strings.Join(lines[50:], "\n") != strings.Join(want, "\n") {
		t.Errorf("%d lines, ending:\n%s\nwant 50 problems, then:\n%s", len(lines), strings.Join(lines[min(50, len(lines)):], "\n"), strings.Join(want, "\n"))
	}

	_, out, _ = runClimax(t, "validate", "--format", "json", "many.yaml")
	var rep validateReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if errs := rep.Configs[0].Errors; len(errs) != 51 || errs[50].Message != "… and 70 more problems" || errs[49].Line != 52 {
		t.Errorf("json errors: %d, last %+v", len(errs), errs[len(errs)-1])
	}
}

// TestValidateAliasBomb checks that a config whose aliases expand to
// millions of nodes fails at once with one error.
func TestValidateAliasBomb(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	src := "command: x\nx: &arg {name: a}\ny: &tool {name: t, description: d, args: [*arg" + strings.Repeat(", *arg", 999) +
		"]}\ntools: [*tool" + strings.Repeat(", *tool", 999) + "]\n"
	writeFile(t, dir, "bomb.yaml", src)
	code, out, _ := runClimax(t, "validate", "bomb.yaml")
	want := "bomb.yaml:4:142: too many expanded aliases/merge keys: expanding *tool here goes past the limit (62320 nodes for a file of 13080 bytes); repeat less through aliases\nFAIL  bomb.yaml: 1 error\nvalidation failed\n"
	if code != exitError || out != want {
		t.Errorf("exit %d, output:\n%s\nwant:\n%s", code, out, want)
	}
}

// A config or policy file over the size limit is refused without being
// read whole, watched or not: /dev/zero as a config (or policy) grew
// climax by a gigabyte in seconds.
func TestConfigFileSizeLimit(t *testing.T) {
	dir := t.TempDir()
	big := writeFile(t, dir, "big.yaml", "name: big\ndescription: x\ncommand: echo\ntools: []\n# "+strings.Repeat("x", maxConfigFile)+"\n")
	small := writeFile(t, dir, "small.yaml", "name: small\ndescription: x\ncommand: echo\ntools:\n  - name: small_t\n    description: x\n")
	cases := [][]string{{"validate", big}, {"validate", "--policy", big, small}, {"list", big}}
	if _, err := os.Stat("/dev/zero"); err == nil {
		cases = append(cases, []string{"validate", "/dev/zero"}, []string{"validate", "--policy", "/dev/zero", small})
	}
	for _, args := range cases {
		code, out, errOut := runClimax(t, args...)
		if code == 0 || !strings.Contains(out+errOut, "(4 MiB) limit of a config or policy file") {
			t.Errorf("climax %q: exit %d, output %q", args, code, out+errOut)
		}
	}
}
