package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/executor/executortest"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpServer is a server.ServeHTTP running on a loopback port.
type httpServer struct {
	url  string // the MCP endpoint
	base string // http://127.0.0.1:PORT
	stop func() error
	srv  *server.Server
}

// serveHTTP serves a test server over HTTP with opts until the test ends
// or stop is called; stop returns Serve's result.
func serveHTTP(t *testing.T, opts server.HTTPOptions, sopts ...server.Option) *httpServer {
	t.Helper()
	return serveHTTPIndex(t, buildIndex(t), opts, sopts...)
}

// serveHTTPIndex is serveHTTP for the tools of ix.
func serveHTTPIndex(t *testing.T, ix *index.Index, opts server.HTTPOptions, sopts ...server.Option) *httpServer {
	t.Helper()
	return serveServer(t, server.New(ix, executor.New(), sopts...), opts)
}

// serveServer serves srv over HTTP on 127.0.0.1 as serveHTTP does.
func serveServer(t *testing.T, srv *server.Server, opts server.HTTPOptions) *httpServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln, opts) }()
	var once sync.Once
	var result error
	stop := func() error {
		once.Do(func() {
			cancel()
			select {
			case result = <-done:
			case <-time.After(30 * time.Second):
				result = errors.New("Serve did not return 30s after cancel")
			}
		})
		return result
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	})
	base := "http://" + ln.Addr().String()
	return &httpServer{url: opts.URL(ln.Addr()), base: base, stop: stop, srv: srv}
}

// bearer adds an Authorization header to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connectHTTP connects a go-sdk client to url (streamable HTTP, or SSE).
func connectHTTP(t *testing.T, url string, sse bool, token string) (*mcp.ClientSession, error) {
	t.Helper()
	hc := &http.Client{}
	if token != "" {
		hc.Transport = bearer{token}
	}
	var tr mcp.Transport = &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc, MaxRetries: -1}
	if sse {
		tr = &mcp.SSEClientTransport{Endpoint: url, HTTPClient: hc}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), tr, nil)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { cs.Close() })
	return cs, nil
}

func mustConnectHTTP(t *testing.T, url string, sse bool, token string) *mcp.ClientSession {
	t.Helper()
	cs, err := connectHTTP(t, url, sse, token)
	if err != nil {
		t.Fatalf("connect %s: %v", url, err)
	}
	return cs
}

func echoCall(t *testing.T, cs *mcp.ClientSession, msg string) string {
	t.Helper()
	res := call(t, cs, "climax_call", map[string]any{"tool_name": "fake_echo", "args": map[string]any{"message": msg}})
	if res.IsError {
		t.Fatalf("fake_echo: %s", text(t, res))
	}
	return text(t, res)
}

func TestHTTPListAndCall(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts server.HTTPOptions
	}{
		{"stateful", server.HTTPOptions{}},
		{"stateless", server.HTTPOptions{Stateless: true}},
		{"sse", server.HTTPOptions{SSE: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var audit syncBuffer
			hs := serveHTTP(t, tc.opts, server.WithAuditLog(&audit))
			cs := mustConnectHTTP(t, hs.url, tc.opts.SSE, "")
			defer func() {
				// Every transport over HTTP is audited as http.
				if out := flushed(t, hs.srv, &audit); !strings.Contains(out, `"transport":"http"`) || strings.Contains(out, `"transport":"stdio"`) {
					t.Errorf("audit lines:\n%s", out)
				}
			}()
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range res.Tools {
				names = append(names, tool.Name)
			}
			if got := strings.Join(names, ","); got != "climax_search,climax_call" {
				t.Errorf("tools/list: %s", got)
			}
			if got := echoCall(t, cs, "hello over http"); !strings.Contains(got, "hello over http") {
				t.Errorf("call result: %q", got)
			}
			// The same result as over any other transport: structuredContent too.
			r := call(t, cs, "climax_call", map[string]any{"tool_name": "fake_fail"})
			if !r.IsError || !strings.Contains(structured(t, r), `"exit_code":3`) {
				t.Errorf("fake_fail: %v %s", r.IsError, structured(t, r))
			}
		})
	}
}

func TestHTTPClassic(t *testing.T) {
	t.Parallel()
	hs := serveHTTP(t, server.HTTPOptions{}, server.WithClassic(true))
	cs := mustConnectHTTP(t, hs.url, false, "")
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(res.Tools) != 6 {
		t.Fatalf("tools/list: %d tools, %v", len(res.Tools), err)
	}
	r := call(t, cs, "fake_echo", map[string]any{"message": "classic"})
	if r.IsError || !strings.Contains(text(t, r), "classic") {
		t.Errorf("fake_echo: %v %s", r.IsError, text(t, r))
	}
}

