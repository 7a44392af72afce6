package executor_test

import (
	"context"
	"errors"
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

func TestCallConfirmApproved(t *testing.T) {
	t.Parallel()
	rt, marker := confirmTool(t)
	var seen *executor.Command
	confirm := func(_ context.Context, got *config.ResolvedTool, cmd *executor.Command) error {
		if got != rt {
			t.Errorf("confirm got tool %v", got.Tool.Name)
		}
		seen = cmd
		if ran(marker) {
			t.Error("the command started before it was approved")
		}
		return nil
	}
	out := executor.New().Call(context.Background(), rt, map[string]any{"message": "hi"}, executor.WithConfirm(confirm))
	if out.IsError || !ran(marker) {
		t.Fatalf("approved call: %+v, ran %v", out, ran(marker))
	}
	if seen == nil || !slices.Equal(seen.Argv, out.Argv) || seen.Argv[len(seen.Argv)-1] != "out=hi" {
		t.Fatalf("confirm saw %+v, the call ran %q", seen, out.Argv)
	}
}

func TestCallConfirmRefused(t *testing.T) {
	t.Parallel()
	rt, marker := confirmTool(t)
	confirm := func(context.Context, *config.ResolvedTool, *executor.Command) error {
		return errors.New("The user declined")
	}
	out := executor.New().Call(context.Background(), rt, nil, executor.WithConfirm(confirm))
	if !out.IsError || out.Text != "The user declined" || out.Result != nil || out.Argv == nil {
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

func TestCallConfirmOnlyWhenNeeded(t *testing.T) {
	t.Parallel()
	rt, marker := confirmTool(t)
	rt.Confirm = false
	asked := false
	confirm := func(context.Context, *config.ResolvedTool, *executor.Command) error {
		asked = true
		return errors.New("no")
	}
	if out := executor.New().Call(context.Background(), rt, nil, executor.WithConfirm(confirm)); out.IsError || asked || !ran(marker) {
		t.Fatalf("tool without confirm: %+v, asked %v", out, asked)
	}
}

func TestCallConfirmNotAfterValidationFailure(t *testing.T) {
	t.Parallel()
	rt, _ := confirmTool(t)
	rt.Tool.Args[0].Required = true
	confirm := func(context.Context, *config.ResolvedTool, *executor.Command) error {
		t.Error("asked to approve a call that failed validation")
		return nil
	}
	if out := executor.New().Call(context.Background(), rt, nil, executor.WithConfirm(confirm)); !out.IsError || out.Argv != nil {
		t.Fatalf("invalid call: %+v", out)
	}
}

// TestCallConfirmHoldsNoSlot: a call waiting for approval does not keep
// other calls from running.
func TestCallConfirmHoldsNoSlot(t *testing.T) {
	t.Parallel()
	r := executor.New(executor.WithMaxConcurrent(1))
	rt, _ := confirmTool(t)
	waiting, release := make(chan struct{}), make(chan struct{})
	confirm := func(context.Context, *config.ResolvedTool, *executor.Command) error {
		close(waiting)
		<-release
		return errors.New("declined")
	}
	done := make(chan executor.Outcome)
	go func() { done <- r.Call(context.Background(), rt, nil, executor.WithConfirm(confirm)) }()
	<-waiting
	other, marker := confirmTool(t)
	other.Confirm = false
	if out := r.Call(context.Background(), other, nil); out.IsError || !ran(marker) {
		t.Fatalf("other call while one waits for approval: %+v", out)
	}
	close(release)
	if out := <-done; !out.IsError {
		t.Fatalf("declined call: %+v", out)
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
	deadline := time.Now().Add(10 * time.Second)
	for !ran(filepath.Join(dir, "holder")) {
		if time.Now().After(deadline) {
			t.Fatal("the first call did not start")
		}
		time.Sleep(5 * time.Millisecond)
	}
	waiter, marker := confirmTool(t)
	waiter.Confirm = false
	wctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	var queued []bool
	out := r.Call(wctx, waiter, nil, executor.WithQueued(func(w bool) { queued = append(queued, w) }))
	if !out.IsError || !out.Cancelled || out.Result != nil || ran(marker) {
		t.Errorf("call cancelled while waiting for a slot: %+v (ran: %v)", out, ran(marker))
	}
	if !slices.Equal(queued, []bool{true, false}) {
		t.Errorf("queued was told %v, want [true false]", queued)
	}
	stopHolder()
	if out := <-holding; out.Cancelled {
		t.Errorf("a command cancelled while running has a Result, not Outcome.Cancelled: %+v", out)
	}
	// With a free slot, nothing waits and queued is not called.
	queued = nil
	if out := r.Call(context.Background(), waiter, nil, executor.WithQueued(func(w bool) { queued = append(queued, w) })); out.IsError || len(queued) > 0 {
		t.Errorf("call with a free slot: %+v, queued told %v", out, queued)
	}
}
