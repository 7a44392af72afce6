package scaffold

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of a [Sandbox].
const (
	DefaultTimeout   = 5 * time.Second
	DefaultOutputCap = 1 << 20 // bytes of stdout and stderr together
	// slowStartFactor multiplies the time limit of the one retry of the
	// first probe that timed out.
	slowStartFactor = 3
)

// A Sandbox runs a program in read-only forms (--help, completion
// requests) so that what it prints can be read: with no stdin, in an empty
// temporary working directory, with a minimal environment (HOME in that
// directory, KUBECONFIG and DOCKER_HOST pointing nowhere, no credentials),
// a time limit and an output cap. A probe that hangs or floods is cut off
// (its process group killed) and reported in its [Output].
type Sandbox struct {
	// Program is the absolute path of the program.
	Program string
	// Timeout limits each probe (DefaultTimeout when 0).
	Timeout time.Duration
	// OutputCap limits the bytes kept of each probe (DefaultOutputCap when 0).
	OutputCap int

	dir      string      // the temporary directory: cwd and HOME live in it
	retried  atomic.Bool // a probe that timed out was run again
	answered atomic.Bool // a probe ended within its time limit
}

// An Output is what one probe printed and how it ended.
type Output struct {
	Args     []string // the arguments after the program
	Stdout   string
	Stderr   string
	ExitCode int  // -1 when the program did not exit by itself
	TimedOut bool // killed at the time limit
	Flooded  bool // killed when its output passed the cap
	Err      error
}

// Text is stdout and stderr together, stdout first.
func (o Output) Text() string {
	if o.Stdout == "" {
		return o.Stderr
	}
	if o.Stderr == "" {
		return o.Stdout
	}
	return o.Stdout + "\n" + o.Stderr
}

// Problem describes how the probe failed to give a normal answer, or ""
// when it exited by itself.
func (o Output) Problem() string {
	cmd := strings.Join(o.Args, " ")
	switch {
	case o.Err != nil:
		return fmt.Sprintf("%s: %v", cmd, o.Err)
	case o.TimedOut:
		return fmt.Sprintf("%s: no answer within the time limit (it may wait for input or hang; a slow program needs a longer --timeout): killed", cmd)
	case o.Flooded:
		return fmt.Sprintf("%s: printed more than the output cap: killed", cmd)
	}
	return ""
}

// NewSandbox finds program and prepares a sandbox for it; Close removes
// its temporary directory. A program name that holds a path separator or
// any character outside letters, digits and "._+-" is a path (relative to
// the current directory), never looked up on PATH and never given to a
// shell.
func NewSandbox(program string) (*Sandbox, error) {
	path, err := ResolveProgram(program)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "climax-scaffold-")
	if err != nil {
		return nil, fmt.Errorf("sandbox directory: %w", err)
	}
	for _, d := range []string{"cwd", "home", "tmp"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o700); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("sandbox directory: %w", err)
		}
	}
	return &Sandbox{Program: path, dir: dir}, nil
}

// Close removes the sandbox's temporary directory.
func (s *Sandbox) Close() error { return os.RemoveAll(s.dir) }

// IsBareName reports whether program is a name to look up on PATH rather
// than a path.
func IsBareName(program string) bool {
	if program == "" || program == "." || program == ".." {
		return false
	}
	for _, r := range program {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '+', r == '-':
		default:
			return false
		}
	}
	return true
}

// ResolveProgram returns the absolute path of program: looked up on PATH
// when it is a bare name ([IsBareName]), else taken as a path. The error
// says what to fix: not found, a directory, not executable.
func ResolveProgram(program string) (string, error) {
	if program == "" {
		return "", errors.New("the program name is empty")
	}
	if IsBareName(program) {
		p, err := exec.LookPath(program)
		if err != nil {
			if errors.Is(err, exec.ErrNotFound) {
				return "", fmt.Errorf("program %q is not on PATH: install it, or give its path (./%s)", program, program)
			}
			return "", fmt.Errorf("program %q: %w", program, err)
		}
		return filepath.Abs(p)
	}
	abs, err := filepath.Abs(program)
	if err != nil {
		return "", fmt.Errorf("program %q: %w", program, err)
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", fmt.Errorf("program %q does not exist (a name with a path or characters other than letters, digits and \"._+-\" is read as a path)", program)
	case err != nil:
		return "", fmt.Errorf("program %q: %w", program, err)
	case fi.IsDir():
		return "", fmt.Errorf("program %q is a directory, not a program", program)
	case runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0:
		return "", fmt.Errorf("program %q is not executable: chmod +x it", program)
	}
	return abs, nil
}

