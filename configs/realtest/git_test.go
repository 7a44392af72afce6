package realtest

import (
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/climax-mcp/climax/executor"
)

// The git sandbox: repo (main with three commits, an annotated tag v0.1.0,
// a lightweight tag v0.2.0, a branch feature) pushed to the bare remote.git,
// its origin, served over HTTP on 127.0.0.1 (sb.url): git_push refuses a
// local path (docs/security.md, Hooks), which the calls show with a remote
// named mirror that is remote.git's path.
func init() {
	register(&suite{
		config: "git",
		prepare: func(t *testing.T, sb *sandbox) {
			write(t, sb.path("home", ".gitconfig"), "[user]\n\tname = Real Test\n\temail = real@test.invalid\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n")
			t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			repo, remote := sb.path("repo"), sb.path("remote.git")
			run(t, sb.dir, "git", "init", "--quiet", "--bare", remote)
			run(t, sb.dir, "git", "--git-dir="+remote, "config", "http.receivepack", "true")
			sb.url = serveGit(t, sb.dir) + "/remote.git"
			run(t, sb.dir, "git", "init", "--quiet", repo)
			write(t, sb.path("repo", "README.md"), "# demo\n")
			write(t, sb.path("repo", "main.go"), "package main\n\nfunc main() {\n\tgreet()\n}\n")
			run(t, repo, "git", "add", ".")
			run(t, repo, "git", "commit", "--quiet", "-m", "initial commit")
			run(t, repo, "git", "tag", "-a", "v0.1.0", "-m", "first release")
			write(t, sb.path("repo", "greet.go"), "package main\n\nfunc greet() { println(\"hello\") }\n")
			run(t, repo, "git", "add", ".")
			run(t, repo, "git", "commit", "--quiet", "-m", "add greet")
			run(t, repo, "git", "branch", "feature")
			run(t, repo, "git", "switch", "--quiet", "feature")
			write(t, sb.path("repo", "feature.txt"), "feature work\n")
			run(t, repo, "git", "add", ".")
			run(t, repo, "git", "commit", "--quiet", "-m", "feature work")
			run(t, repo, "git", "switch", "--quiet", "main")
			write(t, sb.path("repo", "README.md"), "# demo\n\nUsage.\n")
			run(t, repo, "git", "commit", "--quiet", "-am", "document usage")
			run(t, repo, "git", "tag", "v0.2.0")
			run(t, repo, "git", "remote", "add", "origin", sb.url)
			run(t, repo, "git", "push", "--quiet", "origin", "main", "feature", "--tags")
			run(t, repo, "git", "branch", "--set-upstream-to=origin/main")
		},
		calls: gitCalls,
	})
}

// serveGit serves the repositories under root over Git's smart HTTP on
// 127.0.0.1 (git http-backend as a CGI program; a repository takes pushes
// with http.receivepack) until the test ends, and returns the base URL.
func serveGit(t *testing.T, root string) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(&cgi.Handler{
		Path:       git,
		Args:       []string{"http-backend"},
		Dir:        root,
		Env:        []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"},
		InheritEnv: []string{"HOME", "GIT_CONFIG_NOSYSTEM"},
	})
	t.Cleanup(srv.Close)
	return srv.URL
}

