package realtest

import "testing"

// The jj sandbox: a bare git remote with one commit, and a repository made
// with jj_git_init in the calls. jj is not packaged for Debian, so CI skips
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
		},
		calls: func(sb *sandbox) []call {
			r := func(args a) a { args["dir"] = sb.path("repo"); return args }
			edit := func(name, content string) func(t *testing.T) {
				return func(t *testing.T) { write(t, sb.path("repo", name), content) }
			}
			return []call{
				{tool: "jj_git_clone", args: a{"source": sb.path("remote.git"), "destination": "repo", "colocate": true, "dir": sb.dir}, check: exists(sb.path("repo", ".jj"), true)},
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
				{tool: "jj_git_fetch", args: r(a{"remote": "origin", "branch": "main"})},
				{tool: "jj_git_fetch", args: r(a{"all_remotes": true})},
				{tool: "jj_bookmark_delete", args: r(a{"name": "topic"})},
				{tool: "jj_resolve_list", args: r(a{"revision": "@"}), exit: failed},
			}
		},
	})
}