func TestHTTPConcurrentClients(t *testing.T) {
	t.Parallel()
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprintf("stateless=%v", stateless), func(t *testing.T) {
			hs := serveHTTP(t, server.HTTPOptions{Stateless: stateless, AuthToken: "a-long-enough-test-token"})
			const clients = 50
			var wg sync.WaitGroup
			errs := make(chan error, clients)
			for i := range clients {
				wg.Go(func() {
					cs, err := connectHTTP(t, hs.url, false, "a-long-enough-test-token")
					if err != nil {
						errs <- err
						return
					}
					if _, err := cs.ListTools(context.Background(), nil); err != nil {
						errs <- err
						return
					}
					msg := fmt.Sprintf("client %d", i)
					res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "climax_call",
						Arguments: map[string]any{"tool_name": "fake_echo", "args": map[string]any{"message": msg}}})
					if err != nil {
						errs <- err
						return
					}
					if got := res.Content[0].(*mcp.TextContent).Text; res.IsError || !strings.Contains(got+"\n", msg+"\n") {
						errs <- fmt.Errorf("%s: got %q", msg, got)
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}

// post sends a raw initialize request to url with the given extra headers
// ("Host" sets the Host header) and returns the response status and, for
// errors, the body and WWW-Authenticate header.
func post(t *testing.T, url string, headers map[string]string) (int, string) {
	t.Helper()
	const body = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		return resp.StatusCode, strings.TrimSpace(string(b)) + " | " + resp.Header.Get("WWW-Authenticate")
	}
	return resp.StatusCode, ""
}

func TestHTTPToken(t *testing.T) {
	t.Parallel()
	const token = "s3cret-token-for-the-tests"
	hs := serveHTTP(t, server.HTTPOptions{AuthToken: token})
	for _, tc := range []struct {
		name, auth string
		want       int
	}{
		{"none", "", http.StatusUnauthorized},
		{"wrong", "Bearer not-the-token", http.StatusUnauthorized},
		{"prefix", "Bearer " + token[:5], http.StatusUnauthorized},
		{"longer", "Bearer " + token + "x", http.StatusUnauthorized},
		{"basic", "Basic " + token, http.StatusUnauthorized},
		{"right", "Bearer " + token, http.StatusOK},
		{"scheme case", "bearer " + token, http.StatusOK},
	} {
		h := map[string]string{}
		if tc.auth != "" {
			h["Authorization"] = tc.auth
		}
		code, body := post(t, hs.url, h)
		if code != tc.want {
			t.Errorf("%s: status %d, want %d (%s)", tc.name, code, tc.want, body)
		}
		if code == http.StatusUnauthorized && !strings.Contains(body, "| Bearer") {
			t.Errorf("%s: 401 without WWW-Authenticate: Bearer (%s)", tc.name, body)
		}
	}
	// A go-sdk client with the token works; without it, it cannot connect.
	cs := mustConnectHTTP(t, hs.url, false, token)
	if got := echoCall(t, cs, "authorized"); !strings.Contains(got, "authorized") {
		t.Errorf("call: %q", got)
	}
	if _, err := connectHTTP(t, hs.url, false, ""); err == nil {
		t.Error("client without token connected")
	}
	// /healthz stays open.
	if code := get(t, hs.base+server.HealthPath); code != http.StatusOK {
		t.Errorf("/healthz without token: %d", code)
	}
}

func TestHTTPTokenSSE(t *testing.T) {
	t.Parallel()
	const token = "s3cret-token-for-the-tests"
	hs := serveHTTP(t, server.HTTPOptions{SSE: true, AuthToken: token})
	if _, err := connectHTTP(t, hs.url, true, "wrong"); err == nil {
		t.Error("SSE client with a wrong token connected")
	}
	cs := mustConnectHTTP(t, hs.url, true, token)
	if got := echoCall(t, cs, "sse ok"); !strings.Contains(got, "sse ok") {
		t.Errorf("call: %q", got)
	}
	// The message endpoint (POST /sse?sessionid=...) needs the token too.
	if code, _ := post(t, hs.url+"?sessionid=x", nil); code != http.StatusUnauthorized {
		t.Errorf("POST without token: %d", code)
	}
}

func get(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK && strings.HasSuffix(url, server.HealthPath) && string(b) != "ok\n" {
		t.Errorf("%s body %q", url, b)
	}
	return resp.StatusCode
}

func TestHTTPOrigin(t *testing.T) {
	t.Parallel()
	hs := serveHTTP(t, server.HTTPOptions{AllowedOrigins: []string{"https://app.example.com"}})
	for origin, want := range map[string]int{
		"":                          http.StatusOK, // not a browser
		"http://localhost":          http.StatusOK,
		"http://localhost:6274":     http.StatusOK,
		"https://127.0.0.1:9":       http.StatusOK,
		"http://[::1]:3000":         http.StatusOK,
		"https://app.example.com":   http.StatusOK,
		"https://APP.example.com/":  http.StatusOK,
		"http://app.example.com":    http.StatusForbidden, // scheme differs
		"http://evil.example.com":   http.StatusForbidden,
		"http://localhost.evil.io":  http.StatusForbidden,
		"null":                      http.StatusForbidden,
		"file://localhost":          http.StatusForbidden,
		"http://evil.com@localhost": http.StatusForbidden, // userinfo: never sent by browsers
		"http://u:p@127.0.0.1:3000": http.StatusForbidden,
	} {
		h := map[string]string{}
		if origin != "" {
			h["Origin"] = origin
		}
		if code, body := post(t, hs.url, h); code != want {
			t.Errorf("Origin %q: status %d, want %d (%s)", origin, code, want, body)
		}
	}
	any := serveHTTP(t, server.HTTPOptions{AllowedOrigins: []string{"*"}})
	if code, body := post(t, any.url, map[string]string{"Origin": "https://anywhere.example"}); code != http.StatusOK {
		t.Errorf("--allow-origin '*': %d %s", code, body)
	}
	if code, _ := post(t, any.url, map[string]string{"Origin": "http://evil.com@localhost"}); code != http.StatusForbidden {
		t.Errorf("--allow-origin '*', origin with userinfo: %d", code)
	}
}

// The Origin rule holds where http.CrossOriginProtection would let a
// request through: a GET (which opens an SSE session or stream, or reads
// the metrics), a Sec-Fetch-Site header claiming the same origin, and an
// Origin naming the request's own (allowed) host.
func TestHTTPOriginBeyondCrossOriginProtection(t *testing.T) {
	t.Parallel()
	hs := serveHTTP(t, server.HTTPOptions{SSE: true, AllowedHosts: []string{"mcp.example.com"}})
	req, err := http.NewRequest(http.MethodGet, hs.url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Origin", "http://evil.example.com")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || strings.TrimSpace(string(body)) != "Forbidden: Origin not allowed" {
		t.Errorf("GET %s with a foreign Origin: %d %s", hs.url, resp.StatusCode, body)
	}
	for _, h := range []map[string]string{
		{"Origin": "http://evil.example.com", "Sec-Fetch-Site": "same-origin"},
		{"Origin": "http://mcp.example.com", "Host": "mcp.example.com"},
	} {
		if code, body := post(t, hs.url+"?sessionid=x", h); code != http.StatusForbidden || !strings.HasPrefix(body, "Forbidden: Origin not allowed") {
			t.Errorf("POST with %v: %d %s", h, code, body)
		}
	}
}

func TestHTTPHost(t *testing.T) {
	t.Parallel()
	// As an environment list "a, b" gives them: spaces around entries.
	hs := serveHTTP(t, server.HTTPOptions{AllowedHosts: []string{"other.example.org", " mcp.example.com "}})
	port := hs.base[strings.LastIndex(hs.base, ":")+1:]
	for host, want := range map[string]int{
		"localhost:" + port:        http.StatusOK,
		"localhost":                http.StatusOK,
		"127.0.0.1:" + port:        http.StatusOK,
		"[::1]:" + port:            http.StatusOK,
		"mcp.example.com":          http.StatusOK,
		"MCP.example.com:443":      http.StatusOK,
		"evil.example.com":         http.StatusForbidden,
		"evil.example.com:" + port: http.StatusForbidden,
		"localhost.evil.io":        http.StatusForbidden,
	} {
		if code, body := post(t, hs.url, map[string]string{"Host": host}); code != want {
			t.Errorf("Host %q: status %d, want %d (%s)", host, code, want, body)
		}
	}
	// The conformance scenario dns-rebinding-protection: both headers foreign.
	if code, _ := post(t, hs.url, map[string]string{"Host": "evil.example.com", "Origin": "http://evil.example.com"}); code != http.StatusForbidden {
		t.Errorf("rebinding: %d", code)
	}
	if code, _ := post(t, hs.url, map[string]string{"Host": "localhost:" + port, "Origin": "http://localhost:" + port}); code != http.StatusOK {
		t.Errorf("valid localhost: %d", code)
	}
}

func TestHTTPBodyLimit(t *testing.T) {
	t.Parallel()
	hs := serveHTTP(t, server.HTTPOptions{MaxBodyBytes: 1024})
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 2048) + `"}}`
	for _, chunked := range []bool{false, true} {
		var body io.Reader = strings.NewReader(big)
		if chunked {
			body = io.MultiReader(body) // unknown length: sent chunked
		}
		req, _ := http.NewRequest(http.MethodPost, hs.url, body)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("chunked=%v: status %d, want 413", chunked, resp.StatusCode)
		}
	}
	// Below the limit all is well.
	if code, body := post(t, hs.url, nil); code != http.StatusOK {
		t.Errorf("small request: %d %s", code, body)
	}
}

