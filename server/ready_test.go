package server_test

import (
	"context"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/server"
)

// missingConfig is a config whose program does not exist anywhere.
const missingConfig = `name: gone-tools
description: "A CLI that is not installed"
command: climax-test-no-such-program
tools:
  - name: gone_run
    description: "Run it"
`

// readyz returns the status and body of GET /readyz, with the bearer
// token when token is not "".
func readyz(t *testing.T, base, token string) (int, string) {
	t.Helper()
	return getWithToken(t, base+server.ReadyPath, token)
}

// TestReadyz: /readyz is 200 while every served config's program is
// found, and 503 naming the CLI whose program is missing (to a request
// with the token; others get the count), also after a reload brings such a
// config in; /healthz stays 200 throughout.
func TestReadyz(t *testing.T) {
	t.Parallel()
	const token = "a-long-enough-test-token"
	srv := server.New(parseIndex(t, fakeConfig(t)), executor.New())
	hs := serveServer(t, srv, server.HTTPOptions{AuthToken: token})

	if code, body := readyz(t, hs.base, ""); code != http.StatusOK || body != "ready\n" {
		t.Errorf("every program found: %d %q", code, body)
	}
	srv.Replace(parseIndex(t, fakeConfig(t), missingConfig))
	code, body := readyz(t, hs.base, token)
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "not ready: 1 served config cannot run") ||
		!strings.Contains(body, "- gone-tools: Command not found: climax-test-no-such-program (is it installed and on PATH?)") || strings.Contains(body, "fake-tools") {
		t.Errorf("a program missing, with the token: %d %q", code, body)
	}
	code, body = readyz(t, hs.base, "")
	if code != http.StatusServiceUnavailable || strings.Contains(body, "gone") || !strings.Contains(body, "1 served config cannot run (the server log names it;") {
		t.Errorf("a program missing, without the token: %d %q (must not name the CLIs)", code, body)
	}
	if code := get(t, hs.base+server.HealthPath); code != http.StatusOK {
		t.Errorf("/healthz while not ready: %d, want 200 (liveness)", code)
	}
	// Several reasons of one config count it once, and a docker executor
	// that cannot start is no missing program of the config's.
	pol := "default: enabled\nexecutor:\n  type: docker\n  image: alpine\n  volumes: [\"${CLIMAX_TEST_UNSET_A}:/a\", \"${CLIMAX_TEST_UNSET_B}:/b\"]\n"
	srv.Replace(parseIndexWithPolicy(t, pol, fakeConfig(t)))
	if code, body := readyz(t, hs.base, token); code != http.StatusServiceUnavailable || !strings.Contains(body, "not ready: 1 served config cannot run\n") || strings.Count(body, "\n- fake-tools: ") < 2 {
		t.Errorf("one config, two reasons or more: %d %q", code, body)
	}
	resp, err := http.Post(hs.base+server.ReadyPath, "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /readyz: %d", resp.StatusCode)
	}
	// A policy that disables every tool of the missing CLI: it is not
	// served, so it does not count.
	srv.Replace(parseIndexWithPolicy(t, "default: disabled\ntools:\n  fake_echo: {}\n", fakeConfig(t), missingConfig))
	if code, body := readyz(t, hs.base, ""); code != http.StatusOK {
		t.Errorf("missing CLI disabled by the policy: %d %q", code, body)
	}
}

