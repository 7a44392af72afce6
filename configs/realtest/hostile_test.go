package realtest

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/climax-mcp/climax/configs"
	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
)

// A hostile fixture is a set of files written to attack the read-only
// tools of one bundled config (docs/security.md, Read-only tools): if a
// tool ran the code they hold, that code would create a file in the
// canary directory. Each fixture also runs the program the way the tools
// must not (a control), to prove that its attacks are live: a control
// must create its canary.
type hostile struct {
	config string
	// needs lists programs the fixture needs besides the config's own.
	needs []string
	// workdir is the directory of the fixture (relative to its root) where
	// the default calls run.
	workdir string
	// prepare writes the files under dir and sets the environment. Attack
	// code creates a file in canaries.
	prepare func(t *testing.T, dir, canaries string)
	// controls run the program directly: each must create the named
	// canary.
	controls func(dir string) []control
	// calls are read-only calls beyond the default call of every
	// read-only tool (hostileArgs).
	calls func(dir string) []call
	// unsafe are calls of tools that are not read-only, made through an
	// index without --read-only, that must still leave the canaries
	// alone (a value must not become an option).
	unsafe func(dir string) []call
}

// A control is a command run directly, outside climax, in dir.
type control struct {
	canary []string // the files it must create in the canary directory
	dir    string   // where it runs
	env    []string // added to the environment
	argv   []string
	// stop, when set, ends the command after this long: long enough to
	// have run the attack, for a program that would go on (retrying an
	// API that is not there).
	stop time.Duration
}

// hostileArgs returns the arguments of the default call of a read-only
// tool on a fixture: its cwd arg set to dir, plus the values of
// required args (values, by tool and arg).
func hostileArgs(t *testing.T, tool *config.Tool, dir string, values map[string]any) map[string]any {
	args := map[string]any{}
	for _, a := range tool.Args {
		switch {
		case a.Cwd:
			args[a.Name] = dir
		case a.Required:
			v, ok := values[tool.Name+"."+a.Name]
			if !ok {
				t.Fatalf("%s: give a value for its required arg %s in the fixture's values", tool.Name, a.Name)
			}
			args[a.Name] = v
		}
	}
	return args
}

var hostiles = []*hostile{hostileGit, hostileGh, hostileGo, hostileGofmt, hostileMake, hostileCargo, hostileNpm, hostileRg, hostileJq, hostileClaude, hostileAws, hostileTar, hostileFind, hostilePsql}

// hostileValues are the values of required args in default calls.
var hostileValues = map[string]any{
	"git_config_get.key":  "core.fsmonitor",
	"git_blame.file":      "x.bin",
	"git_grep.pattern":    "one",
	"go_doc.symbol":       "F",
	"go_mod_why.target":   "example.com/hostile",
	"npm_explain.package": "left-pad",
	"npm_view.package":    "left-pad",
	"rg_search.pattern":   "one",
	"jq_query.filter":     ".",
	"claude_mcp_get.name": "evil",
	"claude_ask.prompt":   "hello",
	"aws_s3_presign.path": "s3://fixture-bucket/key",
	"aws_logs_tail.group": "fixture-group",
	"tar_list.archive":    "evil.tar",
	"gh_issue_view.issue": "1",
	"gh_run_view.run_id":  "1",
	"gh_api.endpoint":     "repos/{owner}/{repo}/pulls",
}

// TestReadOnlyToolsOnHostileFiles runs every read-only tool of the configs
// above, served as under `climax run --read-only`, on files written to
// make it run the attacker's code, and checks that none of that code ran.
// It also checks that the tools that are not read-only because their
// program runs a project's code are not served under --read-only.
func TestReadOnlyToolsOnHostileFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real programs; not with -short")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the fixtures' attack code is shell scripts")
	}
	env := os.Environ()
	for _, h := range hostiles {
		t.Run(h.config, func(t *testing.T) { runHostile(t, h, env) })
	}
}