// env is the whole environment of a probe.
func (s *Sandbox) env() []string {
	home := filepath.Join(s.dir, "home")
	nowhere := filepath.Join(s.dir, "nowhere")
	env := []string{
		"HOME=" + home,
		"USERPROFILE=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"TMPDIR=" + filepath.Join(s.dir, "tmp"),
		"LANG=C", "LC_ALL=C",
		"TERM=dumb", "NO_COLOR=1", "CLICOLOR=0", "COLUMNS=100",
		"PAGER=cat", "GIT_PAGER=cat", "MANPAGER=cat",
		"GIT_TERMINAL_PROMPT=0", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + nowhere,
		"KUBECONFIG=" + nowhere,
		"DOCKER_HOST=unix://" + nowhere,
		"DOCKER_CONFIG=" + nowhere,
		"PGHOST=" + nowhere, "PGCONNECT_TIMEOUT=1",
		"CHECKPOINT_DISABLE=1", // terraform's version check
	}
	// The program may need PATH to find its helpers (git's git-*, cargo's
	// rustc), and Windows cannot start a process without SYSTEMROOT.
	// rustup's proxies (cargo, rustc) need its toolchains, which hold no
	// credentials (CARGO_HOME may: it stays in the temporary HOME).
	for _, k := range []string{"PATH", "SYSTEMROOT", "PATHEXT", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	if _, ok := os.LookupEnv("RUSTUP_HOME"); !ok {
		if home, err := os.UserHomeDir(); err == nil {
			if fi, err := os.Stat(filepath.Join(home, ".rustup")); err == nil && fi.IsDir() {
				env = append(env, "RUSTUP_HOME="+filepath.Join(home, ".rustup"))
			}
		}
	}
	return env
}

// An outputLimit counts the bytes of a probe's streams together and
// calls full once when they pass max. exec copies each stream in its own
// goroutine, hence the lock.
type outputLimit struct {
	mu      sync.Mutex
	written int
	max     int
	hit     bool
	full    func()
}

// writer returns a writer into buf that counts against the limit and drops
// what goes past it.
func (l *outputLimit) writer(buf *bytes.Buffer) io.Writer {
	return writerFunc(func(p []byte) (int, error) {
		l.mu.Lock()
		defer l.mu.Unlock()
		n := min(max(l.max-l.written, 0), len(p))
		buf.Write(p[:n])
		l.written += n
		if n < len(p) && !l.hit {
			l.hit = true
			l.full()
		}
		return len(p), nil
	})
}

func (l *outputLimit) exceeded() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.hit
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// Run runs the program with args and returns what it printed. It never
// returns before the program's process group is gone or abandoned.
//
// A probe that times out before the program has answered any is run once
// more with three times the limit: an interpreter's cold start (python
// behind a pyenv shim, node) on a loaded machine can take longer than the
// limit once, while a program that hangs hangs again. Once the program
// has answered within the limit, or after that one retry, a timeout is
// final (a subcommand that waits for a display, as git's gui tools may,
// costs one time limit, not four).
func (s *Sandbox) Run(ctx context.Context, args ...string) Output {
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	out := s.run(ctx, timeout, args)
	if out.TimedOut && ctx.Err() == nil && !s.answered.Load() && s.retried.CompareAndSwap(false, true) {
		out = s.run(ctx, slowStartFactor*timeout, args)
	}
	if !out.TimedOut {
		s.answered.Store(true)
	}
	return out
}

// run runs one probe with the time limit timeout.
func (s *Sandbox) run(ctx context.Context, timeout time.Duration, args []string) Output {
	capBytes := s.OutputCap
	if capBytes <= 0 {
		capBytes = DefaultOutputCap
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	floodCtx, flood := context.WithCancel(ctx)
	defer flood()

	out := Output{Args: append([]string{filepath.Base(s.Program)}, args...), ExitCode: -1}
	cmd := exec.CommandContext(floodCtx, s.Program, args...)
	cmd.Dir = filepath.Join(s.dir, "cwd")
	cmd.Env = s.env()
	cmd.Stdin = nil // the null device
	var stdout, stderr bytes.Buffer
	limit := &outputLimit{max: capBytes, full: flood}
	cmd.Stdout, cmd.Stderr = limit.writer(&stdout), limit.writer(&stderr)
	setProcessGroup(cmd)
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	out.Stdout, out.Stderr = stdout.String(), stderr.String()
	switch {
	case limit.exceeded():
		out.Flooded = true
	case ctx.Err() != nil:
		out.TimedOut = true
	case err == nil:
		out.ExitCode = 0
	default:
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.Exited() {
			out.ExitCode = ee.ExitCode()
		} else if !errors.As(err, &ee) {
			out.Err = err
		}
	}
	return out
}
