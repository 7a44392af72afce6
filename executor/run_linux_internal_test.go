//go:build linux

package executor

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/climax-mcp/climax/executor/executortest"
)

func TestParseStat(t *testing.T) {
	// The command name may hold spaces and parentheses.
	line := "4242 (a b) (c)) S 17 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10 18446744073709551615\n"
	got, ok := parseStat(line)
	if want := (procStat{state: 'S', ppid: 17, pgid: 4242, start: 987654}); !ok || got != want {
		t.Fatalf("parseStat = %+v, %v; want %+v", got, ok, want)
	}
	if _, ok := parseStat("4242 (short) S 1 2"); ok {
		t.Fatal("a truncated line parsed")
	}
}

// An orphan that started after the commands of two calls may be either's.
// When the first call kills what is left of its tree while the second
// still runs, it spares the orphan; when the second one then does the
// same before the first is released, it must not spare the orphan for the
// first, which looks for orphans no more: the orphan is killed. (The calls
// are driven step by step, in the order that left such an orphan alive.)
func TestOrphanOfTwoEndingCallsIsKilled(t *testing.T) {
	if !subreaper.enabled.Load() {
		t.Skip("not a child subreaper:", subreaper.err)
	}
	dir := t.TempDir()
	fakeCmd := func(ops ...string) *exec.Cmd {
		cmd := exec.Command(executortest.Program(), ops...)
		cmd.Env = os.Environ()
		for k, v := range executortest.Env() {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		return cmd
	}

	// Call B: a command that runs until the test kills it.
	b := newProcTree()
	cmdB := fakeCmd("sleep=30s")
	if err := b.start(cmdB); err != nil {
		t.Fatal(err)
	}
	defer cmdB.Process.Kill()
	// Call A, started after B: its command leaves an orphan and exits.
	pidFile := filepath.Join(dir, "orphan")
	a := newProcTree()
	cmdA := fakeCmd("orphan=" + pidFile)
	if err := a.start(cmdA); err != nil {
		t.Fatal(err)
	}
	if err := cmdA.Wait(); err != nil {
		t.Fatalf("call A's command: %v", err)
	}
	a.exited()
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	orphan, err := strconv.Atoi(string(data))
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(orphan, syscall.SIGKILL) // if the test fails
	waitFor(t, "the orphan's re-parenting to this process", func() bool {
		st, ok := readStat(orphan)
		return ok && st.ppid == os.Getpid()
	})

	a.kill() // A ends while B runs: the orphan may be B's
	if !executortest.Alive(orphan) {
		t.Fatal("call A killed an orphan that may be call B's, still running")
	}
	b.kill() // B ends before A is released
	cmdB.Wait()
	b.exited()
	b.kill()
	a.release()
	b.release()
	waitFor(t, "the orphan's death", func() bool { return !executortest.Alive(orphan) })
}

// waitFor polls cond until it holds, and fails the test when it does not
// within ten seconds; what says what was awaited.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not within 10s: %s", what)
		}
	}
}

// TestMayHaveOrphansIgnoresOwnGroup checks that a child in this process's
// own process group (as a wrapper script's child is) does not send every
// call the slow way, while an orphan in a group of its own still does.
// Both are orphans, re-parented to the main thread, whose children list
// the check reads.
func TestMayHaveOrphansIgnoresOwnGroup(t *testing.T) {
	if !subreaper.enabled.Load() {
		t.Skip("no child subreaper here")
	}
	if mayHaveOrphans() {
		t.Skip("orphans of earlier tests are still around")
	}
	leaveOrphan(t, false) // sh, and so sleep, in this process's group
	if mayHaveOrphans() {
		t.Fatal("a child in this process's own group counts as a possible orphan")
	}
	leaveOrphan(t, true)
	if !mayHaveOrphans() {
		t.Fatal("an orphan in a group of its own does not count as a possible orphan")
	}
}

// leaveOrphan leaves a sleeping process to this process (a subreaper): sh
// starts it and exits, in a group of its own when ownGroup is set. It is
// killed and reaped when the test ends.
func leaveOrphan(t *testing.T, ownGroup bool) {
	sh := exec.Command("sh", "-c", "sleep 30 >/dev/null 2>&1 & echo $!")
	sh.SysProcAttr = &syscall.SysProcAttr{Setpgid: ownGroup}
	out, err := sh.Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("sh printed %q", out)
	}
	t.Cleanup(func() {
		syscall.Kill(pid, syscall.SIGKILL)
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, 0, nil)
	})
}