func runHostile(t *testing.T, h *hostile, env []string) {
	c, err := config.LoadFS(configs.FS, h.config+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	ro, _, err := index.New([]*config.Config{c}, config.ReadOnlyPolicy(nil))
	if err != nil {
		t.Fatal(err)
	}
	all, _, err := index.New([]*config.Config{c}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := executor.FindProgram(c); err != nil {
		t.Skipf("%s not installed: %v", executor.BaseCommand(c)[0], err)
	}
	for _, p := range h.needs {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s not installed", p)
		}
	}
	dir := t.TempDir()
	canaries := filepath.Join(dir, "canaries")
	if err := os.MkdirAll(canaries, 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("RUSTUP_HOME") == "" {
		if old := envValue(env, "HOME"); old != "" {
			t.Setenv("RUSTUP_HOME", filepath.Join(old, ".rustup"))
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	h.prepare(t, dir, canaries)

	// The controls: the attacks work on the program itself.
	if h.controls != nil {
		for _, ctl := range h.controls(dir) {
			runControl(t, ctl, canaries)
		}
	}

	runner := executor.New(executor.WithGracePeriod(time.Second))
	var calls []call
	var readOnly []string
	for _, tool := range c.Tools {
		if !tool.IsReadOnly() {
			if _, served := ro.Get(tool.Name); served {
				t.Errorf("%s is not annotated read_only, yet --read-only serves it", tool.Name)
			}
			continue
		}
		readOnly = append(readOnly, tool.Name)
		calls = append(calls, call{tool: tool.Name, args: hostileArgs(t, &tool, filepath.Join(dir, h.workdir), hostileValues)})
	}
	if h.calls != nil {
		calls = append(calls, h.calls(dir)...)
	}
	for _, cl := range calls {
		if !slices.Contains(readOnly, cl.tool) {
			t.Fatalf("the fixture calls %s, which is not read-only: put it in unsafe", cl.tool)
		}
		hostileCall(t, runner, ro, cl, canaries)
	}
	if h.unsafe != nil {
		for _, cl := range h.unsafe(dir) {
			if slices.Contains(readOnly, cl.tool) {
				t.Fatalf("%s is read-only: put it in calls", cl.tool)
			}
			hostileCall(t, runner, all, cl, canaries)
		}
	}
	t.Logf("%s: %d read-only tools called on the fixture: %s", h.config, len(readOnly), strings.Join(readOnly, " "))
}

// runControl runs ctl and checks that it created its canaries, then
// removes every canary.
func runControl(t *testing.T, ctl control, canaries string) {
	t.Helper()
	limit := 5 * time.Minute
	if ctl.stop > 0 {
		limit = ctl.stop
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, ctl.argv[0], ctl.argv[1:]...)
	cmd.WaitDelay = time.Second
	cmd.Dir = ctl.dir
	cmd.Env = append(os.Environ(), ctl.env...)
	out, _ := cmd.CombinedOutput() // many attacks make the program fail
	for _, name := range ctl.canary {
		if _, err := os.Stat(filepath.Join(canaries, name)); err != nil {
			t.Fatalf("control %q (env %q) in %s did not create the canary %s, so the fixture proves nothing; output:\n%s", ctl.argv, ctl.env, ctl.dir, name, out)
		}
	}
	entries, err := os.ReadDir(canaries)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.Remove(filepath.Join(canaries, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
}

// hostileCall makes one call through ix, checks its refusal, want and
// check (its exit code is not checked: many calls fail on the fixture),
// and that the canary directory is still empty.
func hostileCall(t *testing.T, runner *executor.Runner, ix *index.Index, cl call, canaries string) {
	t.Helper()
	_, out := callTool(t, runner, ix, cl)
	t.Logf("%s %v: argv %q: %.300s", cl.tool, cl.args, out.Argv, out.Text)
	switch {
	case cl.refused != "" && (out.Result != nil || !strings.Contains(out.Text, cl.refused)):
		t.Errorf("%s: want the call refused with %q; got:\n%s", cl.tool, cl.refused, out.Text)
	case cl.refused == "" && out.Result == nil:
		t.Errorf("%s did not run: %s", cl.tool, out.Text)
	}
	for _, w := range cl.want {
		if !strings.Contains(out.Text, w) {
			t.Errorf("%s: result lacks %q:\n%s", cl.tool, w, out.Text)
		}
	}
	if cl.check != nil {
		cl.check(t, out)
	}
	assertNoCanary(t, canaries, fmt.Sprintf("%s %v (argv %q)", cl.tool, cl.args, out.Argv))
}

// assertNoCanary fails when the canary directory holds a file, naming
// what was just run.
func assertNoCanary(t *testing.T, canaries, what string) {
	t.Helper()
	entries, err := os.ReadDir(canaries)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("%s ran the fixture's code: canary %s was created", what, e.Name())
		os.Remove(filepath.Join(canaries, e.Name()))
	}
}

// script writes an executable shell script that creates the canary name
// and then runs tail (a shell command line, may be empty).
func script(t *testing.T, path, canaries, name, tail string) string {
	t.Helper()
	write(t, path, fmt.Sprintf("#!/bin/sh\ntouch '%s'\n%s\n", filepath.Join(canaries, name), tail))
	if err := os.Chmod(path, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// touch is the shell command that creates the canary name.
func touch(canaries, name string) string {
	return fmt.Sprintf("touch '%s'", filepath.Join(canaries, name))
}

// The git fixture: a clone of a repository that commits a bare repository
// (evil.git, whose config names a core.fsmonitor command, diff drivers,
// a work tree and a core.alternateRefsCommand, and which has hooks, the
// ones a push runs there included), with a .gitattributes that puts the
// files under those diff drivers. The clone's own .git gets the same
// settings and a hook too, as a .git that came from elsewhere would, to
// prove each defence on its own: safe.bareRepository=explicit,
// core.fsmonitor=false, core.hooksPath=/dev/null, --no-ext-diff,
// --no-textconv and, for git_push, protocol.file.allow=never.
var hostileGit = &hostile{
	config:  "git",
	workdir: "clone",
	prepare: func(t *testing.T, dir, canaries string) {
		src := filepath.Join(dir, "src")
		run(t, dir, "git", "init", "--quiet", src)
		write(t, filepath.Join(src, "f.txt"), "one\n")
		write(t, filepath.Join(src, "x.bin"), "bin one\n")
		write(t, filepath.Join(src, ".gitattributes"), "*.txt diff=evil filter=evil\n*.bin diff=tc\n")
		evilGit := filepath.Join(src, "evil.git")
		run(t, dir, "git", "init", "--quiet", "--bare", evilGit)
		write(t, filepath.Join(evilGit, "refs", ".keep"), "")
		run(t, dir, "git", "--git-dir="+evilGit, "config", "core.bare", "false")
		run(t, dir, "git", "--git-dir="+evilGit, "config", "core.worktree", "..")
		// The embedded repository tracks f.txt too, so that a status there
		// compares it through its clean filter, which only its own config
		// defines: only safe.bareRepository=explicit stops that one.
		run(t, evilGit, "git", "add", "../f.txt")
		run(t, evilGit, "git", "-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "--quiet", "-m", "embedded")
		run(t, dir, "git", "--git-dir="+evilGit, "config", "filter.evil.clean", touch(canaries, "embedded-filter")+"; cat")
		arm := func(gitDir, tag string) {
			for _, kv := range [][2]string{
				{"core.fsmonitor", touch(canaries, tag+"-fsmonitor") + "; false"},
				{"diff.evil.command", touch(canaries, tag+"-ext-diff")},
				{"diff.tc.textconv", touch(canaries, tag+"-textconv") + "; cat"},
			} {
				run(t, dir, "git", "--git-dir="+gitDir, "config", kv[0], kv[1])
			}
			script(t, filepath.Join(gitDir, "hooks", "post-index-change"), canaries, tag+"-hook", "")
		}
		arm(evilGit, "embedded")
		// A push to evil.git runs receive-pack there, with evil.git's
		// hooks and config: git gives that side none of the pusher's -c
		// settings. receive-pack runs core.alternateRefsCommand (for the
		// alternate object store named in objects/info/alternates) on
		// every push, a dry run included.
		for _, h := range receiveHooks {
			script(t, filepath.Join(evilGit, "hooks", h), canaries, "embedded-"+h, "")
		}
		alt := filepath.Join(dir, "alt.git")
		run(t, dir, "git", "init", "--quiet", "--bare", alt)
		write(t, filepath.Join(evilGit, "objects", "info", "alternates"), filepath.Join(alt, "objects")+"\n")
		run(t, dir, "git", "--git-dir="+evilGit, "config", "core.alternateRefsCommand", touch(canaries, "embedded-alternate-refs")+"; true")
		run(t, src, "git", "add", "--all")
		run(t, src, "git", "-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "--quiet", "-m", "one")
		write(t, filepath.Join(src, "f.txt"), "one\ntwo\n")
		write(t, filepath.Join(src, "x.bin"), "bin one\nbin two\n")
		run(t, src, "git", "-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "--quiet", "-am", "two")

		clone := filepath.Join(dir, "clone")
		run(t, dir, "git", "clone", "--quiet", src, clone)
		if _, err := os.Stat(filepath.Join(clone, "evil.git", "config")); err != nil {
			t.Fatalf("the clone lacks the embedded repository: %v", err)
		}
		run(t, clone, "git", "config", "user.name", "A")
		run(t, clone, "git", "config", "user.email", "a@example.com")
		write(t, filepath.Join(clone, "f.txt"), "one\ntwo\nstashed\n")
		write(t, filepath.Join(clone, "x.bin"), "bin one\nbin two\nstashed\n")
		run(t, clone, "git", "stash", "--quiet")
		arm(filepath.Join(clone, ".git"), "clone")
		run(t, clone, "git", "branch", "feature")
		write(t, filepath.Join(clone, "f.txt"), "one\ntwo\nthree\n")
		write(t, filepath.Join(clone, "x.bin"), "bin one\nbin two\nbin three\n")
		// A file whose stat data changed makes git status refresh and write
		// the index, which runs post-index-change.
		old := time.Now().Add(-time.Hour)
		os.Chtimes(filepath.Join(clone, ".gitattributes"), old, old)
	},
	controls: func(dir string) []control {
		clone := filepath.Join(dir, "clone")
		evil := filepath.Join(clone, "evil.git")
		off := []string{"git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null"}
		return []control{
			// First, while the index still needs refreshing.
			{canary: []string{"clone-hook"}, dir: clone, argv: []string{"git", "-c", "core.fsmonitor=false", "status"}},
			{canary: []string{"embedded-fsmonitor"}, dir: evil, argv: []string{"git", "-c", "core.hooksPath=/dev/null", "status"}},
			{canary: []string{"clone-fsmonitor"}, dir: clone, argv: []string{"git", "-c", "core.hooksPath=/dev/null", "status"}},
			{canary: []string{"embedded-filter"}, dir: evil, argv: append(off, "diff", "--no-ext-diff", "--no-textconv")},
			{canary: []string{"clone-ext-diff", "clone-textconv"}, dir: clone, argv: append(off, "diff")},
			{canary: []string{"clone-textconv"}, dir: clone, argv: append(off, "log", "-p", "--no-ext-diff")},
			{canary: []string{"clone-textconv"}, dir: clone, argv: append(off, "blame", "x.bin")},
			// A push to the embedded repository runs its hooks whatever the
			// pusher's settings.
			{canary: append(embeddedReceiveCanaries(), "embedded-alternate-refs"), dir: clone, argv: append(off, "-c", "safe.bareRepository=explicit", "push", "./evil.git", "feature")},
		}
	},
	calls: func(dir string) []call {
		clone := filepath.Join(dir, "clone")
		evil := filepath.Join(clone, "evil.git")
		var calls []call
		for _, d := range []string{clone, evil} {
			calls = append(calls,
				call{tool: "git_log", args: a{"patch": true, "dir": d}},
				call{tool: "git_log", args: a{"stat": true, "all": true, "dir": d}},
				call{tool: "git_diff", args: a{"stat": true, "dir": d}},
				call{tool: "git_diff", args: a{"revision": "HEAD~1", "dir": d}},
				call{tool: "git_show", args: a{"object": "HEAD", "dir": d}},
				call{tool: "git_blame", args: a{"file": "f.txt", "dir": d}},
				call{tool: "git_stash_show", args: a{"dir": d}},
				call{tool: "git_tag_list", args: a{"dates": true, "sort": "-creatordate", "dir": d}},
				call{tool: "git_status", args: a{"short": true, "untracked": "all", "dir": d}, before: staleIndex(d)},
			)
		}
		return calls
	},
	// Tools that change a repository run its hooks, but never those of a
	// bare repository committed inside a clone: git does not use it, and
	// git_push refuses to push to it (or to any local path), since the
	// receiving side would run its hooks. Fetching from it runs
	// upload-pack there, which runs none of them.
	unsafe: func(dir string) []call {
		clone := filepath.Join(dir, "clone")
		evil := filepath.Join(clone, "evil.git")
		// Without feature in evil.git, a push that reached it would
		// create the branch, which runs every receive hook.
		noFeature := func(t *testing.T) {
			run(t, clone, "git", "--git-dir="+evil, "-c", "core.hooksPath=/dev/null", "update-ref", "-d", "refs/heads/feature")
		}
		withFeature := func(t *testing.T) {
			run(t, clone, "git", "--git-dir="+evil, "-c", "core.hooksPath=/dev/null", "update-ref", "refs/heads/feature", "HEAD")
		}
		refused := []string{"transport 'file' not allowed"}
		return []call{
			{tool: "git_add", args: a{"all": true, "dir": evil}, before: staleIndex(evil)},
			{tool: "git_commit", args: a{"message": "m", "all": true, "dir": evil}, before: staleIndex(evil)},
			{tool: "git_switch", args: a{"new_branch": "x", "dir": evil}},
			{tool: "git_push", args: a{"remote": "./evil.git", "branch": "feature", "dir": clone}, before: noFeature, want: refused},
			{tool: "git_push", args: a{"remote": "file://" + evil, "branch": "feature", "dir": clone}, before: noFeature, want: refused},
			{tool: "git_push", args: a{"remote": "./evil.git", "branch": "feature", "dry_run": true, "dir": clone}, before: noFeature, want: refused},
			{tool: "git_push", args: a{"remote": "./evil.git", "branch": "feature", "delete": true, "dir": clone}, before: withFeature, want: refused},
			{tool: "git_remote_add", args: a{"name": "embedded", "url": "evil.git", "dir": clone}},
			{tool: "git_push", args: a{"remote": "embedded", "branch": "feature", "set_upstream": true, "dir": clone}, before: noFeature, want: refused},
			{tool: "git_fetch", args: a{"remote": "embedded", "refspec": "HEAD", "dir": clone}, want: []string{"FETCH_HEAD"}},
			{tool: "git_clone", args: a{"url": evil, "directory": filepath.Join(dir, "cloned-embedded"), "dir": dir}, want: []string{"Cloning into"}},
		}
	},
}

// receiveHooks are the hooks git runs in the repository a push reaches.
var receiveHooks = []string{"pre-receive", "update", "post-receive", "post-update", "reference-transaction"}

// embeddedReceiveCanaries are the canaries of evil.git's receiveHooks.
func embeddedReceiveCanaries() []string {
	var names []string
	for _, h := range receiveHooks {
		names = append(names, "embedded-"+h)
	}
	return names
}

// The gh fixture is the git fixture's clone, with its fsmonitor, hooks,
// filters and diff drivers, and the bare repository committed inside it:
// gh runs git in the directory to find the repository a command (and
// gh_api's {owner}/{repo}) is about. The git controls prove the attacks
// live. gh is given a token for a host that refuses connections at once,
// so that it gets past its login check to that lookup without reaching
// any network.
var hostileGh = &hostile{
	config:  "gh",
	needs:   []string{"git"},
	workdir: "clone",
	prepare: func(t *testing.T, dir, canaries string) {
		hostileGit.prepare(t, dir, canaries)
		t.Setenv("GH_CONFIG_DIR", filepath.Join(dir, "gh-config"))
		t.Setenv("GH_HOST", "127.0.0.1:1")
		t.Setenv("GH_ENTERPRISE_TOKEN", "fixture-token")
		t.Setenv("GH_TOKEN", "")
		t.Setenv("GITHUB_TOKEN", "")
		t.Setenv("GH_PROMPT_DISABLED", "1")
	},
	controls: func(dir string) []control { return hostileGit.controls(dir) },
	calls: func(dir string) []call {
		evil := filepath.Join(dir, "clone", "evil.git")
		var calls []call
		for _, tool := range []string{"gh_repo_view", "gh_pr_list", "gh_pr_diff", "gh_issue_list", "gh_run_list"} {
			calls = append(calls, call{tool: tool, args: a{"dir": evil}, before: staleIndex(evil)})
		}
		return append(calls, call{tool: "gh_api", args: a{"endpoint": "repos/{owner}/{repo}", "dir": evil}, before: staleIndex(evil)})
	},
}

// staleIndex returns a before hook that changes the modification time of
// the work tree's files, so that the next git status refreshes the index
// (running a hook) and compares their content (running a clean filter).
func staleIndex(dir string) func(t *testing.T) {
	return func(t *testing.T) {
		if filepath.Base(dir) == "evil.git" {
			dir = filepath.Dir(dir)
		}
		at := time.Now().Add(-time.Duration(rand.IntN(1000)+1) * time.Minute)
		for _, f := range []string{".gitattributes", "f.txt"} {
			if err := os.Chtimes(filepath.Join(dir, f), at, at); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// The go fixture: a module whose go.mod has a toolchain line naming a Go
// that a "go1.99.0" program on PATH stands for (GOTOOLCHAIN=local+path
// would run it) and a //go:generate line, with GOFLAGS naming a -toolexec
// program in the environment.
var hostileGo = &hostile{
	config:  "go",
	workdir: "mod",
	prepare: func(t *testing.T, dir, canaries string) {
		mod := filepath.Join(dir, "mod")
		write(t, filepath.Join(mod, "go.mod"), "module example.com/hostile\n\ngo 1.21\n\ntoolchain go1.99.0\n")
		write(t, filepath.Join(mod, "hostile.go"), fmt.Sprintf("// Package hostile is a fixture.\npackage hostile\n\n//go:generate touch %q\n\n// F does nothing.\nfunc F() {}\n", filepath.Join(canaries, "generate")))
		bin := filepath.Join(dir, "bin")
		script(t, filepath.Join(bin, "go1.99.0"), canaries, "toolchain", "exit 1")
		toolexec := script(t, filepath.Join(bin, "toolexec"), canaries, "toolexec", `exec "$@"`)
		t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		t.Setenv("GOTOOLCHAIN", "local+path")
		t.Setenv("GOFLAGS", "-toolexec="+toolexec)
		t.Setenv("GOPROXY", "off")
		t.Setenv("GOWORK", "off")
		t.Setenv("GOPATH", filepath.Join(dir, "gopath"))
		t.Setenv("GOCACHE", filepath.Join(dir, "gocache"))
	},
	controls: func(dir string) []control {
		mod := filepath.Join(dir, "mod")
		return []control{
			{canary: []string{"toolchain"}, dir: mod, argv: []string{"go", "version"}},
			{canary: []string{"toolexec"}, dir: mod, env: []string{"GOTOOLCHAIN=local"}, argv: []string{"go", "vet", "./..."}},
			{canary: []string{"generate"}, dir: mod, env: []string{"GOTOOLCHAIN=local", "GOFLAGS="}, argv: []string{"go", "generate", "./..."}},
		}
	},
	calls: func(dir string) []call {
		mod := filepath.Join(dir, "mod")
		return []call{
			{tool: "go_vet", args: a{"packages": "./...", "dir": mod}},
			{tool: "go_list", args: a{"modules": true, "json": true, "dir": mod}},
			{tool: "go_doc", args: a{"symbol": "example.com/hostile", "all": true, "dir": mod}},
			{tool: "go_env", args: a{"variable": "GOVERSION", "dir": mod}, want: []string{"go1."}},
		}
	},
}

// The gofmt fixture is the go fixture's module (a toolchain line, a
// //go:generate line, GOFLAGS naming a -toolexec program): gofmt only
// parses Go source, and its read-only tools must leave every canary alone
// there too.
var hostileGofmt = &hostile{
	config:  "gofmt",
	workdir: "mod",
	prepare: func(t *testing.T, dir, canaries string) { hostileGo.prepare(t, dir, canaries) },
}

// The make fixture: a Makefile whose $(shell ...) and "+" recipe line
// `make --dry-run` runs. make has no read-only tool: the control proves
// why, and runHostile that --read-only serves none.
// A plain Makefile, which runs nothing of its own, then proves that
// make_dry_run's targets add no code and that it takes no variables: its
// goals reach a "+" line as $@, variables a $(shell ...) call, a $(MAKE)
// line and the environment of both, as in many real Makefiles. The
// controls run each attack on make itself; through make_dry_run a target
// is refused before make runs and a variable ignored.
var hostileMake = &hostile{
	config:  "make",
	workdir: "proj",
	prepare: func(t *testing.T, dir, canaries string) {
		write(t, filepath.Join(dir, "proj", "Makefile"), "X := $(shell "+touch(canaries, "make-shell")+")\n\nall:\n\t+"+touch(canaries, "make-plus")+"\n\techo built\n")
		write(t, filepath.Join(dir, "plain", "Makefile"), "V ?= 1\nVERSION := $(shell echo $(V))\n\nsub:\n\t$(MAKE) -f Makefile inner V=$(V)\n\ninner:\n\t@echo inner $(V) $(VERSION)\n\ngoal-%:\n\t+@echo goal $@\n")
		script(t, filepath.Join(dir, "evil-shell"), canaries, "make-var-shell", "")
		// make 4.3 expands a command line's "V:=$(shell ...)" before it
		// sets SHELL's default, so that attack needs SHELL in the
		// environment, as in a login session; CI's has none.
		t.Setenv("SHELL", "/bin/sh")
		// make exports a command line's variables to what it runs: a
		// PATH given runs this "make" for the $(MAKE) line.
		script(t, filepath.Join(dir, "fakebin", "make"), canaries, "make-var-path", "")
		// make matches goal-% against the part of a goal after its last
		// "/": the goal attack reaches the canaries without one.
		if err := os.Symlink(canaries, filepath.Join(dir, "plain", "canaries")); err != nil {
			t.Fatal(err)
		}
	},
	controls: func(dir string) []control {
		proj, plain := filepath.Join(dir, "proj"), filepath.Join(dir, "plain")
		canaries := filepath.Join(dir, "canaries")
		return []control{
			{canary: []string{"make-shell", "make-plus"}, dir: proj, argv: []string{"make", "--dry-run"}},
			{canary: []string{"make-goal"}, dir: plain, argv: []string{"make", "--dry-run", goalAttack}},
			{canary: []string{"make-var"}, dir: plain, argv: []string{"make", "--dry-run", "sub", "V=1;" + touch(canaries, "make-var")}},
			{canary: []string{"make-var-eval"}, dir: plain, argv: []string{"make", "--dry-run", "sub", "V:=$(shell " + touch(canaries, "make-var-eval") + ")"}},
			{canary: []string{"make-var-bang"}, dir: plain, argv: []string{"make", "--dry-run", "sub", "W!=" + touch(canaries, "make-var-bang")}},
			{canary: []string{"make-var-shell"}, dir: plain, argv: []string{"make", "--dry-run", "sub", "SHELL=" + filepath.Join(dir, "evil-shell")}},
			{canary: []string{"make-eval"}, dir: plain, argv: []string{"make", "--dry-run", "--eval=X:=$(shell " + touch(canaries, "make-eval") + ")", "sub"}},
			{canary: []string{"make-var-path"}, dir: plain, argv: []string{"make", "--dry-run", "sub", fakePath(dir)}},
		}
	},
	unsafe: func(dir string) []call {
		plain := filepath.Join(dir, "plain")
		canaries := filepath.Join(dir, "canaries")
		pattern, dash := []string{"does not match pattern"}, []string{"starts with '-'"}
		ignored := []string{"ignored argument 'variable'", "echo inner 1 1"}
		return []call{
			// The preview works with goals, and passes them on to the
			// sub-make.
			{tool: "make_dry_run", args: a{"target": []any{"sub", "goal-x"}, "dir": plain}, want: []string{"echo inner 1 1", "goal goal-x"}},
			{tool: "make_dry_run", args: a{"target": goalAttack, "dir": plain}, refused: "pattern", want: pattern},
			{tool: "make_dry_run", args: a{"target": "goal-$(shell " + touch(canaries, "make-goal") + ")", "dir": plain}, refused: "pattern", want: pattern},
			{tool: "make_dry_run", args: a{"target": "--eval=X:=$(shell " + touch(canaries, "make-eval") + ")", "dir": plain}, refused: "-", want: dash},
			{tool: "make_dry_run", args: a{"target": []any{"sub", "-f/etc/passwd"}, "dir": plain}, refused: "-", want: dash},
			// It takes no variables: each is ignored, with a note.
			{tool: "make_dry_run", args: a{"variable": "V=1;" + touch(canaries, "make-var"), "target": "sub", "dir": plain}, want: ignored},
			{tool: "make_dry_run", args: a{"variable": "V:=$(shell " + touch(canaries, "make-var-eval") + ")", "target": "sub", "dir": plain}, want: ignored},
			{tool: "make_dry_run", args: a{"variable": "W!=" + touch(canaries, "make-var-bang"), "target": "sub", "dir": plain}, want: ignored},
			{tool: "make_dry_run", args: a{"variable": "SHELL=" + filepath.Join(dir, "evil-shell"), "target": "sub", "dir": plain}, want: ignored},
			{tool: "make_dry_run", args: a{"variable": fakePath(dir), "target": "sub", "dir": plain}, want: ignored},
		}
	},
}

// fakePath is a make variable setting PATH to run the make fixture's
// fake "make" first.
func fakePath(dir string) string {
	return "PATH=" + filepath.Join(dir, "fakebin") + string(os.PathListSeparator) + os.Getenv("PATH")
}

// goalAttack is a make goal that, as $@ in a "+" recipe line, runs a
// second command.
const goalAttack = "goal-x;cd canaries;touch make-goal"

// The cargo fixture: a crate with a build.rs, a proc macro it uses and a
// .cargo/config.toml naming a rustc wrapper, and a directory whose
// rust-toolchain.toml names a toolchain by path; cargo has no read-only
// tool.
// A crate without them proves that cargo_tree's values stay values:
// invert "--package=c" and package `--config=build.rustc="..."` made
// cargo run that program as rustc while the flags took their value as a
// separate word.
var hostileCargo = &hostile{
	config: "cargo",
	prepare: func(t *testing.T, dir, canaries string) {
		t.Setenv("CARGO_HOME", filepath.Join(dir, "cargo-home"))
		t.Setenv("CARGO_TARGET_DIR", filepath.Join(dir, "target"))
		ws := filepath.Join(dir, "ws")
		write(t, filepath.Join(ws, "Cargo.toml"), "[workspace]\nmembers = [\"app\", \"pm\"]\nresolver = \"2\"\n")
		write(t, filepath.Join(ws, "app", "Cargo.toml"), "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\npm = { path = \"../pm\" }\n")
		write(t, filepath.Join(ws, "app", "build.rs"), fmt.Sprintf("fn main() {\n    std::fs::write(%q, \"\").unwrap();\n}\n", filepath.Join(canaries, "build-rs")))
		write(t, filepath.Join(ws, "app", "src", "main.rs"), "pm::evil!();\n\nfn main() {}\n")
		write(t, filepath.Join(ws, "pm", "Cargo.toml"), "[package]\nname = \"pm\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[lib]\nproc-macro = true\n")
		write(t, filepath.Join(ws, "pm", "src", "lib.rs"), fmt.Sprintf("use proc_macro::TokenStream;\n\n#[proc_macro]\npub fn evil(_: TokenStream) -> TokenStream {\n    std::fs::write(%q, \"\").unwrap();\n    TokenStream::new()\n}\n", filepath.Join(canaries, "proc-macro")))
		wrapper := script(t, filepath.Join(dir, "bin", "rustc-wrapper"), canaries, "rustc-wrapper", `exec "$@"`)
		write(t, filepath.Join(ws, ".cargo", "config.toml"), fmt.Sprintf("[build]\nrustc-wrapper = %q\n", wrapper))
		script(t, filepath.Join(dir, "bin", "evil-rustc"), canaries, "injected-rustc", "exit 1")
		// Under rustup, a rust-toolchain.toml may name a toolchain by path:
		// its cargo runs instead of the real one, for any cargo command.
		script(t, filepath.Join(dir, "toolchain", "bin", "cargo"), canaries, "rustup-toolchain", "exit 1")
		write(t, filepath.Join(dir, "pinned", "rust-toolchain.toml"), fmt.Sprintf("[toolchain]\npath = %q\n", filepath.Join(dir, "toolchain")))
		write(t, filepath.Join(dir, "plain", "Cargo.toml"), "[package]\nname = \"c\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
		write(t, filepath.Join(dir, "plain", "src", "main.rs"), "fn main() {}\n")
	},
	controls: func(dir string) []control {
		ws := filepath.Join(dir, "ws")
		plain := filepath.Join(dir, "plain")
		evil := fmt.Sprintf("--config=build.rustc=%q", filepath.Join(dir, "bin", "evil-rustc"))
		controls := []control{
			{canary: []string{"rustc-wrapper"}, dir: ws, argv: []string{"cargo", "tree"}},
			{canary: []string{"build-rs", "proc-macro"}, dir: ws, env: []string{"RUSTC_WRAPPER="}, argv: []string{"cargo", "check"}},
			// Its own target directory: cargo remembers what rustc answered
			// (a failure too) and would not run it again for the call.
			{canary: []string{"injected-rustc"}, dir: plain, env: []string{"CARGO_TARGET_DIR=" + filepath.Join(dir, "control-target")}, argv: []string{"cargo", "tree", "--invert", "--package=c", "--package", evil}},
		}
		if _, err := exec.LookPath("rustup"); err == nil {
			// Why even cargo_search is not read-only (with rustup only).
			controls = append(controls, control{canary: []string{"rustup-toolchain"}, dir: filepath.Join(dir, "pinned"), argv: []string{"cargo", "search", "serde"}})
		}
		return controls
	},
	unsafe: func(dir string) []call {
		plain := filepath.Join(dir, "plain")
		evil := fmt.Sprintf("--config=build.rustc=%q", filepath.Join(dir, "bin", "evil-rustc"))
		return []call{
			{tool: "cargo_tree", args: a{"invert": "--package=c", "package": evil, "dir": plain}},
			{tool: "cargo_check", args: a{"package": evil, "dir": plain}},
		}
	},
}

// The npm fixture: a package.json whose lifecycle scripts (and scripts
// named after the commands) would create canaries, and an .npmrc that
// names a script shell, a registry on a closed port and no retries.
var hostileNpm = &hostile{
	config:  "npm",
	workdir: "proj",
	prepare: func(t *testing.T, dir, canaries string) {
		proj := filepath.Join(dir, "proj")
		var scripts []string
		for _, s := range []string{"preinstall", "install", "postinstall", "prepare", "preprepare", "prels", "ls", "preaudit", "audit", "preoutdated", "outdated", "explain", "view", "pretest", "test"} {
			scripts = append(scripts, fmt.Sprintf("%q: %q", s, touch(canaries, "script-"+s)))
		}
		write(t, filepath.Join(proj, "package.json"), "{\n  \"name\": \"hostile\",\n  \"version\": \"1.0.0\",\n  \"scripts\": {"+strings.Join(scripts, ", ")+"},\n  \"dependencies\": {\"left-pad\": \"1.3.0\"}\n}\n")
		shell := script(t, filepath.Join(dir, "bin", "shell"), canaries, "script-shell", `exec /bin/sh "$@"`)
		write(t, filepath.Join(proj, ".npmrc"), "script-shell="+shell+"\nregistry=http://127.0.0.1:9/\nfetch-retries=0\nfetch-timeout=2000\naudit=true\nfund=false\n")
		// Tools without a dir run elsewhere: they must not reach the
		// registry either.
		t.Setenv("npm_config_registry", "http://127.0.0.1:9/")
		t.Setenv("npm_config_fetch_retries", "0")
		t.Setenv("npm_config_cache", filepath.Join(dir, "npm-cache"))
		t.Setenv("npm_config_userconfig", filepath.Join(dir, "home", ".npmrc"))
	},
	controls: func(dir string) []control {
		return []control{{canary: []string{"script-preinstall"}, dir: filepath.Join(dir, "proj"), argv: []string{"npm", "run", "preinstall"}}}
	},
	calls: func(dir string) []call {
		return []call{{tool: "npm_outdated", args: a{"all": true, "long": true, "dir": filepath.Join(dir, "proj")}}}
	},
}

// The rg fixture: a ripgrep config file, named by RIPGREP_CONFIG_PATH,
// that adds --pre with a program that would create the canary.
var hostileRg = &hostile{
	config:  "rg",
	workdir: "proj",
	prepare: func(t *testing.T, dir, canaries string) {
		pre := script(t, filepath.Join(dir, "bin", "pre"), canaries, "rg-pre", `exec cat "$1"`)
		write(t, filepath.Join(dir, "rgconfig"), "--pre="+pre+"\n")
		write(t, filepath.Join(dir, "proj", "a.txt"), "one\n")
		t.Setenv("RIPGREP_CONFIG_PATH", filepath.Join(dir, "rgconfig"))
	},
	controls: func(dir string) []control {
		return []control{{canary: []string{"rg-pre"}, dir: filepath.Join(dir, "proj"), argv: []string{"rg", "one"}}}
	},
	calls: func(dir string) []call {
		return []call{{tool: "rg_search", args: a{"pattern": "one", "dir": filepath.Join(dir, "proj")}, want: []string{"a.txt:1:one"}}}
	},
}

// The jq fixture checks the first step of a chained attack: climax's own
// settings (the audit log's path) must not be in a tool's environment,
// where $ENV shows them.
var hostileJq = &hostile{
	config: "jq",
	prepare: func(t *testing.T, dir, canaries string) {
		t.Setenv("CLIMAX_AUDIT_LOG", filepath.Join(dir, "audit.log"))
		t.Setenv("CLIMAX_POLICY", filepath.Join(dir, "policy.yaml"))
	},
	calls: func(dir string) []call {
		return []call{{tool: "jq_query", args: a{"filter": `[$ENV | keys[] | select(startswith("CLIMAX_"))]`, "input": "null", "compact": true}, want: []string{"[]"}}}
	},
}

// The claude fixture: a project whose .claude/settings.json has a
// SessionStart hook and whose .mcp.json names a stdio server, both
// commands that would create a canary. Claude Code in --print mode runs
// both before it asks the API anything (the control, with an API that is
// not there), so claude_ask is not read-only; mcp list and get leave the
// project's server pending approval.
var hostileClaude = &hostile{
	config:  "claude",
	workdir: "proj",
	prepare: func(t *testing.T, dir, canaries string) {
		proj := filepath.Join(dir, "proj")
		write(t, filepath.Join(proj, ".mcp.json"), fmt.Sprintf(`{"mcpServers": {"evil": {"command": "sh", "args": ["-c", %q]}}}`, touch(canaries, "claude-mcp")))
		write(t, filepath.Join(proj, ".claude", "settings.json"), fmt.Sprintf(`{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": %q}]}]}}`, touch(canaries, "claude-hook")))
		t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")
		t.Setenv("DISABLE_AUTOUPDATER", "1")
	},
	controls: func(dir string) []control {
		return []control{{canary: []string{"claude-hook", "claude-mcp"}, dir: filepath.Join(dir, "proj"), env: []string{"ANTHROPIC_API_KEY=sk-ant-fixture"}, stop: 20 * time.Second,
			argv: []string{"claude", "--print", "--permission-mode", "plan", "--max-turns", "1", "hello"}}}
	},
}

// The aws fixture: a project holding an AWS config whose
// credential_process runs the attacker's program. The AWS CLI reads its
// configuration from the home directory or the operator's AWS_CONFIG_FILE,
// never from the working directory: the control proves the config runs
// its program once named, and the read-only tools, run from the project
// directory (they have no working-directory arg), must not run it.
var hostileAws = &hostile{
	config:  "aws",
	workdir: "proj",
	prepare: func(t *testing.T, dir, canaries string) {
		proj := filepath.Join(dir, "proj")
		cred := script(t, filepath.Join(dir, "bin", "credential-process"), canaries, "aws-credential-process", "exit 1")
		write(t, filepath.Join(proj, ".aws", "config"), "[default]\nregion = us-east-1\ncredential_process = "+cred+"\n")
		for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE"} {
			unsetenv(t, k)
		}
		t.Setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")
		t.Setenv("AWS_REGION", "us-east-1")
		t.Setenv("AWS_DEFAULT_REGION", "us-east-1")
		t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
		t.Setenv("AWS_MAX_ATTEMPTS", "1")
		t.Chdir(proj)
	},
	controls: func(dir string) []control {
		proj := filepath.Join(dir, "proj")
		return []control{{canary: []string{"aws-credential-process"}, dir: proj, stop: 20 * time.Second,
			env:  []string{"AWS_CONFIG_FILE=" + filepath.Join(proj, ".aws", "config")},
			argv: []string{"aws", "sts", "get-caller-identity"}}}
	},
}

// The tar fixture: an archive whose members escape the directory it is
// extracted to (an absolute name, a name with "..", a file written
// through a symbolic link the archive itself creates), and the options
// that would run a program if a value could become one: a checkpoint
// action, a compression program, --to-command, and a remote shell for an
// archive named HOST:FILE (TAR_OPTIONS names one, as an rsh or ssh setup
// of the machine would). tar_list only lists: the escaping members are
// names, the values stay a file name and member names (--file=, after
// "--"), and --force-local keeps HOST:FILE a local file. tar_extract
// (not read-only) must not write outside its destination either.
var hostileTar = &hostile{
	config: "tar",
	prepare: func(t *testing.T, dir, canaries string) {
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		file := func(name string) {
			if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: 1, Typeflag: tar.TypeReg}); err != nil {
				t.Fatal(err)
			}
			tw.Write([]byte("x"))
		}
		link := func(name, target string) {
			if err := tw.WriteHeader(&tar.Header{Name: name, Linkname: target, Mode: 0o777, Typeflag: tar.TypeSymlink}); err != nil {
				t.Fatal(err)
			}
		}
		file(filepath.Join(canaries, "tar-absolute"))
		// Extracted in dir/out/x, as the control does.
		file("../../canaries/tar-dotdot")
		link("link", canaries)
		file("link/tar-symlink")
		file("plain.txt")
		if err := tw.Close(); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, "evil.tar"), buf.String())
		if err := os.MkdirAll(filepath.Join(dir, "out", "x"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"checkpoint", "compress", "to-command"} {
			script(t, filepath.Join(dir, "bin", name), canaries, "tar-"+name, "cat >/dev/null")
		}
		rsh := script(t, filepath.Join(dir, "bin", "rsh"), canaries, "tar-rsh", "exit 1")
		t.Setenv("TAR_OPTIONS", "--rsh-command="+rsh)
	},
	controls: func(dir string) []control {
		bin := filepath.Join(dir, "bin")
		return []control{
			{canary: []string{"tar-absolute", "tar-dotdot", "tar-symlink"}, dir: filepath.Join(dir, "out", "x"), argv: []string{"tar", "--extract", "--absolute-names", "--file=" + filepath.Join(dir, "evil.tar")}},
			{canary: []string{"tar-checkpoint"}, dir: dir, argv: []string{"tar", "--list", "--file=evil.tar", "--checkpoint=1", "--checkpoint-action=exec=" + filepath.Join(bin, "checkpoint")}},
			{canary: []string{"tar-compress"}, dir: dir, argv: []string{"tar", "--list", "--file=evil.tar", "--use-compress-program=" + filepath.Join(bin, "compress")}},
			{canary: []string{"tar-to-command"}, dir: filepath.Join(dir, "out"), argv: []string{"tar", "--extract", "--file=" + filepath.Join(dir, "evil.tar"), "--to-command=" + filepath.Join(bin, "to-command")}},
			{canary: []string{"tar-rsh"}, dir: dir, argv: []string{"tar", "--list", "--file=localhost:evil.tar"}},
		}
	},
	calls: func(dir string) []call {
		bin := filepath.Join(dir, "bin")
		return []call{
			{tool: "tar_list", args: a{"archive": "evil.tar", "verbose": true, "dir": dir}, want: []string{"tar-absolute", "../../canaries/tar-dotdot", "link/tar-symlink"}},
			{tool: "tar_list", args: a{"archive": "evil.tar", "member": []any{"--checkpoint=1", "--checkpoint-action=exec=" + filepath.Join(bin, "checkpoint"), "--to-command=" + filepath.Join(bin, "to-command")}, "dir": dir}},
			{tool: "tar_list", args: a{"archive": "--use-compress-program=" + filepath.Join(bin, "compress"), "dir": dir}},
			{tool: "tar_list", args: a{"archive": "-Ievil", "dir": dir}},
			{tool: "tar_list", args: a{"archive": "localhost:evil.tar", "dir": dir}, want: []string{"Cannot open"}},
		}
	},
	unsafe: func(dir string) []call {
		bin := filepath.Join(dir, "bin")
		return []call{
			{tool: "tar_extract", args: a{"archive": filepath.Join(dir, "evil.tar"), "destination": "into", "dir": filepath.Join(dir, "out", "x")}},
			{tool: "tar_extract", args: a{"archive": "evil.tar", "member": []any{"--to-command=" + filepath.Join(bin, "to-command"), "plain.txt"}, "destination": filepath.Join(dir, "out", "y"), "dir": dir}},
		}
	},
}

// The find fixture: a tree whose file names are find's actions and
// operators ("-fprint", "-delete", "-exec", ";", "("). A path that is an
// action writes a file (the control: find -fprint CANARY); find_files
// and find_delete refuse such a path and pass every other value as the
// value of its test, so no value or name acts, and the files are all still
// there.
var hostileFind = &hostile{
	config:  "find",
	workdir: "tree",
	prepare: func(t *testing.T, dir, canaries string) {
		for _, name := range []string{"-fprint", "-delete", "-exec", ";", "(", "a.txt"} {
			write(t, filepath.Join(dir, "tree", name), "x\n")
		}
		if err := os.Symlink(".", filepath.Join(dir, "tree", "loop")); err != nil {
			t.Fatal(err)
		}
	},
	controls: func(dir string) []control {
		return []control{{canary: []string{"find-fprint"}, dir: filepath.Join(dir, "tree"), argv: []string{"find", "-fprint", filepath.Join(dir, "canaries", "find-fprint")}}}
	},
	calls: func(dir string) []call {
		tree := filepath.Join(dir, "tree")
		fprint := filepath.Join(dir, "canaries", "find-fprint")
		calls := []call{
			{tool: "find_files", args: a{"path": "-fprint", "name": fprint, "dir": tree}, refused: "starts with '-'"},
			{tool: "find_files", args: a{"path": "(", "dir": tree}, refused: "does not match pattern"},
			{tool: "find_files", args: a{"newer_than": "-delete", "name": "-fprint", "path_glob": "-exec", "exclude_path": []any{"-fprint", fprint}, "exclude_name": ";", "dir": tree}},
		}
		for _, arg := range []string{"name", "iname", "path_glob", "size", "modified_after", "modified_days", "modified_minutes", "newer_than"} {
			calls = append(calls, call{tool: "find_files", args: a{arg: "-fprint", "path": tree}})
		}
		calls = append(calls,
			// details' format is the config's: the names are printed, not read.
			call{tool: "find_files", args: a{"details": true, "name": "-*", "dir": tree}, want: []string{"\t./-fprint", "\t./-delete", "\t./-exec"}},
		)
		return append(calls, call{tool: "find_files", args: a{"name": "*", "type": "f", "dir": tree}, want: []string{"./-fprint", "./-delete", "./-exec", "./;", "./("}})
	},
	// find_delete: a path that is an action is refused, and a name that is
	// one is a glob (delete: false lists what would go).
	unsafe: func(dir string) []call {
		tree := filepath.Join(dir, "tree")
		fprint := filepath.Join(dir, "canaries", "find-fprint")
		return []call{
			{tool: "find_delete", args: a{"path": "-fprint", "name": fprint, "dir": tree}, refused: "starts with '-'"},
			{tool: "find_delete", args: a{"name": "-fprint", "newer_than": "-exec", "delete": false, "dir": tree}},
			{tool: "find_delete", args: a{"name": "-fprint", "exclude_name": ";", "delete": false, "dir": tree}, want: []string{"./-fprint"}, check: exists(filepath.Join(tree, "-fprint"), true)},
		}
	},
}