func TestHTTPHealthz(t *testing.T) {
	t.Parallel()
	hs := serveHTTP(t, server.HTTPOptions{AuthToken: "a-long-enough-test-token"})
	if code := get(t, hs.base+server.HealthPath); code != http.StatusOK {
		t.Errorf("/healthz: %d", code)
	}
	if code := get(t, hs.base+"/nope"); code != http.StatusNotFound {
		t.Errorf("/nope: %d", code)
	}
	resp, err := http.Post(hs.base+server.HealthPath, "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /healthz: %d", resp.StatusCode)
	}
}

// TestHTTPShutdownKillsCall checks that ending ServeHTTP's context
// cancels a running call (its process dies) and that ServeHTTP returns
// nil promptly.
func TestHTTPShutdownKillsCall(t *testing.T) {
	t.Parallel()
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprintf("stateless=%v", stateless), func(t *testing.T) {
			hs := serveHTTP(t, server.HTTPOptions{Stateless: stateless})
			cs := mustConnectHTTP(t, hs.url, false, "")
			pidfile := filepath.Join(t.TempDir(), "pid")
			go cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "climax_call",
				Arguments: map[string]any{"tool_name": "fake_sleep", "args": map[string]any{"seconds": "30", "pidfile": pidfile}}})
			pid := waitPID(t, pidfile)
			start := time.Now()
			if err := hs.stop(); err != nil {
				t.Fatalf("ServeHTTP: %v", err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("shutdown took %v", d)
			}
			if executortest.Alive(pid) {
				t.Errorf("process %d still alive after shutdown", pid)
			}
			if _, err := http.Get(hs.base + server.HealthPath); err == nil {
				t.Error("still accepting connections after shutdown")
			}
		})
	}
}

