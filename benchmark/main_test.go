package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-encoding", "p50k_base"},
		{"git"},
		{"-no-such-flag"},
		{"-perf", "-runs", "0"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != exitUsage {
			t.Errorf("run %q: exit %d, want %d", args, code, exitUsage)
		}
		if stdout.Len() > 0 || stderr.Len() == 0 {
			t.Errorf("run %q: stdout %q, stderr %q: want the problem on stderr only", args, stdout.String(), stderr.String())
		}
	}
}

func TestRunHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-h"}, &stdout, &stderr); code != exitOK {
		t.Errorf("-h: exit %d", code)
	}
	for _, flag := range []string{"-config", "-encoding", "-perf"} {
		if !strings.Contains(stderr.String(), flag) {
			t.Errorf("usage lacks %s:\n%s", flag, stderr.String())
		}
	}
}

func TestRunUnknownConfig(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-config", "no-such-cli"}, &stdout, &stderr); code != exitError {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, exitError, stderr.String())
	}
	if !strings.Contains(stderr.String(), "no-such-cli") {
		t.Errorf("stderr does not name the config:\n%s", stderr.String())
	}
}

func TestRunChosenConfigs(t *testing.T) {
	own := filepath.Join(t.TempDir(), "mine.yaml")
	if err := os.WriteFile(own, []byte(echoConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-config", "git", "-config", own, "-encoding", o200kBase}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"(o200k_base)", "| git ", "| bench ", "| all 2 configs "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "| docker ") {
		t.Errorf("output lists a config that was not chosen:\n%s", out)
	}
}
