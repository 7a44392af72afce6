package executor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/climax-mcp/climax/index/config"
)

// drainDelay is how long Run waits, after the command exited on its own,
// for its output pipes to close (a background descendant may hold them
// open) before it kills whatever is left of the command's process tree.
const drainDelay = 100 * time.Millisecond

// killedDrainDelay bounds the wait for the output pipes once the whole
// tree has been killed. Only a descendant beyond reach could still hold
// them then; until it is over, the readers are still copying what the
// command wrote, which closing the pipes would lose (a busy machine can
// take far longer than drainDelay to schedule them).
const killedDrainDelay = time.Second

// errTimedOut is the cause of a call context that reached the timeout.
var errTimedOut = errors.New("command timed out")

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

// Run executes c and waits for it; it is the part of [Call.Run] after
// the wait for a slot. The command runs without a shell, in its own process group
// (on Windows, its own job object), with the inherited environment minus
// CLImax's own settings (every CLIMAX_* variable: the auth token, the
// audit log's path...), limited to c.InheritEnv when set, plus c.Env, in
// c.Dir, with c.Stdin (or empty input) as standard input. A program path
// with a slash that is relative is taken relative to c.Dir.
//
// When c.Timeout passes or ctx is cancelled, the command's tree gets
// SIGTERM and, after the grace period ([WithGracePeriod]), SIGKILL (on
// Windows the job is terminated at once); Run then returns promptly with
// TimedOut (or cancellation) recorded in the Result, even if a descendant
// holds the output pipes open. When the command exits on its own, whatever
// is left of its tree is killed too once its output is read, so no
// descendant outlives the call.
//
// The tree is the process group, plus, on Linux, the descendants that left
// it (with setsid, say) while their parent chain still leads to the
// command, plus, once [EnableSubreaper] has been called, the orphans of the
// call that were re-parented to this process. Elsewhere a descendant that
// leaves the group is beyond reach. On Linux the command also gets SIGKILL
// if this process dies.
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
	path, err := c.program()
	if err != nil {
		return nil, err
	}
	p, err := r.start(ctx, c, path)
	if err != nil {
		return nil, err
	}
	p.wait()
	return p.result(), nil
}

// program checks the working directory and finds the program to run.
func (c *Command) program() (string, error) {
	if c.Dir != "" {
		fi, err := os.Stat(c.Dir)
		if err != nil {
			return "", &StartError{Msg: fmt.Sprintf("Working directory does not exist: %s", c.RedactedDir()), Err: err}
		}
		if !fi.IsDir() {
			return "", &StartError{Msg: fmt.Sprintf("Working directory is not a directory: %s", c.RedactedDir())}
		}
	}
	return lookPath(c.Argv[0], c.Env, c.Dir)
}

// A running command: the process, its tree, and the readers of its output.
//
// Stopping is exec.Cmd's business up to a point: its Cancel (terminate)
// runs when the timeout passes or the call is cancelled, and its WaitDelay
// (the grace period) kills the command if it ignores that. But exec only
// kills the command itself, and closing the pipes it manages after
// WaitDelay would drop output its readers have not copied yet; so the
// pipes are ours, and [running.wait] kills the rest of the tree and drains
// the output before closing them.
type running struct {
	cmd   *exec.Cmd
	tree  *procTree
	ctx   context.Context // the call's context, with the timeout
	stop  context.CancelFunc
	grace time.Duration

	timeout  time.Duration
	success  []int          // the exit codes that count as success, besides 0
	meanings map[int]string // Command.ExitCodes
	started  time.Time
	stopped  time.Time // when terminate ran; zero when the command ended on its own

	stdout, stderr *capBuffer
	outR, errR     *os.File      // our ends of the output pipes
	outW, errW     *os.File      // the command's ends, closed once it started
	inR, inW       *os.File      // the input pipe, when there is input
	drained        chan struct{} // closed when both readers reached EOF
}