// fakeListener is a listener that claims an address and accepts nothing.
type fakeListener struct{ addr net.Addr }

func (l fakeListener) Accept() (net.Conn, error) { return nil, net.ErrClosed }
func (l fakeListener) Close() error              { return nil }
func (l fakeListener) Addr() net.Addr            { return l.addr }

func TestServeHTTPRefusesPublicWithoutToken(t *testing.T) {
	srv := server.New(buildIndex(t), executor.New())
	ln := fakeListener{&net.TCPAddr{IP: net.IPv4zero, Port: 8080}}
	err := srv.Serve(context.Background(), ln, server.HTTPOptions{})
	if !errors.Is(err, server.ErrNoToken) {
		t.Fatalf("ServeHTTP on 0.0.0.0 without token: %v", err)
	}
}

func TestCheckAddr(t *testing.T) {
	for addr, loopback := range map[string]bool{
		"127.0.0.1:8080":       true,
		"127.1.2.3:80":         true,
		"localhost:8080":       true,
		"LOCALHOST:1":          true,
		"[::1]:8080":           true,
		"[::ffff:127.0.0.1]:1": true,
		":8080":                false,
		"0.0.0.0:8080":         false,
		"[::]:8080":            false,
		"192.168.1.10:8080":    false,
		"example.com:8080":     false,
		"localhost.evil.io:80": false,
	} {
		got, err := server.IsLoopbackAddr(addr)
		if err != nil || got != loopback {
			t.Errorf("IsLoopbackAddr(%q) = %v, %v; want %v", addr, got, err, loopback)
		}
		err = server.CheckAddr(addr, "")
		if loopback != (err == nil) {
			t.Errorf("CheckAddr(%q, no token) = %v", addr, err)
		}
		// The library names no flags; the command adds its own (--auth-token).
		if !loopback && (!errors.Is(err, server.ErrNoToken) || strings.Contains(err.Error(), "CLIMAX_AUTH_TOKEN")) {
			t.Errorf("CheckAddr(%q): %v", addr, err)
		}
		if err := server.CheckAddr(addr, "tok"); err != nil {
			t.Errorf("CheckAddr(%q, token) = %v", addr, err)
		}
	}
	for _, bad := range []string{"8080", "localhost", "127.0.0.1:http", "1.2.3.4:99999", ""} {
		if _, err := server.IsLoopbackAddr(bad); err == nil {
			t.Errorf("IsLoopbackAddr(%q): no error", bad)
		}
	}
}

