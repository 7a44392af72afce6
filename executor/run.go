package executor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/climax-mcp/climax/index/config"
)

// killedDrainDelay bounds the wait for the output pipes once the whole
// group has been killed. Only a descendant that left the group could still
// hold them then; until it is over, the readers are still copying what the
// command wrote, which closing the pipes would lose (a busy machine can
// take far longer than drainDelay to schedule them).
const killedDrainDelay = time.Second

// awaitDrain waits until both output readers have reached EOF, or
// killedDrainDelay has passed.
func awaitDrain(drained <-chan struct{}) {
	t := time.NewTimer(killedDrainDelay)
	defer t.Stop()
	select {
	case <-drained:
	case <-t.C:
	}
}

// drainDelay is how long Run waits, after the command exited, for its
// output pipes to close (a background descendant may hold them open)
// before it kills what is left of the process group; it then waits for the
// readers as awaitDrain says.
const drainDelay = 100 * time.Millisecond

// A StartError says why a command could not be started: program not
// found, not executable, working directory missing, or the call was
// cancelled before it began. Its message is the text CLImax returns.
type StartError struct {
	// Msg is the message for the caller.
	Msg string
	// Err is the underlying error, if any.
	Err error
}

func (e *StartError) Error() string { return e.Msg }

// Unwrap returns the underlying error.
func (e *StartError) Unwrap() error { return e.Err }

// Run executes c and waits for it; it is the part of [Runner.Call] after
// validation. The command runs without a shell, in its own process group,
// with the inherited environment plus c.Env, in c.Dir, with c.Stdin (or
// empty input) as standard input.
//
// When c.Timeout passes or ctx is cancelled, the whole group gets SIGTERM
// and, after the grace period ([WithGracePeriod]), SIGKILL; Run then
// returns promptly with TimedOut (or cancellation) recorded in the Result,
// even if a descendant holds the output pipes open. When the command exits
// on its own, whatever is left of its group is killed too once its output
// is read, so no descendant outlives the call (a descendant that leaves the
// group, e.g. with setsid, is beyond reach).
//
// Each stream keeps at most the output limit (c.MaxOutput, overridden by
// [WithMaxOutput]): its head and tail around a marker line. Output is made
// valid UTF-8.
//
// Run returns a *[StartError] when the command could not start; every
// other outcome is a Result.
func (r *Runner) Run(ctx context.Context, c *Command) (*Result, error) {
	if c == nil || len(c.Argv) == 0 {
		return nil, &StartError{Msg: "No command to run"}
	}
	if ctx.Err() != nil {
		return nil, &StartError{Msg: "Command cancelled", Err: ctx.Err()}
	}
	limit := c.MaxOutput
	if r.maxOutput > 0 {
		limit = r.maxOutput
	}
	if limit <= 0 {
		limit = config.DefaultMaxOutput
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = seconds(0)
	}

	if c.Dir != "" {
		fi, err := os.Stat(c.Dir)
		if err != nil {
			return nil, &StartError{Msg: fmt.Sprintf("Working directory does not exist: %s", c.Dir), Err: err}
		}
		if !fi.IsDir() {
			return nil, &StartError{Msg: fmt.Sprintf("Working directory is not a directory: %s", c.Dir)}
		}
	}
	path, err := lookPath(c.Argv[0], c.Env, c.Dir)
	if err != nil {
		return nil, err
	}

	cmd := &exec.Cmd{
		Path:        path,
		Args:        c.Argv,
		Dir:         c.Dir,
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true},
	}
	if len(c.Env) > 0 {
		cmd.Env = append(os.Environ(), c.Env...) // exec.Cmd keeps the last value of a key
	}

	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, &StartError{Msg: "Cannot create output pipe: " + err.Error(), Err: err}
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, &StartError{Msg: "Cannot create output pipe: " + err.Error(), Err: err}
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	var inR, inW *os.File
	if c.Stdin != "" {
		if inR, inW, err = os.Pipe(); err != nil {
			outR.Close()
			outW.Close()
			errR.Close()
			errW.Close()
			return nil, &StartError{Msg: "Cannot create input pipe: " + err.Error(), Err: err}
		}
		cmd.Stdin = inR
	}

	start := time.Now()
	err = cmd.Start()
	// The child has its own copies; ours would keep the pipes open.
	outW.Close()
	errW.Close()
	if inR != nil {
		inR.Close()
	}
	if err != nil {
		outR.Close()
		errR.Close()
		if inW != nil {
			inW.Close()
		}
		return nil, startError(c.Argv[0], err)
	}
	pgid := cmd.Process.Pid

	stdout, stderr := newCapBuffer(limit), newCapBuffer(limit)
	var readers sync.WaitGroup
	readers.Add(2)
	go func() { defer readers.Done(); stdout.readFrom(outR) }()
	go func() { defer readers.Done(); stderr.readFrom(errR) }()
	drained := make(chan struct{})
	go func() { readers.Wait(); close(drained) }()
	if inW != nil {
		go func() {
			// A command that does not read its input gets EPIPE here
			// (SIGPIPE is not raised for this write); either way the pipe
			// is closed so that the command sees EOF.
			inW.WriteString(c.Stdin)
			inW.Close()
		}()
	}

	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var waitErr error
	var timedOut, cancelled, done bool
	select {
	case waitErr = <-exited:
		done = true
	case <-timer.C:
		timedOut = true
	case <-ctx.Done():
		cancelled = true
	}

	if done {
		// Give the pipes a moment to reach EOF; a descendant may hold them.
		select {
		case <-drained:
		default:
			t := time.NewTimer(drainDelay)
			select {
			case <-drained:
			case <-t.C:
			}
			t.Stop()
		}
		syscall.Kill(-pgid, syscall.SIGKILL)
		awaitDrain(drained)
	} else {
		// SIGTERM the group, then SIGKILL it after the grace period unless
		// the command exited and its output closed before that.
		syscall.Kill(-pgid, syscall.SIGTERM)
		grace := time.NewTimer(r.grace)
		exitedC, drainedC := (<-chan error)(exited), (<-chan struct{})(drained)
	wait:
		for exitedC != nil || drainedC != nil {
			select {
			case waitErr = <-exitedC:
				done, exitedC = true, nil
			case <-drainedC:
				drainedC = nil
			case <-grace.C:
				break wait
			}
		}
		grace.Stop()
		syscall.Kill(-pgid, syscall.SIGKILL)
		if !done {
			waitErr = <-exited
		}
		awaitDrain(drained)
	}
	// Unblock the readers if something outside the group holds the pipes.
	outR.Close()
	errR.Close()
	if inW != nil {
		inW.Close() // ends the stdin writer if nobody reads
	}
	<-drained
	elapsed := time.Since(start)

	res := &Result{
		ExitCode:   0,
		TimedOut:   timedOut,
		DurationMS: elapsed.Milliseconds(),
		timeout:    timeout.Seconds(),
		cancelled:  cancelled,
		success:    c.SuccessExitCodes,
	}
	var cut1, cut2 bool
	res.Stdout, cut1 = stdout.String()
	res.Stderr, cut2 = stderr.String()
	res.Truncated = cut1 || cut2
	if ps := cmd.ProcessState; ps != nil {
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.ExitCode = 128 + int(ws.Signal())
		} else {
			res.ExitCode = ps.ExitCode()
		}
	} else if waitErr != nil {
		res.ExitCode = -1
	}
	return res, nil
}

