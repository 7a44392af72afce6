//go:build unix

package executor_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
)

// The container runtime is run with the config's env values in its own
// environment and their names alone in its arguments: a fake docker (and
// podman) on PATH prints both as it received them. Its environment is the
// server's, so that the client finds its own settings.
func TestDockerClientReceivesEnv(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\nfor a in \"$@\"; do printf 'arg %s\\n' \"$a\"; done\n" +
		"printf 'API_TOKEN=%s\\n' \"$API_TOKEN\"\nprintf 'GIT_PAGER=%s\\n' \"$GIT_PAGER\"\nprintf 'EXECUTOR_TEST_CLIENT=%s\\n' \"$EXECUTOR_TEST_CLIENT\"\n"
	for _, name := range []string{"docker", "podman"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("EXECUTOR_TEST_CLIENT", "inherited")
	for _, runtime := range []string{config.RuntimeDocker, config.RuntimePodman} {
		rt := dockerTool(config.Executor{Runtime: runtime, User: "7:7"})
		// A tool's inherit_env limits what the container inherits, which
		// is nothing already: the client keeps the server's environment.
		rt.Tool.InheritEnv = []string{}
		out := executor.New().Call(context.Background(), rt, nil)
		if out.IsError {
			t.Fatalf("%s: %s", runtime, out.Text)
		}
		for _, want := range []string{"API_TOKEN=s3cret value\n", "GIT_PAGER=cat\n", "EXECUTOR_TEST_CLIENT=inherited",
			"arg -e\narg API_TOKEN\narg -e\narg GIT_PAGER\narg alpine/git\narg git\narg status\n"} {
			if !strings.Contains(out.Text, want) {
				t.Errorf("%s: output lacks %q:\n%s", runtime, want, out.Text)
			}
		}
		for _, line := range strings.Split(out.Text, "\n") {
			if strings.HasPrefix(line, "arg ") && (strings.Contains(line, "s3cret") || strings.Contains(line, "=")) {
				t.Errorf("%s: an env value is an argument: %q", runtime, line)
			}
		}
		if strings.Contains(strings.Join(out.Argv, " "), "s3cret") {
			t.Errorf("%s: the command line shown has the value: %q", runtime, out.Argv)
		}
	}
}