// TestHTTPHandler uses the handler alone, under httptest: cancelling its
// context cancels running calls.
func TestHTTPHandler(t *testing.T) {
	t.Parallel()
	srv := server.New(buildIndex(t), executor.New())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ts := httptest.NewServer(srv.HTTPHandler(ctx, server.HTTPOptions{}))
	t.Cleanup(ts.Close) // after the client has closed its session
	cs := mustConnectHTTP(t, ts.URL+server.MCPPath, false, "")
	pidfile := filepath.Join(t.TempDir(), "pid")
	res := make(chan *mcp.CallToolResult, 1)
	go func() {
		r, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "climax_call",
			Arguments: map[string]any{"tool_name": "fake_sleep", "args": map[string]any{"seconds": "30", "pidfile": pidfile}}})
		res <- r
	}()
	pid := waitPID(t, pidfile)
	cancel()
	select {
	case r := <-res:
		if r == nil || !r.IsError {
			t.Errorf("cancelled call: %+v", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("call not cancelled")
	}
	if executortest.Alive(pid) {
		t.Errorf("process %d still alive", pid)
	}
}

// TestHTTPProgress checks that progress notifications reach the client
// over streamable HTTP, stateless too (they ride on the POST's stream).
func TestHTTPProgress(t *testing.T) {
	t.Parallel()
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprintf("stateless=%v", stateless), func(t *testing.T) {
			t.Parallel()
			clock := newFakeTicker()
			hs := serveHTTP(t, server.HTTPOptions{Stateless: stateless}, server.WithProgressTicker(clock.start))
			notes := make(chan *mcp.ProgressNotificationParams, 100)
			client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) { notes <- req.Params },
			})
			cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.url, MaxRetries: -1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			params, file, pidfile := waitCall(t, "p1")
			done := startCall(context.Background(), cs, params)
			waitPID(t, pidfile)
			clock.tick(t)
			if p := receive(t, notes); p.ProgressToken != "p1" || !progressMessage.MatchString(p.Message) {
				t.Errorf("notification %+v", p)
			}
			release(t, file)
			if r := receive(t, done); r.err != nil || r.res.IsError || text(t, r.res) != "released" {
				t.Fatalf("call: %v %+v", r.err, r.res)
			}
		})
	}
}

// partialPost sends a POST to the MCP endpoint of hs over a raw
// connection, with the given header lines, announcing a body of 100 bytes
// and sending one, and returns what the server sends before it closes the
// connection. It fails the test when the server neither answers nor
// closes within 30 s.
func partialPost(t *testing.T, hs *httpServer, headers ...string) string {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(hs.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	head := "POST " + server.MCPPath + " HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n"
	if !slices.ContainsFunc(headers, func(h string) bool { return strings.HasPrefix(h, "Host:") }) {
		head += "Host: " + strings.TrimPrefix(hs.base, "http://") + "\r\n"
	}
	for _, h := range headers {
		head += h + "\r\n"
	}
	if _, err := io.WriteString(conn, head+"\r\n{"); err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(conn)
	if err != nil {
		t.Fatalf("no answer, or the connection stays open: %v (read %q)", err, b)
	}
	return string(b)
}

// A rejected request is answered at once and its connection closed, even
// though its body never arrives.
func TestHTTPRejectsWithoutWaitingForTheBody(t *testing.T) {
	t.Parallel()
	const token = "a-long-enough-test-token"
	hs := serveHTTP(t, server.HTTPOptions{AuthToken: token, MaxSessions: 1})
	small := serveHTTP(t, server.HTTPOptions{AuthToken: token, MaxBodyBytes: 50})
	auth := "Authorization: Bearer " + token
	if code, body := post(t, hs.url, map[string]string{"Authorization": "Bearer " + token}); code != http.StatusOK {
		t.Fatalf("initialize: %d %s", code, body) // the only session
	}
	for _, tc := range []struct {
		name    string
		hs      *httpServer
		headers []string
		status  string
	}{
		{"no token", hs, nil, "401 Unauthorized"},
		{"origin", hs, []string{auth, "Origin: http://evil.example.com"}, "403 Forbidden"},
		{"host", hs, []string{auth, "Host: evil.example.com"}, "403 Forbidden"},
		{"too large", small, []string{auth}, "413 Request Entity Too Large"},
	} {
		got := partialPost(t, tc.hs, tc.headers...)
		if !strings.HasPrefix(got, "HTTP/1.1 "+tc.status) || !strings.Contains(got, "\r\nConnection: close\r\n") {
			t.Errorf("%s: answer %q, want %s with Connection: close", tc.name, got, tc.status)
		}
	}
}

// An accepted request whose body stops arriving fails after BodyTimeout,
// and the deadline is lifted once a body has arrived: a long call is not
// cut off.
func TestHTTPBodyTimeout(t *testing.T) {
	t.Parallel()
	const timeout = 100 * time.Millisecond
	hs := serveHTTP(t, server.HTTPOptions{BodyTimeout: timeout})
	if got := partialPost(t, hs); !strings.HasPrefix(got, "HTTP/1.1 400 ") {
		t.Errorf("partial body: answer %q, want 400", got)
	}
	cs := mustConnectHTTP(t, hs.url, false, "")
	params, file, pidfile := waitCall(t, nil)
	done := startCall(context.Background(), cs, params)
	waitPID(t, pidfile)
	time.Sleep(5 * timeout) // a deadline left in place would cancel the call now
	release(t, file)
	if r := receive(t, done); r.err != nil || r.res.IsError || text(t, r.res) != "released" {
		t.Errorf("call longer than the body timeout: %v %+v", r.err, r.res)
	}
}

// A limit of one session is told in the singular. At the limit only an
// initialize is refused for capacity (503): a request without a session id
// that is not initialize is the client's error (400), as below the limit.
func TestHTTPMaxOneSession(t *testing.T) {
	t.Parallel()
	hs := serveHTTP(t, server.HTTPOptions{MaxSessions: 1})
	if code, id := initSession(t, hs.url); code != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d, session %q", code, id)
	}
	code, body := post(t, hs.url, nil)
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "1 session is open, the server's limit") {
		t.Errorf("second session: %d %q", code, body)
	}
	resp, err := http.Post(hs.url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), `"id":7,"error":{"code":-32600,"message":"Bad Request: no Mcp-Session-Id header`) {
		t.Errorf("tools/list without a session id at the limit: %d %s, want 400 with -32600", resp.StatusCode, b)
	}
}

