package realtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/configs"
	"github.com/climax-mcp/climax/index/config"
)

// The jj sandbox: a bare git remote with one commit, served over HTTP on
// 127.0.0.1 (jj_git_push refuses a local path, as git_push does), and a
// repository made with jj_git_init in the calls. jj is not packaged for Debian, so CI skips
// this suite; with jj on PATH, `go test -run 'TestBundledTools/jj$' -v .`
// in this directory runs it.
func init() {
	register(&suite{
		config: "jj",
		needs:  []string{"git"},
		prepare: func(t *testing.T, sb *sandbox) {
			write(t, sb.path("home", ".jjconfig.toml"), "[user]\nname = \"Real Test\"\nemail = \"real@test.invalid\"\n\n[ui]\npaginate = \"never\"\neditor = \"true\"\n")
			t.Setenv("JJ_CONFIG", sb.path("home", ".jjconfig.toml"))
			write(t, sb.path("home", ".gitconfig"), "[user]\n\tname = Real Test\n\temail = real@test.invalid\n[init]\n\tdefaultBranch = main\n")
			seed := sb.path("seed")
			run(t, sb.dir, "git", "init", "--quiet", seed)
			write(t, sb.path("seed", "README.md"), "# seed\n")
			run(t, seed, "git", "add", ".")
			run(t, seed, "git", "commit", "--quiet", "-m", "seed commit")
			run(t, sb.dir, "git", "clone", "--quiet", "--bare", seed, sb.path("remote.git"))
			run(t, sb.dir, "git", "--git-dir="+sb.path("remote.git"), "config", "http.receivepack", "true")
			sb.url = serveGit(t, sb.dir) + "/remote.git"
		},
		calls: func(sb *sandbox) []call {
			r := func(args a) a { args["dir"] = sb.path("repo"); return args }
			edit := func(name, content string) func(t *testing.T) {
				return func(t *testing.T) { write(t, sb.path("repo", name), content) }
			}
			return []call{
				{tool: "jj_git_clone", args: a{"source": sb.url, "destination": "repo", "colocate": true, "dir": sb.dir}, check: exists(sb.path("repo", ".jj"), true)},
				{tool: "jj_git_init", args: a{"destination": "fresh", "colocate": true, "dir": sb.dir}, check: exists(sb.path("fresh", ".jj"), true)},
				{tool: "jj_status", args: r(a{}), before: edit("a.txt", "one\n"), want: []string{"A a.txt"}},
				{tool: "jj_status", args: r(a{"path": "a.txt"}), want: []string{"a.txt"}},
				{tool: "jj_diff", args: r(a{"summary": true}), want: []string{"A a.txt"}},
				{tool: "jj_diff", args: r(a{"path": "a.txt", "git": true, "revisions": "@"}), want: []string{"+one"}},
				{tool: "jj_diff", args: r(a{"from": "@-", "to": "@", "stat": true}), want: []string{"a.txt"}},
				{tool: "jj_describe", args: r(a{"message": "add a"}), want: []string{"add a"}},
				{tool: "jj_commit", args: r(a{"message": "add a, committed"}), want: []string{"add a"}},
				{tool: "jj_new", args: r(a{"message": "second"}), before: edit("b.txt", "two\n")},
				{tool: "jj_log", args: r(a{"revisions": "all()", "limit": 5, "no_graph": true, "summary": true}), want: []string{"add a, committed"}},
				{tool: "jj_log", args: r(a{"path": "a.txt", "patch": true}), want: []string{"+one"}},
				{tool: "jj_show", args: r(a{"revision": "@-", "summary": true, "git": true}), want: []string{"second"}},
				{tool: "jj_file_list", args: r(a{"revision": "@"}), want: []string{"README.md"}},
				{tool: "jj_file_list", args: r(a{"path": "a.txt"}), want: []string{"a.txt"}},
				{tool: "jj_file_show", args: r(a{"path": "a.txt", "revision": "@"}), want: []string{"one"}},
				{tool: "jj_squash", args: r(a{"message": "squashed"}), before: edit("c.txt", "three\n")},
				{tool: "jj_squash", args: r(a{"path": "d.txt", "from": "@", "into": "@-", "use_destination_message": true}), before: edit("d.txt", "four\n")},
				{tool: "jj_squash", args: r(a{"revision": "@"})},
				{tool: "jj_edit", args: r(a{"revision": "@-"})},
				{tool: "jj_new", args: r(a{"parent": "root()"})},
				{tool: "jj_abandon", args: r(a{"revision": "@"})},
				{tool: "jj_restore", args: r(a{}), before: edit("README.md", "scribbled\n")},
				{tool: "jj_restore", args: r(a{"path": "README.md", "from": "@-", "into": "@"})},
				{tool: "jj_rebase", args: r(a{"destination": "main@origin", "revisions": "@"})},
				{tool: "jj_rebase", args: r(a{"destination": "main@origin", "source": "@"})},
				{tool: "jj_rebase", args: r(a{"destination": "main@origin", "branch": "@"})},
				{tool: "jj_evolog", args: r(a{"revision": "@", "limit": 3})},
				{tool: "jj_op_log", args: r(a{"limit": 5, "no_graph": true})},
				{tool: "jj_undo", args: r(a{})},
				{tool: "jj_split", args: r(a{"path": []any{"s1.txt"}, "message": "split first"}), before: func(t *testing.T) {
					edit("s1.txt", "one\n")(t)
					edit("s2.txt", "two\n")(t)
				}, want: []string{"split first"}},
				{tool: "jj_duplicate", args: r(a{"revisions": []any{"@-"}, "destination": "@"})},
				{tool: "jj_absorb", args: r(a{"path": []any{"s1.txt"}}), before: edit("s1.txt", "one, absorbed\n")},
				{tool: "jj_op_restore", args: r(a{"operation": "@-"})},
				{tool: "jj_file_annotate", args: r(a{"path": "README.md", "revision": "@"}), want: []string{"seed"}},
				{tool: "jj_bookmark_create", args: r(a{"name": "topic", "revision": "@-"})},
				{tool: "jj_bookmark_set", args: r(a{"name": "topic", "revision": "@", "allow_backwards": true})},
				{tool: "jj_bookmark_list", args: r(a{"all_remotes": true}), want: []string{"topic"}},
				{tool: "jj_bookmark_list", args: r(a{"name": "topic"}), want: []string{"topic"}},
				{tool: "jj_bookmark_track", args: r(a{"name": "main@origin"})},
				{tool: "jj_git_push", args: r(a{"bookmark": "topic", "remote": "origin", "dry_run": true})},
				{tool: "jj_git_push", args: r(a{"change": "@", "remote": "origin"})},
				{tool: "jj_git_push", args: r(a{"tracked": true})},
				// A push to a local path would run that repository's hooks.
				{tool: "jj_git_push", args: r(a{"bookmark": "topic", "remote": "local"}), before: func(t *testing.T) {
					run(t, sb.path("repo"), "git", "remote", "add", "local", sb.path("remote.git"))
				}, exit: failed, want: []string{"transport 'file' not allowed"}},
				{tool: "jj_git_fetch", args: r(a{"remote": "origin", "branch": "main"})},
				{tool: "jj_git_fetch", args: r(a{"all_remotes": true})},
				{tool: "jj_bookmark_delete", args: r(a{"name": "topic"})},
				{tool: "jj_resolve_list", args: r(a{"revision": "@"}), exit: failed},
			}
		},
	})
}