// TestUnready: the docker executor needs docker itself; a program given
// by a relative path is looked up next to its config.
func TestUnready(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // neither docker nor git
	pol := "default: enabled\nexecutor:\n  type: docker\n  image: alpine\n"
	srv := server.New(parseIndexWithPolicy(t, pol, gitConfig), executor.New())
	if got := strings.Join(srv.Unready(), "\n"); got != "git-tools: the docker executor needs docker, which is not on PATH" {
		t.Errorf("docker executor without docker: %q", got)
	}
	srv = server.New(parseIndexWithPolicy(t, strings.Replace(pol, "type: docker", "type: docker\n  runtime: podman", 1), gitConfig), executor.New())
	if got := strings.Join(srv.Unready(), "\n"); got != "git-tools: the docker executor needs podman, which is not on PATH" {
		t.Errorf("podman runtime without podman: %q", got)
	}
	// A config env the container client reads itself fails every call.
	srv = server.New(parseIndexWithPolicy(t, pol, strings.Replace(gitConfig, "command: git\n", "command: git\nenv: {DOCKER_HOST: tcp://x}\n", 1)), executor.New())
	if got := strings.Join(srv.Unready(), "\n"); !strings.Contains(got, "git-tools: The env of git-tools sets DOCKER_HOST, which docker itself reads on the host") {
		t.Errorf("client variable in the env: %q", got)
	}
	// So does a volume naming a variable the server's environment lacks.
	srv = server.New(parseIndexWithPolicy(t, pol+"  volumes: [\"${CLIMAX_TEST_UNSET_DIR}:/w\"]\n", gitConfig), executor.New())
	if got := strings.Join(srv.Unready(), "\n"); !strings.Contains(got, `git-tools: The docker executor's volume "${CLIMAX_TEST_UNSET_DIR}:/w" names CLIMAX_TEST_UNSET_DIR, a variable that is not set`) {
		t.Errorf("volume naming an unset variable: %q", got)
	}
	srv = server.New(parseIndex(t, gitConfig, strings.Replace(missingConfig, "climax-test-no-such-program", filepath.Join(".", "bin", "gone"), 1)), executor.New())
	got := srv.Unready()
	if len(got) != 2 || !strings.HasPrefix(got[0], "git-tools: Command not found: git") || !strings.HasPrefix(got[1], "gone-tools: Command not found: ") || !strings.HasSuffix(got[1], filepath.Join("bin", "gone")+" (no such file)") {
		t.Errorf("Unready: %q", got)
	}
}

// TestServeStdioWarnsOfMissingProgram: a stdio server whose served config
// cannot run says so at start, at WARNING (shown at the default level),
// in the log and never on stdout; one whose programs are found says
// nothing of the kind.
func TestServeStdioWarnsOfMissingProgram(t *testing.T) {
	t.Parallel()
	for _, missing := range []bool{true, false} {
		var logs syncBuffer
		logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
		configs := []string{fakeConfig(t)}
		if missing {
			configs = append(configs, missingConfig)
		}
		srv := server.New(parseIndex(t, configs...), executor.New(), server.WithLogger(logger))
		var out syncBuffer
		if err := srv.ServeStdio(context.Background(), strings.NewReader(""), &out); err != nil {
			t.Fatalf("ServeStdio: %v", err)
		}
		warned := strings.Contains(logs.String(), "level=WARN msg=\"served configs cannot run") &&
			strings.Contains(logs.String(), "gone-tools: Command not found: climax-test-no-such-program")
		if warned != missing {
			t.Errorf("program missing %v: warned %v; log:\n%s", missing, warned, logs.String())
		}
		if out.String() != "" {
			t.Errorf("stdout holds %q, want nothing before a request", out.String())
		}
	}
}

// The overview names the CLIs whose calls cannot run, so that a caller
// does not try their tools in vain; with every program found it says
// nothing of the kind.
func TestOverviewNamesUnrunnableCLIs(t *testing.T) {
	t.Parallel()
	for _, missing := range []bool{true, false} {
		configs := []string{fakeConfig(t)}
		if missing {
			configs = append(configs, missingConfig)
		}
		srv := server.New(parseIndex(t, configs...), executor.New(), server.WithLogger(slog.New(slog.DiscardHandler)))
		got := serveLines(t, srv, initialize, initialized, callLine(2, "climax_search", map[string]any{}))
		text := string(got["2"].Result)
		named := strings.Contains(text, "gone-tools cannot run here")
		if named != missing {
			t.Errorf("program missing %v: overview names it %v:\n%s", missing, named, text)
		}
	}
}