// Sessions beyond MaxSessions are refused with 503 until one ends.
func TestHTTPMaxSessions(t *testing.T) {
	t.Parallel()
	hs := serveHTTP(t, server.HTTPOptions{MaxSessions: 2})
	var ids []string
	for range 2 {
		code, id := initSession(t, hs.url)
		if code != http.StatusOK || id == "" {
			t.Fatalf("initialize: %d, session %q", code, id)
		}
		ids = append(ids, id)
	}
	code, body := post(t, hs.url, nil)
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "2 sessions are open, the server's limit") {
		t.Errorf("third session: %d %q", code, body)
	}
	req, _ := http.NewRequest(http.MethodDelete, hs.url, nil)
	req.Header.Set("Mcp-Session-Id", ids[0])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	// The slot frees once go-sdk has closed the session.
	waitUntil(t, "a session opens after DELETE", func() bool {
		code, _ := post(t, hs.url, nil)
		return code == http.StatusOK
	})
	// Stateless serving has no sessions to count.
	sl := serveHTTP(t, server.HTTPOptions{Stateless: true, MaxSessions: 1})
	for range 3 {
		if code, body := post(t, sl.url, nil); code != http.StatusOK {
			t.Errorf("stateless: %d %s", code, body)
		}
	}
}

// SSE sessions are open streams: the cap counts them.
func TestHTTPMaxSessionsSSE(t *testing.T) {
	t.Parallel()
	hs := serveHTTP(t, server.HTTPOptions{SSE: true, MaxSessions: 1})
	cs := mustConnectHTTP(t, hs.url, true, "")
	if _, err := connectHTTP(t, hs.url, true, ""); err == nil || !strings.Contains(err.Error(), "Service Unavailable") {
		t.Errorf("second SSE session: %v, want a 503", err)
	}
	resp, err := http.Get(hs.url)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if code, body := resp.StatusCode, string(b); code != http.StatusServiceUnavailable || !strings.Contains(body, "close their event streams") || strings.Contains(body, "DELETE") {
		t.Errorf("GET /sse at the limit: %d %q, want a 503 that says how SSE sessions end", code, body)
	}
	if code, _ := getWithToken(t, hs.base+server.MetricsPath, ""); code != http.StatusOK {
		t.Errorf("GET /metrics at the session limit: %d (it opens no session)", code)
	}
	cs.Close()
	waitUntil(t, "an SSE session opens after the first closed", func() bool {
		_, err := connectHTTP(t, hs.url, true, "")
		return err == nil
	})
}

// initSession sends initialize and returns the status and session id.
func initSession(t *testing.T, url string) (int, string) {
	t.Helper()
	return initSessionAt(t, url, "2025-06-18")
}

