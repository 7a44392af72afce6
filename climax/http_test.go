package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/alecthomas/kong"
	"github.com/climax-mcp/climax/server"
)

func TestRunHTTPRefusesPublicBind(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  map[string]string
	}{
		{args: []string{"run", "--transport", "http", "--addr", "0.0.0.0:8080", "git"}},
		{args: []string{"run", "--transport", "streamable-http", "--addr", ":8080", "git"}},
		{args: []string{"run", "--transport", "sse", "--addr", "[::]:8080", "git"}},
		{args: []string{"run", "--transport", "http", "--addr", "192.0.2.1:8080", "git"}},
		{args: []string{"git"}, env: map[string]string{"CLIMAX_TRANSPORT": "http", "CLIMAX_ADDR": "0.0.0.0:8080"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			t.Setenv("CLIMAX_AUTH_TOKEN", "")
			code, stdout, stderr := runClimax(t, tc.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			for _, want := range []string{"refusing to listen on", "auth token is required", "--auth-token", "CLIMAX_AUTH_TOKEN"} {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			if stdout != "" {
				t.Errorf("stdout: %q", stdout)
			}
		})
	}
}

func TestRunHTTPUsageErrors(t *testing.T) {
	for args, want := range map[string]string{
		"run --transport sse --stateless git":         "--stateless works with --transport http only",
		"run --transport http --addr 8080 git":        `address "8080": want HOST:PORT`,
		"run --transport http --addr localhost:x git": `bad port "x"`,
		"run --transport ws git":                      `--transport must be one of "stdio","http","streamable-http","sse"`,
	} {
		code, _, stderr := runClimax(t, strings.Fields(args)...)
		if code != exitUsage || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", args, code, stderr, exitUsage, want)
		}
	}
}

// TestRunHTTPServes runs the climax binary with --transport http on a
// free port, talks MCP to it over HTTP with a token and stops it with
// SIGTERM: exit 0.
func TestRunHTTPServes(t *testing.T) {
	bin, err := exec.LookPath("climax") // the test binary as climax (TestMain)
	if err != nil {
		t.Skip("climax not on PATH:", err)
	}
	const token = "a-token-long-enough-for-climax"
	cmd := exec.Command(bin, "run", "--transport", "http", "--addr", "127.0.0.1:0", "--auth-token", token, "git")
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()

	urlc := make(chan string, 1)
	var logged bytes.Buffer
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`serving MCP \(streamable HTTP\) at (http://\S+/mcp)`)
		for sc.Scan() {
			logged.WriteString(sc.Text() + "\n")
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				urlc <- m[1]
			}
		}
		close(urlc)
	}()
	var url string
	select {
	case url = <-urlc:
	case <-time.After(20 * time.Second):
		t.Fatal("no URL printed on stderr")
	}
	if url == "" {
		t.Fatal("climax exited without serving")
	}

	health := strings.TrimSuffix(url, "/mcp") + "/healthz"
	if resp, err := http.Get(health); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/healthz: %v %v", resp, err)
	}
	if code, _, _ := rpc(t, url, "", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`); code != http.StatusUnauthorized {
		t.Errorf("initialize without token: %d", code)
	}
	code, session, _ := rpc(t, url, token, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if code != http.StatusOK || session == "" {
		t.Fatalf("initialize: %d, session %q", code, session)
	}
	rpc(t, url, token, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	code, _, body := rpc(t, url, token, session, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if code != http.StatusOK || !strings.Contains(body, `"climax_search"`) || !strings.Contains(body, `"climax_call"`) {
		t.Fatalf("tools/list: %d %s", code, body)
	}
	// A query naming a bundled config this server was not started with
	// says so (docs/search.md, Answers).
	code, _, body = rpc(t, url, token, session, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"climax_search","arguments":{"query":"kubectl apply","limit":1}}}`)
	if code != http.StatusOK || !strings.Contains(body, `If you meant the program kubectl: it is a bundled config this server was not started with.`) {
		t.Errorf("climax_search kubectl apply: %d %s", code, body)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("after SIGTERM: %v\n%s", err, logged.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("climax still running 15s after SIGTERM")
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout: %q", stdout.String())
	}
}

// rpc POSTs one JSON-RPC message and returns the status, the session id
// header and the body (the data of an event stream, or plain JSON).
func rpc(t *testing.T, url, token, session, msg string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(msg))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	body := string(b)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		var data []string
		for line := range strings.SplitSeq(body, "\n") {
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				data = append(data, d)
			}
		}
		body = strings.Join(data, "\n")
	}
	if body != "" && resp.StatusCode == http.StatusOK && !json.Valid([]byte(body)) {
		t.Errorf("%s: not JSON: %s", msg, fmt.Sprint(body))
	}
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), body
}

// The HTTP flags' defaults bound sessions (1000, 30 minutes idle); 0 turns
// a bound off.
func TestHTTPSessionFlags(t *testing.T) {
	parse := func(args ...string) server.HTTPOptions {
		t.Helper()
		var c struct {
			httpFlags `embed:""`
		}
		parser, err := kong.New(&c)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := parser.Parse(args); err != nil {
			t.Fatal(err)
		}
		return c.options()
	}
	if o := parse("--transport", "http"); o.SessionTimeout != 30*time.Minute || o.MaxSessions != 1000 {
		t.Errorf("defaults: timeout %v, max sessions %d", o.SessionTimeout, o.MaxSessions)
	}
	if o := parse("--transport", "http", "--session-timeout", "0", "--max-sessions", "0"); o.SessionTimeout >= 0 || o.MaxSessions >= 0 {
		t.Errorf("0: timeout %v, max sessions %d, want negative (no bound)", o.SessionTimeout, o.MaxSessions)
	}
	t.Setenv("CLIMAX_MAX_SESSIONS", "7")
	t.Setenv("CLIMAX_SESSION_TIMEOUT", "90s")
	if o := parse("--transport", "http"); o.SessionTimeout != 90*time.Second || o.MaxSessions != 7 {
		t.Errorf("from the environment: timeout %v, max sessions %d", o.SessionTimeout, o.MaxSessions)
	}
	code, _, stderr := runClimax(t, "run", "--transport", "http", "--max-sessions=-1", "git")
	if code != exitUsage || !strings.Contains(stderr, "--max-sessions must not be negative") {
		t.Errorf("--max-sessions -1: exit %d, %q", code, stderr)
	}
}
