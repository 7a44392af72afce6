package index_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/index/config"

	"github.com/climax-mcp/climax/index"
)

// bundledDir holds the configs embedded in the climax binary.
const bundledDir = "../configs"

// TestBundledConfigs loads every bundled config strictly and builds one
// index from all of them, as `climax` with every bundled name would.
func TestBundledConfigs(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(bundledDir, "*.yaml"))
	if len(files) == 0 {
		t.Skipf("no bundled configs in %s", bundledDir)
	}
	var configs []*config.Config
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, err := config.Parse(data, f)
		if err != nil {
			t.Errorf("bundled config does not load:\n%v", err)
			continue
		}
		if len(c.Tools) == 0 {
			t.Errorf("%s: no tools", f)
		}
		for _, w := range c.Warnings {
			t.Errorf("bundled config has a warning: %s", w)
		}
		for _, tool := range c.Tools {
			if len(tool.Keywords) == 0 {
				t.Errorf("%s: tool %s has no keywords; bundled tools need them for search", f, tool.Name)
			}
		}
		// Every bundled config has a category and tags (docs/config.md,
		// Bundled configs).
		if c.Category == "" || len(c.Tags) == 0 {
			t.Errorf("%s: category %q, tags %v; bundled configs need both", f, c.Category, c.Tags)
		}
		configs = append(configs, c)
	}
	ix, _, err := index.New(configs, nil)
	if err != nil {
		t.Fatalf("bundled configs do not index together: %v", err)
	}
	if len(ix.Summary()) != len(configs) {
		t.Errorf("Summary lists %d CLIs, want %d", len(ix.Summary()), len(configs))
	}
	// The bundled configs testdata/script/run_bundled.txtar relies on.
	names, err := config.BundledNames(os.DirFS(bundledDir))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"git", "jj", "docker"} {
		found := false
		for _, n := range names {
			found = found || n == want
		}
		if !found {
			t.Errorf("no bundled config %q (have %v)", want, names)
		}
	}
}

// bundledConfigs loads every bundled config.
func bundledConfigs(t *testing.T) []*config.Config {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(bundledDir, "*.yaml"))
	if len(files) == 0 {
		t.Skipf("no bundled configs in %s", bundledDir)
	}
	var out []*config.Config
	for _, f := range files {
		c, err := config.LoadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// separateValueFlags are the bundled flags that take their value as the
// next word rather than joined (--flag=VALUE), each with the reason that
// the next word is always read as the value, whatever it starts with.
var separateValueFlags = map[string]string{
	"curl":                        "curl has no --flag=VALUE form; an option that takes a value always takes the next word",
	"find":                        "find's tests (-name, -type, -newermt...) always take the next word",
	"git_log.pickaxe":             "-S requires a value (git's parse-options takes the next word)",
	"git_blame.lines":             "-L requires a value",
	"git_grep.pattern":            "-e requires a value",
	"git_checkout.new_branch":     "-b requires a value",
	"git_worktree_add.new_branch": "-b requires a value",
	"docker_exec.command":         "the shell's -c: a tool that runs a caller's shell command",
	"docker_run.command":          "the shell's -c",
	"docker_compose_exec.command": "the shell's -c",
	"docker_compose_run.command":  "the shell's -c",
	"kubectl_exec.command":        "the shell's -c",
}

// Every bundled flag with a value joins it (--flag=VALUE), unless listed
// in separateValueFlags: an option whose value is optional to the program
// (cargo's --package, git's --merged) would read a value starting with
// "-" as another option (--config=build.rustc=/x), and values of flag args
// may start with "-" (docs/calls.md, Validation).
func TestBundledFlagsJoinTheirValue(t *testing.T) {
	for _, c := range bundledConfigs(t) {
		for _, tool := range c.Tools {
			for _, a := range tool.Args {
				if a.Flag == "" || a.Flag == "--" || a.Type == config.TypeBoolean || strings.HasSuffix(a.Flag, "=") {
					continue
				}
				if separateValueFlags[c.Name] != "" || separateValueFlags[tool.Name+"."+a.Name] != "" {
					continue
				}
				t.Errorf("%s: tool %s: arg %s: flag %q takes its value as the next word: write flag: %s= (or add it to separateValueFlags with the reason the next word is always its value)", c.Name, tool.Name, a.Name, a.Flag, a.Flag)
			}
		}
		if len(c.GlobalArgs) > 0 {
			t.Errorf("%s: global_args: check them here too", c.Name)
		}
	}
}

// TestBundledFallbackRanksBelowDedicatedTools checks that gh_api, which
// reads any GitHub endpoint, does not out-rank the gh tool made for a
// task when a query names that task's resource: a fallback's words say
// what it is for, not the resources the dedicated tools cover.
func TestBundledFallbackRanksBelowDedicatedTools(t *testing.T) {
	ix, _, err := index.New(bundledConfigs(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	for query, want := range map[string]string{
		"list pull requests github":       "gh_pr_list",
		"list open pull requests":         "gh_pr_list",
		"list github issues":              "gh_issue_list",
		"show a pull request on github":   "gh_pr_view",
		"github actions workflow runs":    "gh_run_list",
		"list pull request review checks": "gh_pr_checks",
	} {
		rank := map[string]int{}
		for i, e := range ix.Search(query, "", "", 10) {
			rank[e.ToolName] = i + 1
		}
		if rank[want] == 0 {
			t.Errorf("%q: %s not among the first 10", query, want)
			continue
		}
		if r, ok := rank["gh_api"]; ok && r < rank[want] {
			t.Errorf("%q: gh_api ranks %d, above %s (%d)", query, r, want, rank[want])
		}
	}
}
