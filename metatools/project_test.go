package metatools_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/metatools"
)

// touch creates the files and directories (names ending in /) under dir.
func touch(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(dir, n)
		var err error
		if strings.HasSuffix(n, "/") {
			err = os.MkdirAll(p, 0o755)
		} else if err = os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
			err = os.WriteFile(p, nil, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestProbeProject(t *testing.T) {
	root := t.TempDir()
	// The walk up stops at the home directory: the directories above the
	// test's own are not looked at, whatever they hold.
	t.Setenv("HOME", root)
	t.Setenv("USERPROFILE", root)
	touch(t, root, "repo/.git/", "repo/Makefile", "repo/svc/go.mod", "repo/svc/cmd/x/", "package.json", "rust/Cargo.toml", "rust/compose.yaml")
	tests := []struct {
		dir         string
		uses, lacks []string
	}{
		// Markers count from the directory up to the repository root,
		// and not above it (package.json is outside the repository).
		{"repo/svc/cmd/x", []string{"go", "make", "git"}, []string{"cargo", "npm"}},
		{"repo", []string{"make", "git"}, []string{"go", "cargo", "npm"}},
		// Without a repository, up to the home directory (or the
		// filesystem root).
		{"rust", []string{"cargo", "npm", "docker"}, []string{"go", "make"}},
	}
	for _, tt := range tests {
		p, err := metatools.ProbeProject(filepath.Join(root, tt.dir))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.Uses, tt.uses) || !slices.Equal(p.Lacks, tt.lacks) {
			t.Errorf("%s: uses %q, lacks %q; want %q, %q", tt.dir, p.Uses, p.Lacks, tt.uses, tt.lacks)
		}
	}
	for _, bad := range []string{filepath.Join(root, "nope"), filepath.Join(root, "package.json")} {
		if _, err := metatools.ProbeProject(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	touch(t, home, "proj/go.mod")
	if p, err := metatools.ProbeProject("~/proj"); err != nil || !slices.Contains(p.Uses, "go") {
		t.Errorf("~/proj: %+v, %v; want go", p, err)
	}
}

// climax_search's cwd ranks the project's tools first for a generic
// request, says which programs it found, and refuses a directory that is
// not one.
func TestSearchCwd(t *testing.T) {
	mt := metatools.New(build(t,
		"name: docker\ncommand: docker\ntools:\n  - name: docker_compose_build\n    description: Build the images of a Compose project\n  - name: docker_ps\n    description: List containers\n",
		"name: go\ncommand: go\ntools:\n  - name: go_build\n    description: Compile packages\n    command: build\n",
		"name: git\ncommand: git --no-pager\ntools:\n  - name: git_status\n    description: Show the working tree status\n",
	), executor.New())
	dir := t.TempDir()
	touch(t, dir, "go.mod", ".git/", "Cargo.toml")
	first := func(args map[string]any) (string, []string) {
		t.Helper()
		out := mt.Search(args)
		var resp struct {
			Project []string
			Results []index.Entry
		}
		if err := json.Unmarshal([]byte(out.Text), &resp); err != nil || out.IsError || len(resp.Results) == 0 {
			t.Fatalf("%v: %v %s", args, err, out.Text)
		}
		return resp.Results[0].ToolName, resp.Project
	}
	if got, _ := first(map[string]any{"query": "build the project"}); got != "docker_compose_build" {
		t.Errorf("without cwd: %s first", got)
	}
	got, project := first(map[string]any{"query": "build the project", "cwd": dir})
	if got != "go_build" {
		t.Errorf("cwd of a Go module: %s first, want go_build", got)
	}
	// Only loaded programs are reported (cargo is found but not loaded).
	if !slices.Equal(project, []string{"go", "git"}) {
		t.Errorf("project %q, want [go git]", project)
	}
	if got, _ := first(map[string]any{"query": "list containers", "cwd": dir}); got != "docker_ps" {
		t.Errorf("list containers in a Go module: %s first", got)
	}
	for _, bad := range []string{filepath.Join(dir, "missing"), filepath.Join(dir, "go.mod")} {
		out := mt.Search(map[string]any{"query": "build", "cwd": bad})
		if !out.IsError || !strings.HasPrefix(out.Text, "Argument 'cwd': ") || !strings.Contains(out.Text, bad) {
			t.Errorf("cwd %s: %v %s", bad, out.IsError, out.Text)
		}
	}
	// Hostile paths: a clear error, never the whole path back.
	for _, bad := range []string{strings.Repeat("a/", 3000), "/tmp/\x00nul", strings.Repeat("x", 300), "\x1b[31m/red"} {
		out := mt.Search(map[string]any{"query": "build", "cwd": bad})
		if !out.IsError || !strings.HasPrefix(out.Text, "Argument 'cwd': ") || len(out.Text) > 400 || strings.ContainsAny(out.Text, "\x00\x1b") {
			t.Errorf("cwd %.40q: %v %q", bad, out.IsError, out.Text)
		}
	}
	if out := mt.Search(map[string]any{"query": "build", "cwd": 3.0}); !out.IsError || !strings.Contains(out.Text, "Argument 'cwd' must be a string (got number)") {
		t.Errorf("cwd 3: %v %s", out.IsError, out.Text)
	}
	// A cwd alone leaves the overview as it is.
	if out := mt.Search(map[string]any{"cwd": dir}); !strings.HasPrefix(out.Text, `{"mode":"summary"`) {
		t.Errorf("cwd alone: %s", out.Text)
	}
}