// TestJjGitPushRefusesLocalPath checks, without jj (which CI does not
// have), that jj_git_push's environment makes git refuse a push to a local
// path. jj pushes by running `git -c core.fsmonitor=false --git-dir DIR
// push --porcelain --no-verify -- REMOTE REFSPEC` in the environment it was
// given, and that push, without the tool's environment, runs the receiving
// repository's pre-receive hook (the control).
func TestJjGitPushRefusesLocalPath(t *testing.T) {
	if testing.Short() {
		t.Skip("runs git; not with -short")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the hook is a shell script")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	c, err := config.LoadFS(configs.FS, "jj.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var env []string
	for k, v := range c.Env {
		env = append(env, k+"="+v)
	}
	for _, tool := range c.Tools {
		if tool.Name == "jj_git_push" {
			for k, v := range tool.Env {
				env = append(env, k+"="+v)
			}
		}
	}
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	repo, target := filepath.Join(dir, "repo"), filepath.Join(dir, "target.git")
	run(t, dir, "git", "init", "--quiet", repo)
	write(t, filepath.Join(repo, "f.txt"), "one\n")
	run(t, repo, "git", "add", ".")
	run(t, repo, "git", "-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "--quiet", "-m", "one")
	run(t, dir, "git", "init", "--quiet", "--bare", target)
	canary := filepath.Join(dir, "canary")
	script(t, filepath.Join(target, "hooks", "pre-receive"), dir, "canary", "")
	push := func(env []string) (string, error) {
		cmd := exec.Command("git", "-c", "core.fsmonitor=false", "--git-dir", filepath.Join(repo, ".git"),
			"push", "--porcelain", "--no-verify", "--", target, "HEAD:refs/heads/topic")
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := push(nil); err != nil {
		t.Fatalf("control push failed: %v\n%s", err, out)
	}
	if _, err := os.Stat(canary); err != nil {
		t.Fatalf("the control push ran no pre-receive hook, so the test proves nothing: %v", err)
	}
	os.Remove(canary)
	run(t, dir, "git", "--git-dir="+target, "-c", "core.hooksPath=/dev/null", "update-ref", "-d", "refs/heads/topic")
	out, err := push(env)
	if err == nil || !strings.Contains(out, "transport 'file' not allowed") {
		t.Errorf("with jj_git_push's environment %q, the push was not refused (err %v):\n%s", env, err, out)
	}
	if _, err := os.Stat(canary); err == nil {
		t.Errorf("with jj_git_push's environment %q, the push ran the receiving repository's hook", env)
	}
}
