package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/server"
)

// getWithToken fetches url (GET) with the bearer token when token is not
// "", and returns the status and body.
func getWithToken(t *testing.T, url, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func TestMetrics(t *testing.T) {
	t.Parallel()
	const token = "metrics-test-token"
	hs := serveHTTP(t, server.HTTPOptions{AuthToken: token})

	if code, _ := getWithToken(t, hs.base+server.MetricsPath, ""); code != http.StatusUnauthorized {
		t.Errorf("GET /metrics without the token: %d, want 401", code)
	}

	cs, err := connectHTTP(t, hs.url, false, token)
	if err != nil {
		t.Fatal(err)
	}
	call(t, cs, "climax_search", map[string]any{"query": "echo"})
	call(t, cs, "climax_call", map[string]any{"tool_name": "fake_echo", "args": map[string]any{"message": "hi"}})
	call(t, cs, "climax_call", map[string]any{"tool_name": "fake_fail"})
	call(t, cs, "climax_call", map[string]any{"tool_name": "fake_echo"})
	call(t, cs, "climax_call", map[string]any{"tool_name": "fake_echo", "args": []any{1}})
	call(t, cs, "climax_call", map[string]any{"tool_name": "made_up_name_1"})
	call(t, cs, "climax_call", map[string]any{"tool_name": "made_up_name_2"})

	code, body := getWithToken(t, hs.base+server.MetricsPath, token)
	if code != http.StatusOK {
		t.Fatalf("GET /metrics: %d\n%s", code, body)
	}
	for _, want := range []string{
		`climax_tool_calls_total{outcome="ok",tool="fake_echo"} 1`,
		`climax_tool_calls_total{outcome="error",tool="fake_fail"} 1`,
		`climax_tool_calls_total{outcome="refused",tool="fake_echo"} 2`, // one with args that are not an object
		// Names no config defines share one label value.
		`climax_tool_calls_total{outcome="refused",tool="(unknown)"} 2`,
		`climax_tool_call_duration_seconds_count{tool="fake_echo"} 3`,
		"climax_tool_calls_in_flight 0",
		"climax_searches_total 1",
		"climax_search_duration_seconds_count 1",
		"climax_sessions 1",
		"# TYPE climax_tool_calls_total counter",
		"# HELP climax_tool_call_duration_seconds Duration of tool calls",
		"# TYPE climax_tool_call_duration_seconds histogram",
		`climax_tool_call_duration_seconds_bucket{tool="fake_echo",le="300"} 3`,
		`climax_tool_call_duration_seconds_bucket{tool="fake_echo",le="+Inf"} 3`,
		"# TYPE climax_sessions gauge",
		"go_goroutines ",
		"process_resident_memory_bytes ",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if strings.Contains(body, "made_up_name") {
		t.Error("an unknown tool name became a label value")
	}
}
