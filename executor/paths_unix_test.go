//go:build unix

package executor_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
)

// A relative program path is resolved against the config's working_dir, or
// its file's directory, whatever directory a call's cwd arg chooses.
func TestRelativeProgramIgnoresCwdArg(t *testing.T) {
	tool := func(name string) string {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "bin"), 0o755); err != nil {
			t.Fatal(err)
		}
		script := "#!/bin/sh\necho " + name + "\n"
		if err := os.WriteFile(filepath.Join(dir, "bin", "tool"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	configDir, workDir, callerDir := tool("config-dir"), tool("working-dir"), tool("caller-dir")
	rt := func(c config.Config) *config.ResolvedTool {
		return &config.ResolvedTool{
			Tool: &config.Tool{Name: "t_run", Args: []config.Arg{{Name: "dir", Cwd: true}}},
			CLI:  &c,
		}
	}
	tests := []struct {
		cfg  config.Config
		want string
	}{
		{config.Config{Command: "./bin/tool", WorkingDir: workDir, Source: filepath.Join(configDir, "t.yaml")}, "working-dir"},
		{config.Config{Command: "bin/tool", Source: filepath.Join(configDir, "t.yaml")}, "config-dir"},
	}
	for _, tt := range tests {
		out := executor.New().Call(context.Background(), rt(tt.cfg), map[string]any{"dir": callerDir})
		if out.Text != tt.want {
			t.Errorf("%+v: got %q, want %q", tt.cfg, out.Text, tt.want)
		}
		if p, err := executor.FindProgram(&tt.cfg); err != nil || p != out.Argv[0] {
			t.Errorf("FindProgram(%+v) = %q, %v; the call ran %q", tt.cfg, p, err, out.Argv[0])
		}
	}
}