// initSessionAt sends initialize for protocol version and returns the
// status and the session id.
func initSessionAt(t *testing.T, url, version string) (int, string) {
	t.Helper()
	resp, err := postAt(context.Background(), url, "", version, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+version+`","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id")
}

// openSession initializes a session at protocol version, sends
// notifications/initialized and returns the session id.
func openSession(t *testing.T, url, version string) string {
	t.Helper()
	code, session := initSessionAt(t, url, version)
	if code != http.StatusOK || session == "" {
		t.Fatalf("initialize: %d %q", code, session)
	}
	resp, err := postAt(context.Background(), url, session, version, initialized)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return session
}

// postJSON POSTs one JSON-RPC message to url at protocol 2025-06-18, in
// session unless it is empty.
func postJSON(ctx context.Context, url, session, msg string) (*http.Response, error) {
	return postAt(ctx, url, session, "2025-06-18", msg)
}

// A session idle for SessionTimeout is closed.
func TestHTTPSessionTimeout(t *testing.T) {
	t.Parallel()
	hs := serveHTTP(t, server.HTTPOptions{SessionTimeout: 50 * time.Millisecond})
	code, id := initSession(t, hs.url)
	if code != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d %q", code, id)
	}
	// Polled every 100ms, not faster: each ping is activity that keeps the
	// session from being idle.
	deadline := time.Now().Add(waitTimeout)
	for {
		resp, err := postJSON(context.Background(), hs.url, id, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("session still open %v after a 50ms idle timeout: %d", waitTimeout, resp.StatusCode)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A client that closes the connection of its tools/call POST cancels the
// call: the command's process group is killed.
func TestHTTPClientGoneCancelsCall(t *testing.T) {
	t.Parallel()
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprintf("stateless=%v", stateless), func(t *testing.T) {
			t.Parallel()
			hs := serveHTTP(t, server.HTTPOptions{Stateless: stateless})
			session := ""
			if !stateless {
				session = openSession(t, hs.url, "2025-06-18")
			}
			params, _, pidfile := waitCall(t, nil)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			sent := make(chan error, 1)
			go func() {
				resp, err := postJSON(ctx, hs.url, session, callLine(2, params.Name, params.Arguments.(map[string]any)))
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body) // until the client goes away
					resp.Body.Close()
				}
				sent <- err
			}()
			pid := waitPID(t, pidfile)
			cancel()
			if err := receive(t, sent); !errors.Is(err, context.Canceled) {
				t.Errorf("request: %v", err)
			}
			waitGone(t, pid)
			if !stateless { // the session goes on
				resp, err := postJSON(context.Background(), hs.url, session, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)
				if err != nil || resp.StatusCode != http.StatusOK {
					t.Errorf("ping after: %v %v", resp, err)
				} else {
					resp.Body.Close()
				}
			}
		})
	}
}

// Over HTTP, as over stdio, a request whose numeric id go-sdk would not
// echo exactly is refused before it runs, alone or in a batch: a 400 with
// the JSON-RPC error stdio sends, carrying the id as sent.
func TestHTTPRefusesInexactIDs(t *testing.T) {
	t.Parallel()
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprintf("stateless=%v", stateless), func(t *testing.T) {
			t.Parallel()
			hs := serveHTTP(t, server.HTTPOptions{Stateless: stateless})
			session := ""
			if !stateless {
				session = openSession(t, hs.url, "2025-03-26") // batches need 2025-03-26
			}
			marker := filepath.Join(t.TempDir(), "ran")
			call := func(id string) string {
				return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"climax_call","arguments":{"tool_name":"fake_sleep","args":{"seconds":"0","pidfile":"` + marker + `"}}}}`
			}
			for _, id := range []string{`1.5`, `2.9`, `1e2`, `9007199254740993`, `-0`} {
				for _, body := range []string{call(id), `[` + call(id) + `,{"jsonrpc":"2.0","id":"ok","method":"ping"}]`} {
					resp, err := postAt(context.Background(), hs.url, session, "2025-03-26", body)
					if err != nil {
						t.Fatal(err)
					}
					data, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					var reply struct {
						ID    json.RawMessage `json:"id"`
						Error struct {
							Code    int    `json:"code"`
							Message string `json:"message"`
						} `json:"error"`
					}
					if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Content-Type") != "application/json" ||
						json.Unmarshal(data, &reply) != nil || string(reply.ID) != id || reply.Error.Code != -32600 ||
						!strings.Contains(reply.Error.Message, "a numeric id must be an integer from -9007199254740991 to 9007199254740991") {
						t.Errorf("id %s in %.20s…: %s %s", id, body, resp.Status, data)
					}
					if exists(marker) {
						t.Fatalf("id %s: the call ran", id)
					}
				}
			}
			// Two requests of one batch with one id: refused, nothing runs.
			resp, err := postAt(context.Background(), hs.url, session, "2025-03-26", `[`+call("7")+`,`+call("7")+`]`)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(data), "request id already in use") || exists(marker) {
				t.Errorf("batch with a repeated id: %s %s, ran %v", resp.Status, data, exists(marker))
			}
			// Integer ids still work, in a batch too.
			resp, err = postAt(context.Background(), hs.url, session, "2025-03-26", `[`+call("9007199254740991")+`,{"jsonrpc":"2.0","id":"ok","method":"ping"}]`)
			if err != nil {
				t.Fatal(err)
			}
			data, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(data), `"id":9007199254740991`) || !exists(marker) {
				t.Errorf("integer id: %s %s, ran %v", resp.Status, data, exists(marker))
			}
		})
	}
}

// postAt POSTs one JSON-RPC message (or batch) to url, in session unless
// it is empty, with protocol version header version.
func postAt(ctx context.Context, url, session, version, msg string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(msg))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", version)
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	return http.DefaultClient.Do(req)
}