// start starts the command in its own tree, with the output readers and
// the input writer running.
func (r *Runner) start(ctx context.Context, c *Command, path string) (*running, error) {
	limit := c.MaxOutput
	if r.maxOutput > 0 {
		limit = r.maxOutput
	}
	if limit <= 0 {
		limit = config.DefaultMaxOutput
	}
	p := &running{
		grace:    r.grace,
		timeout:  c.Timeout,
		success:  c.SuccessExitCodes,
		meanings: c.ExitCodes,
		stdout:   newCapBuffer(limit),
		stderr:   newCapBuffer(limit),
		drained:  make(chan struct{}),
		tree:     newProcTree(),
	}
	if p.timeout <= 0 {
		p.timeout = seconds(0)
	}
	if err := p.openPipes(c.Stdin != ""); err != nil {
		return nil, err
	}
	p.ctx, p.stop = context.WithTimeoutCause(ctx, p.timeout, errTimedOut)
	cmd := exec.CommandContext(p.ctx, path)
	cmd.Args, cmd.Dir, cmd.Env = c.Argv, c.Dir, childEnv(os.Environ(), c.InheritEnv, c.Env)
	cmd.Stdout, cmd.Stderr = p.outW, p.errW
	if p.inR != nil {
		cmd.Stdin = p.inR
	}
	cmd.Cancel = p.terminate
	cmd.WaitDelay = p.grace
	p.cmd = cmd

	p.started = time.Now()
	err := p.tree.start(cmd)
	// The command has its own copies; ours would keep the pipes open.
	closeAll(p.outW, p.errW, p.inR)
	if err != nil {
		closeAll(p.outR, p.errR, p.inW)
		p.stop()
		p.tree.release()
		return nil, startError(c.Argv[0], err)
	}
	p.readOutput(c.Stdin)
	return p, nil
}

// openPipes makes the output pipes, and the input pipe when withInput.
func (p *running) openPipes(withInput bool) error {
	var err error
	if p.outR, p.outW, err = os.Pipe(); err != nil {
		return &StartError{Msg: "Cannot create output pipe: " + err.Error(), Err: err}
	}
	if p.errR, p.errW, err = os.Pipe(); err != nil {
		closeAll(p.outR, p.outW)
		return &StartError{Msg: "Cannot create output pipe: " + err.Error(), Err: err}
	}
	if withInput {
		if p.inR, p.inW, err = os.Pipe(); err != nil {
			closeAll(p.outR, p.outW, p.errR, p.errW)
			return &StartError{Msg: "Cannot create input pipe: " + err.Error(), Err: err}
		}
	}
	return nil
}

// readOutput starts copying both output streams into their buffers, and
// the input into the command.
func (p *running) readOutput(stdin string) {
	var readers sync.WaitGroup
	readers.Go(func() { p.stdout.readFrom(p.outR) })
	readers.Go(func() { p.stderr.readFrom(p.errR) })
	go func() { readers.Wait(); close(p.drained) }()
	if p.inW != nil {
		go func() {
			// A command that does not read its input gets EPIPE here
			// (SIGPIPE is not raised for this write); either way the pipe
			// is closed so that the command sees EOF.
			p.inW.WriteString(stdin)
			p.inW.Close()
		}()
	}
}

// terminate is the command's exec.Cmd.Cancel, run when the timeout passes
// or the call is cancelled: it asks the whole tree to stop, or kills it at
// once when there is no grace period.
func (p *running) terminate() error {
	p.stopped = time.Now()
	if p.grace <= 0 {
		p.tree.kill()
	} else {
		p.tree.terminate()
	}
	return nil
}

// wait waits for the command, then for its output, and leaves nothing of
// it behind: once the command has exited, its output gets drainDelay to
// close (after terminate: the rest of the grace period, after asking the
// tree to stop again), then the tree is killed, the readers get killedDrainDelay to copy what is left, and the
// pipes are closed.
func (p *running) wait() {
	p.cmd.Wait() // the outcome is in cmd.ProcessState and p.stopped
	p.tree.exited()
	p.stop()
	deadline := time.Now().Add(drainDelay)
	if !p.stopped.IsZero() {
		deadline = p.stopped.Add(p.grace)
		// Ask again: descendants started while the command was getting
		// the signal, or orphaned by its death, were not asked yet.
		p.tree.terminate()
	}
	p.awaitOutput(time.Until(deadline))
	p.tree.kill()
	p.awaitOutput(killedDrainDelay)
	// Unblock the readers if something beyond reach holds the pipes, and
	// the input writer if nobody reads.
	closeAll(p.outR, p.errR, p.inW)
	<-p.drained
	p.tree.release()
}

// awaitOutput waits until both output readers reached EOF, or d passed.
func (p *running) awaitOutput(d time.Duration) {
	select {
	case <-p.drained:
		return
	default:
	}
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.drained:
	case <-t.C:
	}
}