// FindProgram finds the program a config's commands run, the way [Runner.Run]
// does: the first word of [BaseCommand], searched in the PATH the config's
// env sets (else the server's PATH), or taken as a path relative to the
// config's working_dir. The error's message is the one a call would give.
func FindProgram(c *config.Config) (string, error) {
	words := BaseCommand(c)
	if len(words) == 0 {
		return "", &StartError{Msg: fmt.Sprintf("the command of %s is empty after expansion (%q)", cliName(c), c.Command)}
	}
	var env []string
	for k, v := range c.Env {
		env = append(env, k+"="+v)
	}
	return lookPath(words[0], env, expandWord(c.WorkingDir, envLookup(c.Env)))
}

// lookPath finds the program. A name with a slash is used as it is
// (relative to dir); otherwise it is searched in the PATH of env when env
// sets one, else in the server's PATH.
func lookPath(name string, env []string, dir string) (string, error) {
	if strings.Contains(name, "/") {
		p := name
		if dir != "" && !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			return "", &StartError{Msg: fmt.Sprintf("Command not found: %s (no such file)", name), Err: err}
		case fi.IsDir() || fi.Mode()&0o111 == 0:
			return "", &StartError{Msg: fmt.Sprintf("Command not executable: %s", name), Err: fs.ErrPermission}
		}
		return name, nil
	}
	pathEnv, override := "", false
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			pathEnv, override = v, true
		}
	}
	if !override {
		p, err := exec.LookPath(name)
		if err != nil {
			return "", &StartError{Msg: fmt.Sprintf("Command not found: %s (is it installed and on PATH?)", name), Err: err}
		}
		return p, nil
	}
	for _, d := range filepath.SplitList(pathEnv) {
		if d == "" || !filepath.IsAbs(d) {
			continue // relative PATH entries are not searched
		}
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", &StartError{Msg: fmt.Sprintf("Command not found: %s (is it installed and on the PATH the config sets?)", name), Err: exec.ErrNotFound}
}

// startError describes a failed exec.
func startError(name string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, exec.ErrNotFound):
		return &StartError{Msg: fmt.Sprintf("Command not found: %s (is it installed and on PATH?)", name), Err: err}
	case errors.Is(err, fs.ErrPermission):
		return &StartError{Msg: fmt.Sprintf("Command not executable: %s (permission denied)", name), Err: err}
	}
	return &StartError{Msg: fmt.Sprintf("Cannot run %s: %v", name, err), Err: err}
}