func gitCalls(sb *sandbox) []call {
	repo := sb.path("repo")
	r := func(args a) a { args["dir"] = repo; return args }
	edit := func(name, content string) func(t *testing.T) {
		return func(t *testing.T) { write(t, sb.path("repo", name), content) }
	}
	return []call{
		// Inspecting.
		// " M" (unstaged) keeps its leading space in the text: "M " would read as staged.
		{tool: "git_status", args: r(a{"short": true}), before: edit("README.md", "# demo\n\nUsage, changed.\n"), check: textStarts(" M README.md")},
		{tool: "git_status", args: r(a{"untracked": "all"}), want: []string{"On branch main", "README.md"}},
		{tool: "git_log", args: r(a{"oneline": true}), want: []string{"document usage", "add greet", "initial commit"}},
		{tool: "git_log", args: r(a{"format": "%an|%s", "first_parent": true, "max_count": 2}), want: []string{"Real Test|document usage\nReal Test|add greet"}},
		{tool: "git_log", args: r(a{"max_count": 1, "stat": true, "author": "Real Test", "grep": "greet", "since": "1 year ago", "path": "greet.go"}), want: []string{"add greet", "greet.go"}},
		{tool: "git_log", args: r(a{"revision": "main..feature", "patch": true}), want: []string{"feature work", "+feature work"}},
		{tool: "git_log", args: r(a{"all": true, "oneline": true}), want: []string{"feature work", "document usage"}},
		{tool: "git_diff", args: r(a{}), want: []string{"+Usage, changed."}},
		// No context: the hunk holds the changed line alone, not "# demo".
		{tool: "git_diff", args: r(a{"context": 0}), want: []string{"@@ -3 +3 @@", "+Usage, changed."}, check: lacks(" # demo")},
		{tool: "git_diff", args: r(a{"revision": "v0.1.0", "stat": true, "path": "greet.go"}), want: []string{"greet.go"}},
		{tool: "git_diff", args: r(a{"revision": "main...feature", "name_only": true, "ignore_whitespace": true}), want: []string{"feature.txt"}},
		{tool: "git_diff", args: r(a{"staged": true}), want: []string{"(no output)"}},
		{tool: "git_show", args: r(a{"object": "v0.1.0", "no_patch": true}), want: []string{"first release", "initial commit"}},
		{tool: "git_show", args: r(a{"object": "HEAD~1:greet.go"}), want: []string{"func greet()"}},
		{tool: "git_show", args: r(a{"stat": true, "name_only": true}), want: []string{"README.md"}},
		{tool: "git_blame", args: r(a{"file": "main.go", "lines": "1,3", "show_email": true, "ignore_whitespace": true, "revision": "HEAD"}), want: []string{"real@test.invalid", "package main"}},
		{tool: "git_grep", args: r(a{"pattern": "greet", "word": true, "context": 1}), want: []string{"main.go:4:", "greet.go:3:"}},
		{tool: "git_grep", args: r(a{"pattern": "GREET(", "ignore_case": true, "fixed_strings": true, "files_only": true, "path": "*.go"}), want: []string{"main.go"}},
		{tool: "git_grep", args: r(a{"pattern": "no such text anywhere"}), exit: 1, want: []string{"[exit code: 1 (no matches)]"}},
		// Basic regexes need \| for alternation; extended and Perl ones do not.
		{tool: "git_grep", args: r(a{"pattern": "greet|main", "files_only": true}), exit: 1, want: []string{"no matches"}},
		{tool: "git_grep", args: r(a{"pattern": "func (greet|main)\\(", "extended_regexp": true}), want: []string{"main.go:3:func main()", "greet.go:3:func greet()"}},
		{tool: "git_grep", args: r(a{"pattern": `greet\(\)\s*\{`, "perl_regexp": true}), want: []string{"greet.go:3:"}, check: lacks("main.go")},
		{tool: "git_ls_files", args: r(a{"path": "*.go"}), want: []string{"greet.go", "main.go"}},
		{tool: "git_ls_files", args: r(a{"others": true}), before: edit("new.txt", "untracked\n"), want: []string{"new.txt"}},
		{tool: "git_ls_files", args: r(a{"modified": true, "deleted": true}), want: []string{"README.md"}},
		{tool: "git_rev_parse", args: r(a{"revision": "v0.2.0", "short": true}), check: hashLike},
		{tool: "git_rev_parse", args: r(a{"revision": "HEAD", "abbrev_ref": true}), want: []string{"main"}},
		// The revision is a positional after --verify: a value cannot become an option.
		{tool: "git_rev_parse", args: r(a{"revision": "--show-toplevel"}), refused: "starts with '-'"},
		{tool: "git_repo_root", args: a{"dir": sb.path("repo", ".git")}, exit: 128},
		{tool: "git_repo_root", args: r(a{}), want: []string{"repo"}},
		{tool: "git_reflog", args: r(a{"max_count": 3}), want: []string{"HEAD@{0}"}},
		{tool: "git_reflog", args: r(a{"ref": "feature"}), want: []string{"feature@{0}"}},

		// Branches.
		{tool: "git_branch_list", args: r(a{"all": true}), want: []string{"* main", "feature", "remotes/origin/main"}},
		{tool: "git_branch_list", args: r(a{"pattern": "feat*", "merged": "feature"}), want: []string{"feature"}},
		{tool: "git_branch_list", args: r(a{"remotes": true}), want: []string{"origin/feature"}},
		{tool: "git_branch_list", args: r(a{"not_merged": "main"}), want: []string{"feature"}, check: lacks("main")},
		{tool: "git_branch_list", args: r(a{"sort": "-refname"}), check: textStarts("* main")},
		{tool: "git_current_branch", args: r(a{}), want: []string{"main"}},
		{tool: "git_branch_create", args: r(a{"name": "topic", "start_point": "v0.1.0"}), want: []string{"(no output)"}},
		{tool: "git_branch_create", args: r(a{"name": "-f"}), refused: "-"},
		{tool: "git_branch_create", args: r(a{"name": "topic2"}), want: []string{"(no output)"}},
		{tool: "git_branch_rename", args: r(a{"old": "topic2", "new": "topic3"}), want: []string{"(no output)"}},
		{tool: "git_branch_rename", args: r(a{"old": "topic3", "new": "feature"}), exit: 128, want: []string{"already exists"}},
		{tool: "git_branch_delete", args: r(a{"name": "topic3"}), want: []string{"Deleted branch topic3"}},
		{tool: "git_branch_delete", args: r(a{"name": "topic"}), want: []string{"Deleted branch topic"}},
		{tool: "git_branch_delete", args: r(a{"name": "feature"}), exit: 1, want: []string{"not fully merged"}},
		{tool: "git_stash_push", args: r(a{"message": "wip readme", "include_untracked": true}), want: []string{"wip readme"}},
		{tool: "git_switch", args: r(a{"branch": "feature"}), want: []string{"Switched to branch 'feature'"}},
		// "-" (the previous branch) is refused as an option; @{-1} names it.
		{tool: "git_switch", args: r(a{"branch": "-"}), refused: "@{-1}"},
		{tool: "git_switch", args: r(a{"branch": "@{-1}"}), want: []string{"Switched to branch 'main'"}},
		{tool: "git_switch", args: r(a{"new_branch": "fix", "branch": "main"}), want: []string{"Switched to a new branch 'fix'"}},
		// A boolean is not a branch name (it made a branch named "true").
		{tool: "git_switch", args: r(a{"new_branch": true}), refused: "cannot convert true to string"},
		{tool: "git_switch", args: r(a{"branch": "v0.1.0", "detach": true}), want: []string{"HEAD is now at"}},
		{tool: "git_checkout", args: r(a{"target": "main", "new_branch": "work"}), want: []string{"Switched to a new branch 'work'"}},
		{tool: "git_checkout", args: r(a{"target": "main"}), want: []string{"Switched to branch 'main'"}},

		// Stash.
		{tool: "git_stash_list", args: r(a{}), want: []string{"stash@{0}", "wip readme"}},
		{tool: "git_stash_show", args: r(a{"stash": "stash@{0}"}), want: []string{"+Usage, changed."}},
		{tool: "git_stash_pop", args: r(a{"index": true}), want: []string{"Dropped"}},
		{tool: "git_stash_push", args: r(a{"staged": false}), want: []string{"Saved working directory"}},
		{tool: "git_stash_drop", args: r(a{"stash": "stash@{0}"}), want: []string{"Dropped stash@{0}"}},

		// Staging and committing.
		{tool: "git_add", args: r(a{"path": "new.txt", "dry_run": true}), before: edit("new.txt", "untracked\n"), want: []string{"add 'new.txt'"}},
		{tool: "git_add", args: r(a{"path": "new.txt"}), want: []string{"(no output)"}},
		{tool: "git_restore", args: r(a{"path": "new.txt", "staged": true}), check: gitStatusHas(repo, "?? new.txt")},
		{tool: "git_add", args: r(a{"all": true}), check: gitStatusHas(repo, "A  new.txt")},
		{tool: "git_commit", args: r(a{"message": "add new.txt"}), want: []string{"add new.txt", "1 file changed"}},
		{tool: "git_commit", args: r(a{"message": "add new.txt (amended)", "amend": true}), want: []string{"amended"}},
		{tool: "git_restore", args: r(a{"path": "new.txt", "source": "HEAD~1"}), check: exists(sb.path("repo", "new.txt"), false)},
		{tool: "git_restore", args: r(a{"path": "new.txt"}), before: edit("new.txt", "scribbled\n"), check: fileHas(sb.path("repo", "new.txt"), "untracked")},
		{tool: "git_add", args: r(a{"update": true}), before: edit("README.md", "# demo\n\nUsage v2.\n"), check: gitStatusHas(repo, "M  README.md")},
		{tool: "git_commit", args: r(a{"message": "usage v2", "all": true}), want: []string{"usage v2"}},
		{tool: "git_mv", args: r(a{"source": "new.txt", "destination": "notes.txt"}), check: gitStatusHas(repo, "R  new.txt -> notes.txt")},
		{tool: "git_rm", args: r(a{"path": "notes.txt", "cached": true, "force": true}), want: []string{"rm 'notes.txt'"}, check: exists(sb.path("repo", "notes.txt"), true)},
		{tool: "git_rm", args: r(a{"path": "main.go", "dry_run": true}), want: []string{"rm 'main.go'"}, check: exists(sb.path("repo", "main.go"), true)},
		{tool: "git_commit", args: r(a{"message": "untrack notes"}), want: []string{"untrack notes"}},
		{tool: "git_rm", args: r(a{"path": "docs", "recursive": true}), before: func(t *testing.T) {
			write(t, sb.path("repo", "docs", "a.md"), "a\n")
			run(t, repo, "git", "add", "docs")
			run(t, repo, "git", "commit", "--quiet", "-m", "docs")
		}, want: []string{"rm 'docs/a.md'"}, check: exists(sb.path("repo", "docs"), false)},
		{tool: "git_commit", args: r(a{"message": "drop docs"}), want: []string{"drop docs"}},

		// Tags.
		{tool: "git_tag_list", args: r(a{}), want: []string{"v0.1.0", "first release", "v0.2.0"}},
		{tool: "git_tag_list", args: r(a{"pattern": "v0.*", "sort": "-v:refname", "contains": "v0.2.0"}), want: []string{"v0.2.0"}},
		// dates: the tag's date (a fixed format), the tag, its subject.
		{tool: "git_tag_list", args: r(a{"dates": true, "sort": "-v:refname"}), check: func(t *testing.T, out outcome) {
			if !regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\d\tv0\.2\.0\t.+\n\d{4}-\d\d-\d\d\tv0\.1\.0\tfirst release$`).MatchString(out.Text) {
				t.Errorf("want date, tag and subject per line, newest version first:\n%s", out.Text)
			}
		}},
		{tool: "git_tag_create", args: r(a{"name": "v1.0.0", "message": "one"}), want: []string{"(no output)"}},
		{tool: "git_tag_create", args: r(a{"name": "old", "commit": "v0.1.0"}), want: []string{"(no output)"}},
		{tool: "git_tag_delete", args: r(a{"name": "old"}), want: []string{"Deleted tag 'old'"}},

		// Remotes and sync.
		{tool: "git_remote_add", args: r(a{"name": "mirror", "url": sb.path("remote.git")}), want: []string{"(no output)"}},
		{tool: "git_remote_list", args: r(a{}), want: []string{"origin\t" + sb.url + " (fetch)", "mirror\t" + sb.path("remote.git")}},
		// A push to a local path would run that repository's hooks.
		{tool: "git_push", args: r(a{"remote": "mirror", "branch": "main"}), exit: 128, want: []string{"transport 'file' not allowed"}},
		{tool: "git_push", args: r(a{"remote": "origin", "branch": "main", "dry_run": true}), want: []string{"main -> main"}},
		{tool: "git_push", args: r(a{"remote": "origin", "branch": "main", "tags": true}), want: []string{"v1.0.0"}},
		{tool: "git_push", args: r(a{"remote": "origin", "branch": "work", "set_upstream": true, "force_with_lease": true}), want: []string{"work -> work"}},
		// A branch without remote goes to origin, not in the remote's
		// place.
		{tool: "git_push", args: r(a{"branch": "main:doomed"}), want: []string{"main -> doomed"}},
		{tool: "git_push", args: r(a{"remote": "origin", "branch": "doomed", "delete": true}), want: []string{"[deleted]", "doomed"}, check: func(t *testing.T, _ outcome) {
			if refs := run(t, repo, "git", "ls-remote", "--heads", "origin"); strings.Contains(refs, "doomed") || !strings.Contains(refs, "refs/heads/work") {
				t.Errorf("origin's branches after deleting doomed:\n%s", refs)
			}
		}},
		{tool: "git_clone", args: a{"url": sb.url, "directory": "clone", "branch": "main", "depth": 1, "dir": sb.dir}, want: []string{"Cloning into 'clone'"}, check: exists(sb.path("clone", "README.md"), true)},
		{tool: "git_commit", args: a{"dir": sb.path("clone"), "message": "from the clone", "all": true}, before: func(t *testing.T) { write(t, sb.path("clone", "README.md"), "# demo\n\nFrom the clone.\n") }, want: []string{"from the clone"}},
		{tool: "git_push", args: a{"dir": sb.path("clone")}, want: []string{"main -> main"}},
		{tool: "git_fetch", args: r(a{"remote": "origin", "refspec": "main", "prune": true, "tags": true}), want: []string{"origin/main"}},
		{tool: "git_fetch", args: r(a{"all": true}), want: []string{}},
		{tool: "git_pull", args: r(a{"remote": "origin", "branch": "main", "ff_only": true}), want: []string{"Fast-forward"}},
		// A branch without remote goes to origin, not in the remote's
		// place.
		{tool: "git_pull", args: r(a{"branch": "main", "ff_only": true}), want: []string{"up to date"}},
		{tool: "git_pull", args: r(a{"rebase": true, "autostash": true}), want: []string{"up to date"}},
		{tool: "git_init", args: a{"directory": "fresh", "initial_branch": "trunk", "dir": sb.dir}, want: []string{"Initialized empty Git repository"}, check: exists(sb.path("fresh", ".git"), true)},

		// Integrating and rewriting.
		{tool: "git_merge", args: r(a{"branch": "feature", "no_ff": true, "message": "merge feature"}), want: []string{"feature.txt"}},
		{tool: "git_merge", args: r(a{"branch": "feature", "ff_only": true}), want: []string{"Already up to date"}},
		// The merge commit drawn by graph, left out by no_merges.
		{tool: "git_log", args: r(a{"graph": true, "oneline": true, "max_count": 3}), want: []string{"*   ", "merge feature", "|\\ "}},
		{tool: "git_log", args: r(a{"no_merges": true, "oneline": true, "max_count": 3}), check: func(t *testing.T, o outcome) {
			lacks("merge feature")(t, o)
			if n := strings.Count(strings.TrimSpace(o.Result.Stdout), "\n") + 1; n != 3 {
				t.Errorf("want 3 commits, got %d:\n%s", n, o.Result.Stdout)
			}
		}},
		{tool: "git_merge", args: r(a{"branch": "clash", "squash": true}), before: gitConflict(sb, "clash"), exit: 1, want: []string{"CONFLICT"}},
		{tool: "git_reset_hard", args: r(a{}), want: []string{"HEAD is now at"}},
		{tool: "git_merge", args: r(a{"branch": "clash"}), exit: 1, want: []string{"CONFLICT"}},
		{tool: "git_merge_abort", args: r(a{}), check: gitStatusHas(repo, "")},
		{tool: "git_rebase", args: r(a{"upstream": "clash"}), before: gitBranch(sb, "mine", "v0.2.0", "Mine.\n"), exit: 1, want: []string{"CONFLICT"}},
		{tool: "git_rebase_abort", args: r(a{}), check: gitStatusHas(repo, "")},
		{tool: "git_rebase", args: r(a{"upstream": "clash", "autostash": true}), exit: 1, want: []string{"CONFLICT"}},
		{tool: "git_rebase_continue", args: r(a{}), before: func(t *testing.T) {
			write(t, sb.path("repo", "README.md"), "# demo\n\nResolved.\n")
			run(t, repo, "git", "add", "README.md")
		}, want: []string{"Successfully rebased"}},
		{tool: "git_rebase", args: r(a{"upstream": "v0.1.0", "onto": "main"}), before: gitSwitch(repo, "feature"), want: []string{"Successfully rebased"}},
		{tool: "git_cherry_pick", args: r(a{"commit": "pick"}), before: func(t *testing.T) {
			run(t, repo, "git", "switch", "--quiet", "--create", "pick", "main")
			write(t, sb.path("repo", "pick.txt"), "picked\n")
			run(t, repo, "git", "add", "pick.txt")
			run(t, repo, "git", "commit", "--quiet", "-m", "add pick.txt")
			run(t, repo, "git", "switch", "--quiet", "main")
		}, want: []string{"add pick.txt"}},
		{tool: "git_cherry_pick", args: r(a{"commit": "extra", "no_commit": true}), before: func(t *testing.T) {
			gitBranch(sb, "extra", "main", "# demo\n\nExtra.\n")(t)
			run(t, repo, "git", "switch", "--quiet", "main")
		}, check: gitStatusHas(repo, "M  README.md")},
		{tool: "git_reset_hard", args: r(a{"commit": "HEAD"}), want: []string{"HEAD is now at"}},
		{tool: "git_revert", args: r(a{"commit": "HEAD"}), want: []string{"Revert"}},
		{tool: "git_revert", args: r(a{"commit": "HEAD", "no_commit": true}), check: gitStatusHas(repo, "A  pick.txt")},
		{tool: "git_reset", args: r(a{"path": "pick.txt"}), check: gitStatusHas(repo, "?? pick.txt")},
		{tool: "git_reset", args: r(a{"commit": "HEAD~1", "soft": true}), check: gitStatusHas(repo, "D  pick.txt")},
		{tool: "git_reset_hard", args: r(a{"commit": "origin/main"}), want: []string{"HEAD is now at"}},

		// Cleaning.
		{tool: "git_clean_preview", args: r(a{"directories": true, "ignored": true}), before: func(t *testing.T) {
			write(t, sb.path("repo", "junk.txt"), "junk\n")
			write(t, sb.path("repo", "build", "out.o"), "obj\n")
		}, want: []string{"Would remove junk.txt", "Would remove build/"}, check: exists(sb.path("repo", "junk.txt"), true)},
		{tool: "git_clean_preview", args: r(a{"path": "junk.txt"}), want: []string{"Would remove junk.txt"}},
		{tool: "git_clean", args: r(a{"path": "junk.txt"}), want: []string{"Removing junk.txt"}, check: exists(sb.path("repo", "junk.txt"), false)},
		{tool: "git_clean", args: r(a{"directories": true, "ignored": true}), want: []string{"Removing build/"}, check: exists(sb.path("repo", "build"), false)},

		// Lists of values, pickaxe, tags peeled to their commit.
		{tool: "git_add", args: r(a{"path": []any{"a.txt", "-b.txt"}}), before: func(t *testing.T) {
			write(t, sb.path("repo", "a.txt"), "a\n")
			write(t, sb.path("repo", "-b.txt"), "b\n")
		}, check: func(t *testing.T, o outcome) {
			gitStatusHas(repo, "A  a.txt")(t, o)
			gitStatusHas(repo, "A  -b.txt")(t, o)
		}},
		{tool: "git_rm", args: r(a{"path": []any{"a.txt", "-b.txt"}, "cached": true}), want: []string{"rm 'a.txt'", "rm '-b.txt'"}, check: gitStatusHas(repo, "?? a.txt")},
		{tool: "git_clean", args: r(a{"path": []any{"a.txt", "-b.txt"}}), check: exists(sb.path("repo", "-b.txt"), false)},
		{tool: "git_grep", args: r(a{"pattern": []any{"func greet", "package main"}, "path": []any{"greet.go"}}), want: []string{"greet.go:1:package main", "greet.go:3:func greet"}},
		{tool: "git_log", args: r(a{"pickaxe": "func greet", "oneline": true, "path": []any{"greet.go", "main.go"}}), want: []string{"add greet"}, check: lacks("initial commit")},
		{tool: "git_rev_parse", args: r(a{"revision": "v0.1.0^{commit}"}), check: func(t *testing.T, o outcome) {
			if got, want := strings.TrimSpace(o.Result.Stdout), strings.TrimSpace(run(t, repo, "git", "rev-list", "-n1", "v0.1.0")); got != want {
				t.Errorf("v0.1.0^{commit} = %s, want the commit %s", got, want)
			}
		}},
		{tool: "git_describe", args: r(a{"commit": "v0.2.0", "tags": true}), want: []string{"v0.2.0"}},
		{tool: "git_describe", args: r(a{"always": true}), want: []string{"v1.0.0-"}},

		// Stash apply keeps the stash.
		{tool: "git_stash_apply", args: r(a{"index": true}), before: func(t *testing.T) {
			write(t, sb.path("repo", "README.md"), "# demo\n\nStashed again.\n")
			run(t, repo, "git", "stash", "push", "--quiet")
		}, check: func(t *testing.T, o outcome) {
			gitStatusHas(repo, " M README.md")(t, o)
			if !strings.Contains(run(t, repo, "git", "stash", "list"), "stash@{0}") {
				t.Error("git_stash_apply dropped the stash")
			}
		}},
		{tool: "git_stash_apply", args: r(a{"stash": "-x"}), refused: "starts with '-'"},
		{tool: "git_reset_hard", args: r(a{}), want: []string{"HEAD is now at"}},

		// Cherry-pick in progress: abort, then continue.
		{tool: "git_cherry_pick", args: r(a{"commit": "cpsrc"}), before: gitClash(sb, "cpsrc", "# demo\n\nPicked side.\n", "main side"), exit: 1, want: []string{"CONFLICT"}},
		{tool: "git_cherry_pick_abort", args: r(a{}), check: gitStatusHas(repo, "")},
		{tool: "git_cherry_pick", args: r(a{"commit": "cpsrc"}), exit: 1, want: []string{"CONFLICT"}},
		{tool: "git_cherry_pick_continue", args: r(a{}), before: func(t *testing.T) {
			write(t, sb.path("repo", "README.md"), "# demo\n\nBoth sides.\n")
			run(t, repo, "git", "add", "README.md")
		}, want: []string{"1 file changed"}},

		// Revert in progress: abort, then resolve with ours and theirs, then continue.
		{tool: "git_revert", args: r(a{"commit": "HEAD~1"}), before: func(t *testing.T) {
			write(t, sb.path("repo", "README.md"), "# demo\n\nRev one.\n")
			run(t, repo, "git", "commit", "--quiet", "-am", "rev one")
			write(t, sb.path("repo", "README.md"), "# demo\n\nRev two.\n")
			run(t, repo, "git", "commit", "--quiet", "-am", "rev two")
		}, exit: 1, want: []string{"CONFLICT"}},
		{tool: "git_revert_abort", args: r(a{}), check: gitStatusHas(repo, "")},
		{tool: "git_revert", args: r(a{"commit": "HEAD~1"}), exit: 1, want: []string{"CONFLICT"}},
		{tool: "git_checkout_ours", args: r(a{"path": "README.md"}), check: fileIs(sb.path("repo", "README.md"), "# demo\n\nRev two.\n")},
		{tool: "git_checkout_theirs", args: r(a{"path": []any{"README.md"}}), check: fileIs(sb.path("repo", "README.md"), "# demo\n\nBoth sides.\n")},
		{tool: "git_revert_continue", args: r(a{}), before: func(t *testing.T) { run(t, repo, "git", "add", "README.md") }, want: []string{"Revert \"rev one\""}, check: gitStatusHas(repo, "")},

		// A cherry-pick whose conflict is resolved to the current version
		// is empty: continue refuses it, skip drops it, and git_commit
		// with allow_empty keeps it.
		{tool: "git_cherry_pick", args: r(a{"commit": "emptysrc"}), before: gitClash(sb, "emptysrc", "# demo\n\nEmpty side.\n", "main again"), exit: 1, want: []string{"CONFLICT"}},
		{tool: "git_cherry_pick_continue", args: r(a{}), before: gitResolveOurs(repo, "README.md"), exit: 1, want: []string{"The previous cherry-pick is now empty", "git cherry-pick --skip"}},
		{tool: "git_cherry_pick_skip", args: r(a{}), check: gitSequenceDone(repo, "CHERRY_PICK_HEAD", "main again")},
		{tool: "git_cherry_pick", args: r(a{"commit": "emptysrc"}), exit: 1, want: []string{"CONFLICT"}},
		{tool: "git_commit", args: r(a{"message": "keep the empty pick", "allow_empty": true}), before: gitResolveOurs(repo, "README.md"), want: []string{"keep the empty pick"}, check: func(t *testing.T, o outcome) {
			gitSequenceDone(repo, "CHERRY_PICK_HEAD", "keep the empty pick")(t, o)
			if d := run(t, repo, "git", "diff", "--stat", "HEAD~1", "HEAD"); d != "" {
				t.Errorf("the kept pick is not empty:\n%s", d)
			}
		}},
		// Without allow_empty, git refuses a commit with no changes.
		{tool: "git_commit", args: r(a{"message": "nothing"}), exit: 1, want: []string{"nothing to commit"}},

		// The same for a revert: continue refuses the empty one, skip drops it.
		{tool: "git_revert", args: r(a{"commit": "HEAD~1"}), before: func(t *testing.T) {
			write(t, sb.path("repo", "README.md"), "# demo\n\nRev three.\n")
			run(t, repo, "git", "commit", "--quiet", "-am", "rev three")
			write(t, sb.path("repo", "README.md"), "# demo\n\nRev four.\n")
			run(t, repo, "git", "commit", "--quiet", "-am", "rev four")
		}, exit: 1, want: []string{"CONFLICT"}},
		{tool: "git_revert_continue", args: r(a{}), before: gitResolveOurs(repo, "README.md"), exit: 1, want: []string{"nothing to commit"}},
		{tool: "git_revert_skip", args: r(a{}), check: gitSequenceDone(repo, "REVERT_HEAD", "rev four")},

		// A rebase skips the commit it stopped on: the branch keeps the
		// upstream's README.md and loses that commit.
		{tool: "git_rebase", args: r(a{"upstream": "main"}), before: func(t *testing.T) {
			gitBranch(sb, "skipme", "main~1", "# demo\n\nSkipped side.\n")(t)
		}, exit: 1, want: []string{"CONFLICT"}},
		{tool: "git_rebase_skip", args: r(a{}), want: []string{"Successfully rebased"}, check: func(t *testing.T, o outcome) {
			fileIs(sb.path("repo", "README.md"), "# demo\n\nRev four.\n")(t, o)
			if n := strings.TrimSpace(run(t, repo, "git", "rev-list", "--count", "main..skipme")); n != "0" {
				t.Errorf("skipme has %s commits over main, want the skipped one gone", n)
			}
		}},
		{tool: "git_rebase_skip", args: r(a{}), before: gitSwitch(repo, "main"), exit: 128, want: []string{"No rebase in progress"}},

		// --follow continues a file's history past its rename.
		{tool: "git_log", args: r(a{"path": "moved.txt", "follow": true, "oneline": true, "until": "tomorrow"}), before: func(t *testing.T) {
			write(t, sb.path("repo", "orig.txt"), "some text that stays\nacross the rename\n")
			run(t, repo, "git", "add", "orig.txt")
			run(t, repo, "git", "commit", "--quiet", "-m", "add orig")
			run(t, repo, "git", "mv", "orig.txt", "moved.txt")
			run(t, repo, "git", "commit", "--quiet", "-m", "rename orig")
		}, want: []string{"rename orig", "add orig"}},
		{tool: "git_log", args: r(a{"path": "moved.txt", "oneline": true}), want: []string{"rename orig"}, check: lacks("add orig")},
		{tool: "git_log", args: r(a{"until": "2000-01-01", "oneline": true}), want: []string{"(no output)"}},

		// Diverged branches: pull with a merge.
		{tool: "git_pull", args: r(a{"no_rebase": true}), before: func(t *testing.T) {
			write(t, sb.path("clone", "CHANGES.md"), "remote change\n")
			run(t, sb.path("clone"), "git", "add", "CHANGES.md")
			run(t, sb.path("clone"), "git", "commit", "--quiet", "-m", "remote change")
			run(t, sb.path("clone"), "git", "push", "--quiet")
		}, want: []string{"Merge made by"}, check: fileHas(sb.path("repo", "CHANGES.md"), "remote change")},

		// Bisect between v0.1.0 (good) and HEAD (bad).
		{tool: "git_bisect", args: r(a{"action": "start", "revision": []any{"HEAD", "v0.1.0"}}), want: []string{"Bisecting:"}},
		{tool: "git_bisect", args: r(a{"action": "good"})},
		{tool: "git_bisect", args: r(a{"action": "bad", "revision": []any{"HEAD"}})},
		{tool: "git_bisect", args: r(a{"action": "log"}), want: []string{"git bisect start", "git bisect good", "git bisect bad"}},
		{tool: "git_bisect", args: r(a{"action": "reset"}), check: func(t *testing.T, _ outcome) {
			if b := strings.TrimSpace(run(t, repo, "git", "branch", "--show-current")); b != "main" {
				t.Errorf("after bisect reset the branch is %q, want main", b)
			}
		}},
		{tool: "git_bisect", args: r(a{"action": "run"}), refused: "must be one of"},

		// Worktrees.
		{tool: "git_worktree_add", args: r(a{"path": sb.path("wt1"), "branch": "main", "new_branch": "wt-branch"}), check: exists(sb.path("wt1", "README.md"), true)},
		{tool: "git_worktree_list", args: r(a{}), want: []string{sb.path("wt1"), "[wt-branch]"}},
		{tool: "git_worktree_remove", args: r(a{"path": sb.path("wt1"), "force": true}), before: func(t *testing.T) {
			write(t, sb.path("wt1", "dirty.txt"), "untracked\n")
		}, check: exists(sb.path("wt1"), false)},

		// Settings.
		{tool: "git_config_set", args: r(a{"key": "push.default", "value": "simple"}), check: fileHas(sb.path("repo", ".git", "config"), "default = simple")},
		// Settings that make git run a program are refused before git runs.
		{tool: "git_config_set", args: r(a{"key": "core.fsmonitor", "value": "touch " + sb.path("pwned")}), refused: "does not match pattern", check: exists(sb.path("pwned"), false)},
		{tool: "git_config_set", args: r(a{"key": "alias.st", "value": "!touch x"}), refused: "does not match pattern"},
		{tool: "git_config_get", args: r(a{"key": "push.default"}), want: []string{"simple"}},
		{tool: "git_config_get", args: r(a{"key": "no.such"}), exit: 1, want: []string{"[exit code: 1 (not set, or not a valid key: see stderr)]"}},
		// git's exit code 1 is also its refusal of a key: the label holds then too.
		{tool: "git_config_get", args: r(a{"key": "nosection"}), exit: 1, want: []string{"key does not contain a section", "[exit code: 1 (not set, or not a valid key: see stderr)]"}},
		{tool: "git_config_list", args: r(a{}), want: []string{"local\tpush.default=simple", "global\tuser.name=Real Test"}},

		// Remotes.
		{tool: "git_remote_set_url", args: r(a{"name": "mirror", "url": sb.path("clone")}), check: func(t *testing.T, _ outcome) {
			if u := strings.TrimSpace(run(t, repo, "git", "remote", "get-url", "mirror")); u != sb.path("clone") {
				t.Errorf("mirror URL %q, want %q", u, sb.path("clone"))
			}
		}},
		{tool: "git_remote_remove", args: r(a{"name": "mirror"}), check: func(t *testing.T, _ outcome) {
			if strings.Contains(run(t, repo, "git", "remote"), "mirror") {
				t.Error("remote mirror still there")
			}
		}},

		// Hooks: the repository's own (set up here, never by a clone) run
		// for the tools that change it, as for the user, and never for a
		// read-only tool. post-index-change runs when git status refreshes
		// the index; commit-msg refuses a WIP commit.
		{tool: "git_status", args: r(a{"short": true}), before: func(t *testing.T) {
			hook := func(name, body string) {
				path := sb.path("repo", ".git", "hooks", name)
				write(t, path, "#!/bin/sh\necho "+name+" >> '"+sb.path("hooks.log")+"'\n"+body)
				if err := os.Chmod(path, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			hook("post-index-change", "")
			hook("commit-msg", "if grep -q WIP \"$1\"; then echo 'commit-msg hook: WIP commits are refused' >&2; exit 1; fi\n")
			old := time.Now().Add(-time.Hour)
			if err := os.Chtimes(sb.path("repo", "README.md"), old, old); err != nil {
				t.Fatal(err)
			}
		}, check: exists(sb.path("hooks.log"), false)},
		{tool: "git_commit", args: r(a{"message": "WIP: half done", "all": true}), before: edit("README.md", "# demo\n\nHooked.\n"), exit: 1,
			want: []string{"commit-msg hook: WIP commits are refused"}, check: fileHas(sb.path("hooks.log"), "commit-msg")},
		{tool: "git_commit", args: r(a{"message": "hooked", "all": true, "signoff": true}), want: []string{"hooked"}, check: func(t *testing.T, _ outcome) {
			if msg := run(t, repo, "git", "log", "-1", "--format=%B"); !strings.Contains(msg, "Signed-off-by: Real Test <real@test.invalid>") {
				t.Errorf("no sign-off in the commit message:\n%s", msg)
			}
		}},

		// Squashing, as git_rebase's description says (it is not
		// interactive): git_reset soft to HEAD~2, then git_commit.
		{tool: "git_reset", args: r(a{"commit": "HEAD~2", "soft": true}), before: func(t *testing.T) {
			write(t, sb.path("repo", "squash1.txt"), "one\n")
			run(t, repo, "git", "add", "squash1.txt")
			run(t, repo, "git", "commit", "--quiet", "-m", "squash one")
			write(t, sb.path("repo", "squash2.txt"), "two\n")
			run(t, repo, "git", "add", "squash2.txt")
			run(t, repo, "git", "commit", "--quiet", "-m", "squash two")
		}, check: gitStatusHas(repo, "A  squash2.txt")},
		{tool: "git_commit", args: r(a{"message": "squashed"}), want: []string{"2 files changed"}, check: func(t *testing.T, _ outcome) {
			if got := run(t, repo, "git", "log", "-2", "--format=%s"); got != "squashed\nhooked\n" {
				t.Errorf("last two commits:\n%s\nwant squashed, then hooked", got)
			}
		}},
	}
}

// hashLike checks that the result is one abbreviated commit hash.
func hashLike(t *testing.T, out executor.Outcome) {
	t.Helper()
	h := strings.TrimSpace(out.Result.Stdout)
	if len(h) < 7 || len(h) > 12 || strings.Trim(h, "0123456789abcdef") != "" {
		t.Errorf("want a short hash, got %q", h)
	}
}

// textStarts checks that the result text starts with prefix.
func textStarts(prefix string) func(t *testing.T, out executor.Outcome) {
	return func(t *testing.T, out executor.Outcome) {
		t.Helper()
		if !strings.HasPrefix(out.Text, prefix) {
			t.Errorf("result text does not start with %q:\n%s", prefix, out.Text)
		}
	}
}

// gitStatusHas checks that `git status --short` contains text (with ""
// that it is clean).
func gitStatusHas(repo, text string) func(t *testing.T, _ executor.Outcome) {
	return func(t *testing.T, _ executor.Outcome) {
		t.Helper()
		untracked := "--untracked-files=normal"
		if text == "" {
			untracked = "--untracked-files=no"
		}
		st := run(t, repo, "git", "status", "--short", untracked)
		if text == "" && strings.TrimSpace(st) != "" || !strings.Contains(st, text) {
			t.Errorf("git status: want %q, got:\n%s", text, st)
		}
	}
}

// gitResolveOurs resolves a conflict by keeping the current branch's
// version of path and staging it, before a call.
func gitResolveOurs(repo, path string) func(t *testing.T) {
	return func(t *testing.T) {
		run(t, repo, "git", "checkout", "--ours", "--", path)
		run(t, repo, "git", "add", "--", path)
	}
}

// gitSequenceDone checks that a cherry-pick or revert is over (its
// head, e.g. CHERRY_PICK_HEAD, is gone), the tree is clean and the last
// commit's subject is subject.
func gitSequenceDone(repo, head, subject string) func(t *testing.T, o executor.Outcome) {
	return func(t *testing.T, o executor.Outcome) {
		t.Helper()
		if _, err := os.Stat(filepath.Join(repo, ".git", head)); err == nil {
			t.Errorf("%s is still there: the operation is not over", head)
		}
		gitStatusHas(repo, "")(t, o)
		if got := strings.TrimSpace(run(t, repo, "git", "log", "-1", "--format=%s")); got != subject {
			t.Errorf("last commit %q, want %q", got, subject)
		}
	}
}

// gitSwitch switches repo to branch before a call.
func gitSwitch(repo, branch string) func(t *testing.T) {
	return func(t *testing.T) { run(t, repo, "git", "switch", "--quiet", branch) }
}

// gitConflict creates branch name from main~1 with a README.md that
// conflicts with main's.
func gitConflict(sb *sandbox, name string) func(t *testing.T) {
	return func(t *testing.T) {
		repo := sb.path("repo")
		run(t, repo, "git", "switch", "--quiet", "--create", name, "v0.2.0")
		write(t, sb.path("repo", "README.md"), "# demo\n\nConflicting text.\n")
		run(t, repo, "git", "commit", "--quiet", "-am", "conflicting readme")
		run(t, repo, "git", "switch", "--quiet", "main")
	}
}

// gitBranch creates branch name at base with one commit that sets
// README.md to readme, and leaves it checked out.
// gitClash makes branch name off main with README.md as readme, then a
// commit on main (message mainMsg) that changes the same line: picking
// name's commit onto main conflicts.
func gitClash(sb *sandbox, name, readme, mainMsg string) func(t *testing.T) {
	return func(t *testing.T) {
		repo := sb.path("repo")
		gitBranch(sb, name, "main", readme)(t)
		run(t, repo, "git", "switch", "--quiet", "main")
		write(t, sb.path("repo", "README.md"), "# demo\n\n"+mainMsg+".\n")
		run(t, repo, "git", "commit", "--quiet", "-am", mainMsg)
	}
}

func gitBranch(sb *sandbox, name, base, readme string) func(t *testing.T) {
	return func(t *testing.T) {
		repo := sb.path("repo")
		run(t, repo, "git", "switch", "--quiet", "--create", name, base)
		write(t, sb.path("repo", "README.md"), readme)
		run(t, repo, "git", "commit", "--quiet", "-am", "readme on "+name)
	}
}