// result is the finished command's Result.
func (p *running) result() *Result {
	res := &Result{
		DurationMS: time.Since(p.started).Milliseconds(),
		timeout:    p.timeout.Seconds(),
		success:    p.success,
		meanings:   p.meanings,
	}
	if !p.stopped.IsZero() {
		res.TimedOut = context.Cause(p.ctx) == errTimedOut
		res.cancelled = !res.TimedOut
	}
	var cut1, cut2 bool
	res.Stdout, cut1 = p.stdout.String()
	res.Stderr, cut2 = p.stderr.String()
	res.Truncated = cut1 || cut2
	res.ExitCode = -1
	if ps := p.cmd.ProcessState; ps != nil {
		res.ExitCode = exitCode(ps)
	}
	return res
}

// closeAll closes the files that are not nil.
func closeAll(files ...*os.File) {
	for _, f := range files {
		if f != nil {
			f.Close()
		}
	}
}

// FindProgram finds the program a config's commands run, the way [Build]
// and [Runner.Run] do: the first word of [BaseCommand], searched in the
// PATH the config's env sets (else the server's PATH), or, when it is a
// relative path, taken relative to the config's working_dir, else to the
// directory of the config's file. The error's message is the one a call
// would give.
func FindProgram(c *config.Config) (string, error) {
	words := BaseCommand(c)
	if len(words) == 0 {
		return "", &StartError{Msg: fmt.Sprintf("the command of %s is empty after expansion (%q)", cliName(c), c.Command)}
	}
	var env []string
	for k, v := range c.Env {
		env = append(env, k+"="+v)
	}
	return lookPath(programPath(words[0], c, envLookup(c.Env)), env, "")
}

// lookPath finds the program. A name with a slash is used as it is
// (relative to dir); otherwise it is searched in the PATH of env when env
// sets one, else in the server's PATH.
func lookPath(name string, env []string, dir string) (string, error) {
	if hasPathSeparator(name) {
		p := name
		if dir != "" && !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			return "", &StartError{Msg: fmt.Sprintf("Command not found: %s (no such file)", name), Err: err}
		case !isExecutable(fi):
			return "", &StartError{Msg: fmt.Sprintf("Command not executable: %s", name), Err: fs.ErrPermission}
		}
		return name, nil
	}
	pathEnv, override := "", false
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); isPathVar(k) {
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
		for _, p := range programFiles(filepath.Join(d, name)) {
			if fi, err := os.Stat(p); err == nil && isExecutable(fi) {
				return p, nil
			}
		}
	}
	return "", &StartError{Msg: fmt.Sprintf("Command not found: %s (is it installed and on the PATH the config sets?)", name), Err: exec.ErrNotFound}
}

// childEnv returns the variables of environ that a command inherits
// (those keep names, or all when keep is nil; never CLImax's own settings,
// [isClimaxSetting]), then extra, whose entries win (exec.Cmd keeps the
// last value of a key).
func childEnv(environ, keep, extra []string) []string {
	env := make([]string, 0, len(environ)+len(extra))
	for _, kv := range environ {
		if name, _, _ := strings.Cut(kv, "="); !isClimaxSetting(name) && Inherits(keep, name) {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// Inherits reports whether a command whose inherit_env is keep inherits
// the variable name from the server's environment: always when keep is nil;
// otherwise when keep lists name, or has an item ending in "*" whose text
// before the "*" starts name (LC_* keeps LC_ALL and LC_CTYPE). Names
// compare as the system's environment does: exactly, and on Windows
// without regard to case (Path is PATH there). CLImax's own settings are
// left out whatever keep says ([Runner.Run]).
func Inherits(keep []string, name string) bool {
	if keep == nil {
		return true
	}
	for _, k := range keep {
		prefix, wild := strings.CutSuffix(k, "*")
		switch {
		case wild && len(name) >= len(prefix) && sameName(name[:len(prefix)], prefix):
			return true
		case !wild && sameName(name, k):
			return true
		}
	}
	return false
}

// sameName reports whether a and b name the same environment variable.
func sameName(a, b string) bool {
	if runtime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// isClimaxSetting reports whether an inherited variable is one of
// CLImax's own settings, which commands never see: any variable whose name
// starts with CLIMAX_ (in any case). They include secrets
// (CLIMAX_AUTH_TOKEN) and what a command could turn against climax: the
// audit log's path (CLIMAX_AUDIT_LOG) names a file whose lines a caller
// chooses in part, which a tool that runs a file's content (a Makefile)
// must not be pointed at (docs/security.md, Read-only tools). A config's
// env may still set such a variable for its commands.
func isClimaxSetting(name string) bool {
	return len(name) >= len("CLIMAX_") && strings.EqualFold(name[:len("CLIMAX_")], "CLIMAX_")
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
