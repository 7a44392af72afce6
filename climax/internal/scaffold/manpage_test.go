package scaffold

import (
	"strings"
	"testing"
)

// A command whose help lists few options takes those of its manual page
// when the program points to "PROG help <command>"; the ones the program
// refuses are left out and named apart, and each kept one says where it
// came from.
func TestDraftReadsTheManualOfAShortHelp(t *testing.T) {
	cfg, yaml := draftOf(t, Request{Program: fake(t, "manned"), Version: "test"})
	log := toolNamed(t, cfg, "manned_log")
	for _, f := range []string{"--quiet", "--oneline", "--max-count", "--format"} {
		if !hasFlag(log, f) {
			t.Errorf("manned_log lacks %s; draft:\n%s", f, yaml)
		}
	}
	if hasFlag(log, "--gone") {
		t.Errorf("manned_log keeps --gone, which manned log refuses")
	}
	// Only the options the help did not list are probed and left out.
	if !hasFlag(log, "--legacy") || strings.Contains(yaml, "log --legacy") {
		t.Errorf("manned_log lost --legacy, which its help lists:\n%s", yaml)
	}
	if !strings.Contains(yaml, "# from manned help log") {
		t.Errorf("the manual's options do not say where they came from:\n%s", yaml)
	}
	if !strings.Contains(yaml, "# note: the installed manned refused 1 option that the manual pages of commands with a short help list, left out: log --gone\n") {
		t.Errorf("no note names --gone:\n%s", yaml)
	}
}
