package index_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
)

// compatDir returns the directory of configs written for the earlier
// Python implementation and CLImax 0.5: $CLIMAX_COMPAT_DIR, else
// shared/compat in this checkout's directory or the nearest directory
// above it that has one (a worktree sits deeper than the main checkout).
// They are third-party data, kept out of the repository: every one must
// load and validate unmodified. "" when there is none.
func compatDir(t *testing.T) string {
	if d := os.Getenv("CLIMAX_COMPAT_DIR"); d != "" {
		return d
	}
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if fi, err := os.Stat(filepath.Join(dir, "shared", "compat")); err == nil && fi.IsDir() {
			return filepath.Join(dir, "shared", "compat")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func TestCompatConfigs(t *testing.T) {
	dir := compatDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if dir == "" || err != nil || len(files) == 0 {
		t.Skipf("no compat configs (CLIMAX_COMPAT_DIR, or shared/compat beside the checkout): %q %v", dir, err)
	}
	var configs []*config.Config
	for _, f := range files {
		c, err := config.LoadFile(f)
		if err != nil {
			t.Errorf("%s does not load:\n%v", f, err)
			continue
		}
		if len(c.Tools) == 0 {
			t.Errorf("%s: no tools", f)
		}
		for _, w := range c.Warnings {
			t.Logf("warning (allowed): %s", w)
		}
		configs = append(configs, c)
	}
	ix, _, err := index.New(configs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ix.Summary()) != len(configs) {
		t.Errorf("Summary lists %d CLIs, want %d", len(ix.Summary()), len(configs))
	}

	// Values these files rely on keep their meaning.
	args := func(tool string) map[string]config.Arg {
		rt, ok := ix.Get(tool)
		if !ok {
			return nil
		}
		m := map[string]config.Arg{}
		for _, a := range rt.Tool.Args {
			m[a.Name] = a
		}
		return m
	}
	checks := []struct {
		tool, arg string
		check     func(a config.Arg) bool
	}{
		{"git_log", "max_count", func(a config.Arg) bool { return a.Type == config.TypeInteger && a.Default == 10 && a.Flag == "-n" }},
		{"docker_logs", "tail", func(a config.Arg) bool { return a.Type == config.TypeString && a.Default == "50" }},
		{"docker_compose_ps", "format", func(a config.Arg) bool { return len(a.Enum) == 2 }},
		{"claude_ask", "print", func(a config.Arg) bool { return a.Type == config.TypeBoolean && a.Default == true }},
		{"claude_ask", "prompt", func(a config.Arg) bool { return a.Stdin && a.Required }},
		{"claude_ask", "directory", func(a config.Arg) bool { return a.Cwd }},
		{"coreutils_echo", "message", func(a config.Arg) bool { return a.Positional && a.Required }},
	}
	for _, c := range checks {
		m := args(c.tool)
		if m == nil {
			continue // that compat file is not present
		}
		if a, ok := m[c.arg]; !ok || !c.check(a) {
			t.Errorf("%s.%s = %+v", c.tool, c.arg, a)
		}
	}
	for _, c := range configs {
		if c.Name == "obsidian-tools" {
			if len(c.GlobalArgs) != 1 || c.GlobalArgs[0].Default != "$OBSIDIAN_VAULT" || c.GlobalArgs[0].Flag != "vault=" {
				t.Errorf("obsidian global args = %+v", c.GlobalArgs)
			}
		}
	}
}
