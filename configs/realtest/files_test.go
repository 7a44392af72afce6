package realtest

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/climax-mcp/climax/executor"
)

// The rg and find sandbox: a small project tree with a .gitignore, a hidden
// file and an ignored build directory.
func prepareTree(t *testing.T, sb *sandbox) {
	write(t, sb.path("tree", ".gitignore"), "build/\n")
	write(t, sb.path("tree", ".env"), "SECRET_TODO=1\n")
	write(t, sb.path("tree", "main.py"), "def main():\n    # TODO: greet\n    print('hello')\n")
	write(t, sb.path("tree", "docs", "guide.md"), "# Guide\nTODO write it\n")
	write(t, sb.path("tree", "build", "out.py"), "# TODO generated\n")
	run(t, sb.path("tree"), "git", "init", "--quiet")
}

func init() {
	register(&suite{
		config:  "rg",
		needs:   []string{"git"},
		prepare: prepareTree,
		calls: func(sb *sandbox) []call {
			tree := sb.path("tree")
			return []call{
				{tool: "rg_search", args: a{"pattern": "TODO", "dir": tree}, want: []string{"main.py:2:", "docs/guide.md:2:"}, check: lacks("build/out.py")},
				{tool: "rg_search", args: a{"pattern": "todo", "ignore_case": true, "word": true, "glob": "*.py", "context": 1, "dir": tree}, want: []string{"main.py:2:", "main.py-1-"}, check: lacks("guide.md")},
				{tool: "rg_search", args: a{"pattern": "print('", "fixed_strings": true, "file_type": "py", "max_count": 1, "path": "main.py", "dir": tree}, want: []string{"main.py:3:    print('hello')"}},
				{tool: "rg_search", args: a{"pattern": "TODO", "files_only": true, "hidden": true, "path": tree}, want: []string{".env", "main.py"}},
				{tool: "rg_search", args: a{"pattern": "-v", "dir": tree}, exit: 1},
				{tool: "rg_search", args: a{"pattern": "no such text", "dir": tree}, exit: 1, want: []string{"[exit code: 1 (no matches)]"}},
				// Rust regex syntax: alternation and \d need no backslash before | or +.
				{tool: "rg_search", args: a{"pattern": `print\('hello'\)|^# Guide$`, "dir": tree}, want: []string{"main.py:3:", "docs/guide.md:1:"}},
				{tool: "rg_search", args: a{"pattern": []any{"hello", "Guide"}, "glob": []any{"*.py", "*.md"}, "path": []any{"main.py", "docs", "-missing"}, "dir": tree}, exit: 2, want: []string{"main.py:3:", "docs/guide.md:1:", "-missing: No such file"}},
				{tool: "rg_search", args: a{"pattern": "TODO", "count": true, "dir": tree}, want: []string{"main.py:1", "docs/guide.md:1"}},
				{tool: "rg_search", args: a{"pattern": "print", "files_without_match": true, "dir": tree}, want: []string{"docs/guide.md"}, check: lacks("main.py")},
				{tool: "rg_search", args: a{"pattern": "TODO", "invert_match": true, "path": "main.py", "dir": tree}, want: []string{"main.py:1:def main():", "main.py:3:    print('hello')"}, check: lacks("TODO")},
				{tool: "rg_search", args: a{"pattern": "TODO", "count": true, "path": "main.py", "dir": tree}, want: []string{"main.py:1"}},
				// One file searched is named too (rg alone prints "2:    # TODO").
				{tool: "rg_search", args: a{"pattern": "TODO", "path": sb.path("tree", "main.py")}, want: []string{sb.path("tree", "main.py") + ":2:    # TODO: greet"}},
				{tool: "rg_files", args: a{"dir": tree}, want: []string{"main.py", "docs/guide.md"}, check: lacks("out.py")},
				{tool: "rg_files", args: a{"glob": "*.md", "file_type": "markdown", "hidden": true, "path": tree}, want: []string{"guide.md"}, check: lacks("main.py")},
				{tool: "rg_files", args: a{"glob": []any{"*.py", "!build/*"}, "path": []any{"docs", "."}, "dir": tree}, want: []string{"main.py"}, check: lacks("guide.md")},
			}
		},
	})
	register(&suite{
		config:  "find",
		needs:   []string{"git"},
		prepare: prepareTree,
		calls: func(sb *sandbox) []call {
			tree := sb.path("tree")
			return []call{
				{tool: "find_files", args: a{"name": "*.py", "type": "f", "dir": tree}, want: []string{"./main.py", "./build/out.py"}},
				{tool: "find_files", args: a{"path": tree, "max_depth": 1, "type": "d", "iname": "DOCS"}, want: []string{"/tree/docs"}},
				{tool: "find_files", args: a{"path_glob": "*/docs/*", "size": "-10k", "modified_after": "1 hour ago", "dir": tree}, want: []string{"./docs/guide.md"}},
				// Age, older as well as newer: old.txt was last modified 40 days ago.
				{tool: "find_files", args: a{"modified_days": "+30", "type": "f", "dir": tree}, before: func(t *testing.T) {
					write(t, sb.path("tree", "old.txt"), "old\n")
					then := time.Now().Add(-40 * 24 * time.Hour)
					if err := os.Chtimes(sb.path("tree", "old.txt"), then, then); err != nil {
						t.Fatal(err)
					}
				}, want: []string{"./old.txt"}, check: lacks("main.py")},
				{tool: "find_files", args: a{"modified_days": "-1", "type": "f", "dir": tree}, want: []string{"./main.py"}, check: lacks("old.txt")},
				{tool: "find_files", args: a{"modified_minutes": "-60", "name": "*.txt", "dir": tree}, want: []string{"(no output)"}},
				{tool: "find_files", args: a{"modified_minutes": "+60", "dir": tree}, want: []string{"./old.txt"}, check: lacks("main.py")},
				{tool: "find_files", args: a{"newer_than": "old.txt", "name": "*.md", "dir": tree}, want: []string{"./docs/guide.md"}},
				// Exit code 1 is any error, and its meaning says so: a
				// missing reference file is not a path find could not search.
				{tool: "find_files", args: a{"newer_than": "nonexist", "dir": tree}, exit: 1, want: []string{"nonexist", "No such file or directory", "[exit code: 1 (an error (see stderr): a missing or unreadable path or file, or a bad value)]"}, check: lacks("./main.py")},
				{tool: "find_files", args: a{"modified_after": "not a date", "dir": tree}, exit: 1, want: []string{"not a date", "[exit code: 1 (an error (see stderr)"}, check: lacks("./main.py")},
				// A missing start path: the others are still searched.
				{tool: "find_files", args: a{"path": []any{"docs", "nonexist"}, "dir": tree}, exit: 1, want: []string{"docs/guide.md", "nonexist", "No such file or directory", "[exit code: 1 (an error (see stderr)"}},
				{tool: "find_files", args: a{"empty": true, "type": "f", "dir": tree}, before: func(t *testing.T) { write(t, sb.path("tree", "empty.txt"), "") }, want: []string{"./empty.txt"}, check: lacks("main.py")},
				// -1k rounds sizes up to whole KiB: only empty files are "under 1k".
				{tool: "find_files", args: a{"size": "-1k", "type": "f", "dir": tree}, want: []string{"./empty.txt"}, check: lacks("main.py")},
				{tool: "find_files", args: a{"size": "-100c", "name": "*.py", "dir": tree}, want: []string{"./main.py"}},
				// Exclusions: -not -path and -not -name, each item its own pair.
				{tool: "find_files", args: a{"name": "*.py", "exclude_path": "*/build/*", "dir": tree}, want: []string{"./main.py"}, check: lacks("out.py")},
				{tool: "find_files", args: a{"type": "f", "exclude_path": []any{"./.git", "./.git/*", "./build/*"}, "exclude_name": []any{"*.md", ".*"}, "dir": tree},
					want: []string{"./main.py", "./old.txt"}, check: lacks("guide.md", ".env", ".gitignore", "out.py", "/HEAD")},
				// A value is only ever a glob: "-delete" deletes nothing.
				{tool: "find_files", args: a{"exclude_path": "-delete", "exclude_name": "-fprint", "name": "*.py", "dir": tree}, want: []string{"./main.py", "./build/out.py"}, check: exists(sb.path("tree", "main.py"), true)},
				{tool: "find_files", args: a{"min_depth": 1, "max_depth": 1, "type": "d", "exclude_name": ".git", "dir": tree}, want: []string{"./docs", "./build"}, check: lacks("./.git", ".\n")},
				{tool: "find_files", args: a{"path": []any{"docs", "build"}, "type": "f", "dir": tree}, want: []string{"docs/guide.md", "build/out.py"}, check: lacks("main.py")},
				{tool: "find_files", args: a{"path": []any{"docs", "-delete"}, "dir": tree}, refused: "-delete"},
				{tool: "find_files", args: a{"path": "-delete", "dir": tree}, refused: "-delete"},
				{tool: "find_files", args: a{"path": "!", "name": "*.py", "dir": tree}, refused: "does not match pattern"},
				// details: size in bytes, date and time, path; the tests still
				// select (it is the last word of the expression).
				{tool: "find_files", args: a{"details": true, "name": "*.py", "exclude_path": "*/build/*", "dir": tree},
					want: []string{"49\t" + time.Now().Format("2006-01-02") + "\t", "\t./main.py"}, check: lacks("out.py", "guide.md")},
				{tool: "find_files", args: a{"details": true, "name": "old.txt", "dir": tree}, want: []string{"4\t" + time.Now().Add(-40*24*time.Hour).Format("2006-01-02") + "\t"}},
				// find_delete: -delete comes after the tests, so only what
				// they select goes, and each deleted path is printed.
				{tool: "find_delete", args: a{"dir": tree}, refused: "name"},
				{tool: "find_delete", args: a{"name": "*.py", "delete": false, "dir": tree}, want: []string{"./main.py", "./build/out.py"}, check: func(t *testing.T, out executor.Outcome) {
					exists(sb.path("tree", "main.py"), true)(t, out)
					if strings.Contains(out.Text, "deleted") {
						t.Errorf("a dry run reads as a deletion:\n%s", out.Text)
					}
				}},
				{tool: "find_delete", args: a{"name": "*.py", "exclude_path": "./build/*", "dir": tree}, want: []string{"./main.py"},
					check: func(t *testing.T, out executor.Outcome) {
						exists(sb.path("tree", "main.py"), false)(t, out)
						exists(sb.path("tree", "build", "out.py"), true)(t, out)
						exists(sb.path("tree", "docs", "guide.md"), true)(t, out)
					}},
				{tool: "find_delete", args: a{"name": "*", "modified_days": "+30", "type": "f", "dir": tree}, want: []string{"./old.txt"},
					check: func(t *testing.T, out executor.Outcome) {
						exists(sb.path("tree", "old.txt"), false)(t, out)
						exists(sb.path("tree", "docs", "guide.md"), true)(t, out)
					}},
				// A value is a glob, never an action.
				{tool: "find_delete", args: a{"name": "-exec", "exclude_name": "-fprint", "dir": tree}, want: []string{"(no output)"}, check: exists(sb.path("tree", "docs", "guide.md"), true)},
				// A directory goes only when empty; -depth (implied) empties
				// it first when its content matches too.
				{tool: "find_delete", args: a{"name": "build", "type": "d", "dir": tree}, exit: 1, want: []string{"Directory not empty", "[exit code: 1 (an error (see stderr)"}, check: exists(sb.path("tree", "build", "out.py"), true)},
				{tool: "find_delete", args: a{"name": "*", "path": "build", "dir": tree}, want: []string{"deleted\tbuild/out.py\ndeleted\tbuild"}, check: exists(sb.path("tree", "build"), false)},
			}
		},
	})
}
