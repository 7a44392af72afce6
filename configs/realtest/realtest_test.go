package realtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/climax-mcp/climax/configs"
	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
)

// A call is one tool call of a suite and what its result must show.
type call struct {
	tool string
	args map[string]any
	// exit is the exit code the program must return; [failed] means any
	// non-zero code (where versions of the program differ).
	exit int
	// want lists texts the result text must contain.
	want []string
	// refused, when set, means the call must be refused before anything
	// runs, with a message containing this text.
	refused string
	// before runs first (edit a file, make a conflict...).
	before func(t *testing.T)
	// check runs after the call (a refused one too), for assertions on
	// files or on what a fake server received.
	check func(t *testing.T, out executor.Outcome)
	// skip, when set, says why this call cannot run here.
	skip string
}

// A suite proves one bundled config: prepare builds the sandbox (files,
// servers, environment) and calls lists the calls, run in order. Every
// tool of the config must appear in at least one call.
type suite struct {
	config string
	// needs lists programs the sandbox needs besides the config's own.
	needs []string
	// prepare builds the sandbox; it may set environment variables with
	// t.Setenv and skip tools with sb.skipTool.
	prepare func(t *testing.T, sb *sandbox)
	// calls returns the calls for sb. It is also called on an empty
	// sandbox to check coverage, so it must only build values.
	calls func(sb *sandbox) []call
}

var suites = map[string]*suite{}

// failed as a call's exit means any non-zero exit code.
const failed = -1

// register adds a suite; each suite file calls it from init.
func register(s *suite) {
	if _, dup := suites[s.config]; dup {
		panic("two suites for " + s.config)
	}
	suites[s.config] = s
}

// sandbox is where one suite's calls run.
type sandbox struct {
	// dir is the suite's temporary directory; HOME is dir/home.
	dir string
	// url is the base URL of the suite's local server, if it has one.
	url string
	// rec holds the requests the suite's fake server received.
	rec *recorder
	// skipped holds tools that cannot run here, with the reason.
	skipped map[string]string
	// env is the environment the test started with, before any Setenv.
	env []string
}

// path joins elem to the sandbox directory.
func (sb *sandbox) path(elem ...string) string {
	return filepath.Join(append([]string{sb.dir}, elem...)...)
}

// skipTool marks tools that cannot run here, e.g. a missing plugin.
func (sb *sandbox) skipTool(reason string, tools ...string) {
	for _, t := range tools {
		sb.skipped[t] = reason
	}
}