// A POST refused for its id opens no session, and holds no session slot.
func TestHTTPInexactIDHoldsNoSessionSlot(t *testing.T) {
	t.Parallel()
	hs := serveHTTP(t, server.HTTPOptions{MaxSessions: 1})
	for range 2 {
		resp, err := postJSON(context.Background(), hs.url, "", `{"jsonrpc":"2.0","id":1.5,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Mcp-Session-Id") != "" {
			t.Fatalf("initialize with id 1.5: %s, session %q", resp.Status, resp.Header.Get("Mcp-Session-Id"))
		}
	}
	if code, id := initSession(t, hs.url); code != http.StatusOK || id == "" {
		t.Errorf("initialize after two refused: %d, session %q", code, id)
	}
}

// A body holding more array items and object members than one message
// may is refused before go-sdk decodes it (without the cap,
// four 3.7 MiB bodies of empty arrays grow the server by 400 MB), with the
// JSON-RPC error stdio gives, and the session goes on.
func TestHTTPRefusesTooManyItems(t *testing.T) {
	t.Parallel()
	hs := serveHTTP(t, server.HTTPOptions{})
	session := openSession(t, hs.url, "2025-06-18")
	body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"climax_call","arguments":{"tool_name":"fake_echo","args":{"message":"hi","x":[` + strings.Repeat("[],", server.MaxItems) + `[]]}}}}`
	resp, err := postAt(context.Background(), hs.url, session, "2025-06-18", body)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request: the message holds %d array items and object members, more than the %d allowed in one message; send fewer or smaller arguments"}}`, server.MaxItems+11, server.MaxItems)
	if resp.StatusCode != http.StatusBadRequest || strings.TrimSpace(string(got)) != want {
		t.Errorf("%d %s\nwant 400 %s", resp.StatusCode, got, want)
	}
	resp, err = postAt(context.Background(), hs.url, session, "2025-06-18", `{"jsonrpc":"2.0","id":8,"method":"ping"}`)
	if err != nil {
		t.Fatal(err)
	}
	got, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(got), `"id":8`) {
		t.Errorf("ping after the refusal: %d %s", resp.StatusCode, got)
	}
}

// A body nested deeper than encoding/json accepts (10,000 levels) is
// refused for its depth, as a shallower one over the limit is, with the
// request's id.
func TestHTTPRefusesVeryDeepNesting(t *testing.T) {
	t.Parallel()
	hs := serveHTTP(t, server.HTTPOptions{})
	session := openSession(t, hs.url, "2025-06-18")
	body := `{"jsonrpc":"2.0","id":9,"method":"ping","params":{"x":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}}`
	resp, err := postAt(context.Background(), hs.url, session, "2025-06-18", body)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := `{"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"Invalid Request: nested deeper than 1000 levels"}}`
	if resp.StatusCode != http.StatusBadRequest || strings.TrimSpace(string(got)) != want {
		t.Errorf("%d %s\nwant 400 %s", resp.StatusCode, got, want)
	}
}

// A request without a session id that is not initialize gets a 400 with a
// JSON-RPC error naming the header (go-sdk answered 200 with error code
// 0), runs nothing and holds no session slot; over stateless HTTP, where
// there are no sessions, it runs.
func TestHTTPRequestWithoutSession(t *testing.T) {
	t.Parallel()
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprintf("stateless=%v", stateless), func(t *testing.T) {
			t.Parallel()
			hs := serveHTTP(t, server.HTTPOptions{Stateless: stateless, MaxSessions: 1})
			marker := filepath.Join(t.TempDir(), "ran")
			call := `{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"climax_call","arguments":{"tool_name":"fake_sleep","args":{"seconds":"0","pidfile":"` + marker + `"}}}}`
			for range 2 {
				resp, err := postJSON(context.Background(), hs.url, "", call)
				if err != nil {
					t.Fatal(err)
				}
				data, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if stateless {
					if resp.StatusCode != http.StatusOK || !exists(marker) {
						t.Fatalf("stateless call: %s %s, ran %v", resp.Status, data, exists(marker))
					}
					return
				}
				var reply struct {
					ID    string `json:"id"`
					Error struct {
						Code    int    `json:"code"`
						Message string `json:"message"`
					} `json:"error"`
				}
				if resp.StatusCode != http.StatusBadRequest || json.Unmarshal(data, &reply) != nil || reply.ID != "c1" ||
					reply.Error.Code != -32600 || !strings.Contains(reply.Error.Message, "no Mcp-Session-Id header") {
					t.Errorf("call without a session: %s %s", resp.Status, data)
				}
				if exists(marker) {
					t.Fatal("the call ran")
				}
			}
			// The refusals held no slot: the one session the limit allows opens.
			if code, id := initSession(t, hs.url); code != http.StatusOK || id == "" {
				t.Errorf("initialize after the refusals: %d %q", code, id)
			}
		})
	}
}
