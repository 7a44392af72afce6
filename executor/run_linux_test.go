//go:build linux

package executor_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/executor/executortest"
)

// These tests are not parallel: a call's orphans are told from another
// call's by when they started, so other calls running at the same time
// could leave them alive until those end.

// A descendant that left the process group with setsid gets SIGTERM with
// the group when the call is cancelled, even while it holds the output
// pipes: the call ends long before the grace period would.
func TestCallStopsSetsidDescendantOnCancel(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan executor.Outcome)
	r := executor.New(executor.WithGracePeriod(time.Minute))
	go func() { done <- r.Call(ctx, fake("out=partial setsid="+pidFile+" sleep=20s", 60), nil) }()
	waitFile(t, pidFile)
	cancel()
	select {
	case out := <-done:
		if want := "Command cancelled\n\npartial"; out.Text != want {
			t.Errorf("got %q, want %q", out.Text, want)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the call waited for the grace period")
	}
	assertGone(t, readPID(t, pidFile))
}

// Once the command has exited, a descendant that left the group and was
// re-parented to this process (a subreaper) is killed too.
func TestCallKillsSetsidDescendantAfterExit(t *testing.T) {
	for _, op := range []string{"setsid", "orphan"} {
		t.Run(op, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			out := executor.New().Call(context.Background(), fake("out=done "+op+"="+pidFile, 60), nil)
			if out.IsError || out.Text != "done" {
				t.Fatalf("got %+v", out)
			}
			assertGone(t, readPID(t, pidFile))
		})
	}
}

// An orphan whose parent exited while the command runs is killed when the
// call is cancelled.
func TestCallKillsOrphanOnCancel(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan executor.Outcome)
	go func() { done <- executor.New().Call(ctx, fake("orphan="+pidFile+" out=ready sleep=20s", 60), nil) }()
	waitFile(t, pidFile)
	cancel()
	select {
	case out := <-done:
		if !out.Result.Cancelled() {
			t.Errorf("got %+v", out.Result)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the call did not end")
	}
	assertGone(t, readPID(t, pidFile))
}

// An orphan that started after another running call's command may be that
// call's: it lives until that call ends.
func TestCallSparesOrphansOfOtherCalls(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan executor.Outcome)
	go func() { done <- executor.New().Call(ctx, fake("orphan="+pidFile+" sleep=20s", 60), nil) }()
	waitFile(t, pidFile)
	orphan := readPID(t, pidFile)

	if out := executor.New().Call(context.Background(), fake("out=other", 5), nil); out.Text != "other" {
		t.Fatalf("got %+v", out)
	}
	if !executortest.Alive(orphan) {
		t.Fatal("another call killed the orphan of a call still running")
	}
	cancel()
	<-done
	assertGone(t, orphan)
}

// An orphan that no call running can own (here one that appeared while
// none ran, as one forked in the instant its call's tree was killed
// would) is killed by the next call that ends.
func TestCallKillsOrphanOfNoRunningCall(t *testing.T) {
	orphan := startOrphan(t)
	if out := executor.New().Call(context.Background(), fake("out=later", 5), nil); out.Text != "later" {
		t.Fatalf("got %+v", out)
	}
	assertGone(t, orphan)
}

// KillDescendants kills the commands still running, with their trees,
// and the orphans no call took.
func TestKillDescendants(t *testing.T) {
	orphan := startOrphan(t)
	dir := t.TempDir()
	cmdFile, childFile := filepath.Join(dir, "cmd"), filepath.Join(dir, "child")
	done := make(chan executor.Outcome)
	go func() {
		done <- executor.New().Call(context.Background(), fake("pid="+cmdFile+" setsid="+childFile+" sleep=20s", 60), nil)
	}()
	waitFile(t, cmdFile)
	waitFile(t, childFile)
	executor.KillDescendants()
	assertGone(t, orphan)
	assertGone(t, readPID(t, cmdFile))
	assertGone(t, readPID(t, childFile))
	select {
	case out := <-done:
		if out.Result.ExitCode != 137 {
			t.Errorf("got %+v, want the command killed", out.Result)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the call did not end")
	}
}

// startOrphan makes an orphan that is no call's: a process that left its
// process group and whose parent, started by the test, exited. It returns
// its pid.
func startOrphan(t *testing.T) int {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "orphan")
	cmd := exec.Command(executortest.Program(), "setsid="+pidFile)
	cmd.Env = os.Environ()
	for k, v := range executortest.Env() {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	if err := cmd.Run(); err != nil {
		t.Fatalf("fake orphan: %v", err)
	}
	pid := readPID(t, pidFile)
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	return pid
}

// When the process running a call dies of SIGKILL, the command dies too.
func TestCommandDiesWithItsRunner(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	runner := exec.Command(os.Args[0], "-test.run=^$")
	runner.Env = append(os.Environ(), runCallVar+"="+pidFile)
	if err := runner.Start(); err != nil {
		t.Fatal(err)
	}
	waitFile(t, pidFile)
	runner.Process.Signal(syscall.SIGKILL)
	runner.Wait() // this process's reaper may have waited for it already
	assertGone(t, readPID(t, pidFile))
}

func waitFile(t *testing.T, file string) {
	t.Helper()
	waitUntil(t, 10*time.Second, file+" was written", func() bool {
		_, err := os.Stat(file)
		return err == nil
	})
}