// run runs a setup command in dir and fails the test if it fails.
func run(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("setup: %s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// write creates a file (and its directories) with content.
func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// stats counts one config's tools.
type stats struct {
	config               string
	total                int
	run, passed, skipped int
	note                 string
}

func (s stats) String() string {
	tools := "tools:"
	if s.total == 1 {
		tools = "tool:"
	}
	line := fmt.Sprintf("%-8s %3d %-6s %3d run, %3d passed, %3d skipped", s.config, s.total, tools, s.run, s.passed, s.skipped)
	if s.note != "" {
		line += " (" + s.note + ")"
	}
	return line
}

// A summary line counts one tool in the singular and keeps the columns
// of the others.
func TestStatsString(t *testing.T) {
	one := stats{config: "pass", total: 1, run: 1, passed: 1}.String()
	many := stats{config: "git", total: 68, run: 60, passed: 60, skipped: 8}.String()
	if want := "pass       1 tool:    1 run,   1 passed,   0 skipped"; one != want {
		t.Errorf("one tool: %q, want %q", one, want)
	}
	if want := "git       68 tools:  60 run,  60 passed,   8 skipped"; many != want {
		t.Errorf("68 tools: %q, want %q", many, want)
	}
}

// TestBundledTools runs every tool of every bundled config against the real
// program (see the package documentation).
func TestBundledTools(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real programs; not with -short")
	}
	env := os.Environ()
	names, err := config.BundledNames(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	var report []string
	for _, name := range names {
		st := &stats{config: name}
		t.Run(name, func(t *testing.T) { runSuite(t, name, env, st) })
		report = append(report, st.String())
	}
	t.Log("real programs:\n" + strings.Join(report, "\n"))
	if f := os.Getenv("CLIMAX_REALTEST_REPORT"); f != "" {
		if err := os.WriteFile(f, []byte(strings.Join(report, "\n")+"\n"), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// TestSuitesCoverEveryTool checks, without running anything, that every
// bundled tool has a call and every call names a bundled tool.
func TestSuitesCoverEveryTool(t *testing.T) {
	names, err := config.BundledNames(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		c, err := config.LoadFS(configs.FS, name+".yaml")
		if err != nil {
			t.Fatal(err)
		}
		s := suites[name]
		if s == nil {
			t.Errorf("bundled config %s has no suite: add one in %s_test.go", name, name)
			continue
		}
		covered := map[string]bool{}
		for _, c := range s.calls(&sandbox{skipped: map[string]string{}}) {
			covered[c.tool] = true
		}
		for _, tool := range c.Tools {
			if !covered[tool.Name] {
				t.Errorf("%s: tool %s has no call in the suite", name, tool.Name)
			}
			delete(covered, tool.Name)
		}
		for tool := range covered {
			t.Errorf("%s: the suite calls %s, which the config does not have", name, tool)
		}
	}
	for name := range suites {
		if _, err := config.LoadFS(configs.FS, name+".yaml"); err != nil {
			t.Errorf("suite %s has no bundled config: %v", name, err)
		}
	}
}

// bundledIndex returns the index of the bundled config name under policy
// (nil for none).
func bundledIndex(t *testing.T, name string, policy *config.Policy) *index.Index {
	t.Helper()
	c, err := config.LoadFS(configs.FS, name+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	ix, _, err := index.New([]*config.Config{c}, policy)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func runSuite(t *testing.T, name string, env []string, st *stats) {
	c, err := config.LoadFS(configs.FS, name+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	st.total = len(c.Tools)
	// The programs run without approval questions (--confirm none): the
	// write tools of configs that declare risk would otherwise ask.
	ix, _, err := index.New([]*config.Config{c}, config.WithConfirm(nil, config.ConfirmNone))
	if err != nil {
		t.Fatal(err)
	}
	s := suites[name]
	if s == nil {
		st.skipped, st.note = st.total, "no suite"
		t.Skipf("no suite for %s (TestSuitesCoverEveryTool reports it)", name)
	}
	skipAll := func(reason string) {
		st.skipped, st.note = st.total, reason
		t.Skipf("%s: every tool skipped: %s", name, reason)
	}
	if _, err := executor.FindProgram(c); err != nil {
		skipAll(fmt.Sprintf("%s not installed: %v", executor.BaseCommand(c)[0], err))
	}
	for _, p := range s.needs {
		if _, err := exec.LookPath(p); err != nil {
			skipAll(p + " not installed")
		}
	}

	sb := &sandbox{dir: t.TempDir(), skipped: map[string]string{}, env: env}
	home := sb.path("home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	s.prepare(t, sb)

	runner := executor.New(executor.WithGracePeriod(time.Second))
	ran := map[string]bool{}
	failed := map[string]bool{}
	var notes []string
	for _, cl := range s.calls(sb) {
		reason := cl.skip
		if reason == "" {
			reason = sb.skipped[cl.tool]
		}
		if reason != "" {
			if !slices.Contains(notes, reason) {
				notes = append(notes, reason)
			}
			t.Logf("skip %s: %s", cl.tool, reason)
			continue
		}
		ran[cl.tool] = true
		if !t.Run(cl.tool, func(t *testing.T) { runCall(t, runner, ix, cl) }) {
			failed[cl.tool] = true
		}
	}
	st.run = len(ran)
	st.passed = len(ran) - len(failed)
	st.skipped = st.total - len(ran)
	st.note = strings.Join(notes, "; ")
}

// callTool runs cl's before hook, then calls its tool from ix, with ten
// seconds beyond the tool's own timeout.
func callTool(t *testing.T, runner *executor.Runner, ix *index.Index, cl call) (*config.ResolvedTool, executor.Outcome) {
	t.Helper()
	rt, ok := ix.Get(cl.tool)
	if !ok {
		t.Fatalf("%s is not served", cl.tool)
	}
	if cl.before != nil {
		cl.before(t)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(rt.Tool.Timeout*float64(time.Second))+10*time.Second)
	defer cancel()
	return rt, runner.Call(ctx, rt, cl.args)
}

func runCall(t *testing.T, runner *executor.Runner, ix *index.Index, cl call) {
	rt, out := callTool(t, runner, ix, cl)
	t.Logf("argv: %q", out.Argv)
	if cl.refused != "" {
		if out.Result != nil || !out.IsError || !strings.Contains(out.Text, cl.refused) {
			t.Fatalf("want the call refused with %q; got:\n%s", cl.refused, out.Text)
		}
		if cl.check != nil {
			cl.check(t, out)
		}
		return
	}
	if out.Result == nil {
		t.Fatalf("did not run: %s", out.Text)
	}
	if cl.exit == failed {
		if out.Result.ExitCode == 0 {
			t.Errorf("exit code 0, want a failure; result:\n%s", out.Text)
		}
	} else if out.Result.ExitCode != cl.exit {
		t.Errorf("exit code %d, want %d; result:\n%s", out.Result.ExitCode, cl.exit, out.Text)
	} else if ok := rt.Tool.SuccessExit(out.Result.ExitCode); out.IsError == ok {
		t.Errorf("exit code %d gives isError %v, want %v (success_exit_codes %v):\n%s", out.Result.ExitCode, out.IsError, !ok, rt.Tool.SuccessExitCodes, out.Text)
	}
	for _, w := range cl.want {
		if !strings.Contains(out.Text, w) {
			t.Errorf("result lacks %q:\n%s", w, out.Text)
		}
	}
	if cl.check != nil {
		cl.check(t, out)
	}
}

// recorder keeps the requests a fake server received.
type recorder struct {
	mu   sync.Mutex
	reqs []request
}

// request is one recorded HTTP request.
type request struct {
	Method, Path, Query string
	Header              map[string][]string
	Body                string
}

func (r *recorder) add(q request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, q)
}

// since returns the requests recorded after the first n.
func (r *recorder) since(n int) []request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.reqs[min(n, len(r.reqs)):])
}

func (r *recorder) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reqs)
}

// find returns the last recorded request with this method whose path
// contains pathPart.
func (r *recorder) find(method, pathPart string) (request, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.reqs) - 1; i >= 0; i-- {
		q := r.reqs[i]
		if q.Method == method && strings.Contains(q.Path, pathPart) {
			return q, true
		}
	}
	return request{}, false
}

// a is shorthand for a call's arguments.
type a = map[string]any

// fileHas returns a check that path's content contains every text.
func fileHas(path string, texts ...string) func(t *testing.T, _ executor.Outcome) {
	return func(t *testing.T, _ executor.Outcome) {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range texts {
			if !strings.Contains(string(data), s) {
				t.Errorf("%s lacks %q:\n%s", path, s, data)
			}
		}
	}
}

// fileIs checks that the file at path holds exactly content.
func fileIs(path, content string) func(t *testing.T, _ executor.Outcome) {
	return func(t *testing.T, _ executor.Outcome) {
		t.Helper()
		if data, err := os.ReadFile(path); err != nil || string(data) != content {
			t.Errorf("%s = %q, %v; want %q", path, data, err, content)
		}
	}
}

// exists returns a check that path exists (or, with want false, does not).
func exists(path string, want bool) func(t *testing.T, _ executor.Outcome) {
	return func(t *testing.T, _ executor.Outcome) {
		t.Helper()
		_, err := os.Stat(path)
		if got := err == nil; got != want {
			t.Errorf("%s exists: %v, want %v", path, got, want)
		}
	}
}

// outcome is the result of a call.
type outcome = executor.Outcome

// mkdir returns a before hook that creates dir.
func mkdir(dir string) func(t *testing.T) {
	return func(t *testing.T) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// readFile returns a file's content.
func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// lacks returns a check that the result text contains none of texts.
func lacks(texts ...string) func(t *testing.T, out executor.Outcome) {
	return func(t *testing.T, out executor.Outcome) {
		t.Helper()
		for _, text := range texts {
			if strings.Contains(out.Text, text) {
				t.Errorf("result contains %q:\n%s", text, out.Text)
			}
		}
	}
}
