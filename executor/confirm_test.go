package executor_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
)

// confirmTool is a tool that needs approval and writes its pid to a file
// when it runs.
func confirmTool(t *testing.T) (rt *config.ResolvedTool, marker string) {
	marker = filepath.Join(t.TempDir(), "ran")
	rt = fake("pid="+marker, 5, config.Arg{Name: "message", Flag: "out="})
	rt.Confirm = true
	return rt, marker
}

func ran(marker string) bool {
	_, err := os.Stat(marker)
	return err == nil
}

// A prepared call has its command line built and nothing started; Run
// runs that command line.
func TestPrepareThenRun(t *testing.T) {
	t.Parallel()
	rt, marker := confirmTool(t)
	c, refused := executor.New().Prepare(rt, map[string]any{"message": "hi"})
	if c == nil {
		t.Fatalf("Prepare refused: %+v", refused)
	}
	if c.Tool != rt || c.Command.Argv[len(c.Command.Argv)-1] != "out=hi" {
		t.Fatalf("prepared %v %q", c.Tool.Tool.Name, c.Command.Argv)
	}
	if ran(marker) {
		t.Fatal("the command started when it was prepared")
	}
	out := c.Run(context.Background())
	if out.IsError || !ran(marker) || !slices.Equal(c.Command.Argv, out.Argv) {
		t.Fatalf("run: %+v, ran %v", out, ran(marker))
	}
}

// A call its caller refuses never runs; its Outcome has the argv.
func TestCallRefused(t *testing.T) {
	t.Parallel()
	rt, marker := confirmTool(t)
	c, _ := executor.New().Prepare(rt, nil)
	out := c.Refuse("The user declined", false)
	if !out.IsError || out.Text != "The user declined" || out.Result != nil || out.Argv == nil || out.Cancelled {
		t.Fatalf("refused call: %+v", out)
	}
	if ran(marker) {
		t.Fatal("the command ran")
	}
}

func TestCallConfirmWithoutAsker(t *testing.T) {
	t.Parallel()
	rt, marker := confirmTool(t)
	out := executor.New().Call(context.Background(), rt, nil)
	if !out.IsError || out.Text != "fake_run needs the user's approval before it runs, and this caller cannot ask for it: the command did not run." {
		t.Fatalf("call without asker: %+v", out)
	}
	if ran(marker) {
		t.Fatal("the command ran")
	}
}

func TestCallWithoutConfirmRuns(t *testing.T) {
	t.Parallel()
	rt, marker := confirmTool(t)
	rt.Confirm = false
	if out := executor.New().Call(context.Background(), rt, nil); out.IsError || !ran(marker) {
		t.Fatalf("tool without confirm: %+v", out)
	}
}

func TestPrepareValidationFailure(t *testing.T) {
	t.Parallel()
	rt, _ := confirmTool(t)
	rt.Tool.Args[0].Required = true
	if c, out := executor.New().Prepare(rt, nil); c != nil || !out.IsError || out.Argv != nil {
		t.Fatalf("invalid call: %v, %+v", c, out)
	}
}

// TestPreparedCallHoldsNoSlot: a call prepared and waiting (for approval)
// does not keep other calls from running.
func TestPreparedCallHoldsNoSlot(t *testing.T) {
	t.Parallel()
	r := executor.New(executor.WithMaxConcurrent(1))
	rt, _ := confirmTool(t)
	waiting, refused := r.Prepare(rt, nil)
	if waiting == nil {
		t.Fatalf("Prepare refused: %+v", refused)
	}
	other, marker := confirmTool(t)
	other.Confirm = false
	if out := r.Call(context.Background(), other, nil); out.IsError || !ran(marker) {
		t.Fatalf("other call while one waits for approval: %+v", out)
	}
	if out := waiting.Run(context.Background()); out.IsError {
		t.Fatalf("the prepared call: %+v", out)
	}
}

// A call cancelled while it waits for a free slot never runs, and its
// Outcome says it was cancelled.
func TestCallCancelledWhileWaitingForASlot(t *testing.T) {
	t.Parallel()
	r := executor.New(executor.WithMaxConcurrent(1))
	dir := t.TempDir()
	holder := fake("pid="+filepath.Join(dir, "holder")+" sleep=5s", 10)
	holding := make(chan executor.Outcome)
	ctx, stopHolder := context.WithCancel(context.Background())
	defer stopHolder()
	go func() { holding <- r.Call(ctx, holder, nil) }()
	waitUntil(t, 10*time.Second, "the first call started", func() bool { return ran(filepath.Join(dir, "holder")) })
	waiter, marker := confirmTool(t)
	waiter.Confirm = false
	c, _ := r.Prepare(waiter, nil)
	if c.TrySlot() {
		t.Fatal("TrySlot took the only slot, which the first call holds")
	}
	wctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := c.WaitSlot(wctx); err == nil {
		t.Fatal("WaitSlot got a slot the first call holds")
	}
	out := c.Run(wctx)
	if !out.IsError || !out.Cancelled || out.Result != nil || ran(marker) {
		t.Errorf("call cancelled while waiting for a slot: %+v (ran: %v)", out, ran(marker))
	}
	stopHolder()
	if out := <-holding; out.Cancelled {
		t.Errorf("a command cancelled while running has a Result, not Outcome.Cancelled: %+v", out)
	}
	// With a free slot, nothing waits.
	c, _ = r.Prepare(waiter, nil)
	if !c.TrySlot() {
		t.Fatal("TrySlot with a free slot")
	}
	if out := c.Run(context.Background()); out.IsError {
		t.Errorf("call with a free slot: %+v", out)
	}
	if c2, _ := r.Prepare(waiter, nil); !c2.TrySlot() {
		t.Error("Run did not free its slot")
	}
}
