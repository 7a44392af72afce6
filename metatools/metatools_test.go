package metatools_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/executor/executortest"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
	"github.com/climax-mcp/climax/metatools"
)

// fakeEnv makes the test binary act as a fake CLI (package executortest).
const fakeEnv = executortest.EnvVar

func TestMain(m *testing.M) { executortest.Main(m) }

func fakeConfig(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf(`name: fake-tools
description: "A fake CLI for tests"
command: %q
env:
  %s: "1"
  GORACE: atexit_sleep_ms=0 # a fake CLI built with -race would sleep 1 s at exit
category: testing
tags: [fake, "a<b&c"]
tools:
  - name: fake_echo
    description: "Echo the message back"
    command: echo
    args:
      - name: message
        description: "Text to echo"
        required: true
        positional: true
      - name: format
        description: "Output format"
        flag: --format
        enum: [json, text, csv]
  - name: fake_fail
    description: "Always fails with exit code 3"
    command: fail
  - name: fake_sleep
    description: "Sleeps for a while"
    command: sleep
    timeout: 0.5
    args:
      - name: seconds
        positional: true
        default: "5"
`, exe, fakeEnv)
}

const otherConfig = `name: git-tools
description: "MCP tools for Git"
command: git
category: vcs
tags: [version-control, commits]
tools:
  - name: git_status
    description: "Show the working tree status"
    command: status
  - name: git_commit
    description: "Record changes to the repository"
    keywords: [save a snapshot, check in]
    command: commit
    args:
      - name: message
        description: "Commit message"
        flag: -m
        required: true
`

const plainConfig = `name: plain
command: plain
tools:
  - name: plain_run
    description: "Runs <things> & more"
`

func build(t *testing.T, yamls ...string) *index.Index {
	t.Helper()
	var cfgs []*config.Config
	for i, y := range yamls {
		c, err := config.Parse([]byte(y), fmt.Sprintf("config%d.yaml", i))
		if err != nil {
			t.Fatal(err)
		}
		cfgs = append(cfgs, c)
	}
	ix, _, err := index.New(cfgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func newTools(t *testing.T) *metatools.Tools {
	return metatools.New(build(t, otherConfig, fakeConfig(t), plainConfig), executor.New())
}

func TestDefinitions(t *testing.T) {
	got, err := json.Marshal(metatools.Definitions())
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"name":"climax_search","description":"Find CLI tools by task or keyword; each result gives the tool_name and input_schema for climax_call. No arguments: an overview of the CLIs.","inputSchema":{"type":"object","properties":{"query":{"type":"string","description":"Task or keywords"},"category":{"type":"string","description":"Only CLIs of this category"},"cli":{"type":"string","description":"Only this CLI"},"limit":{"type":"integer","description":"Results per page (default 10)"},"offset":{"type":"integer","description":"Results to skip (next page)"},"cwd":{"type":"string","description":"Project directory: its tools rank first"}}},"_meta":{"anthropic/alwaysLoad":true,"anthropic/searchHint":"find CLI tools by task or error message"}},` +
		`{"name":"climax_call","description":"Execute a CLI tool by name. Use climax_search first to discover available tools and their argument schemas.","inputSchema":{"type":"object","properties":{"tool_name":{"type":"string","description":"The exact name of the tool to execute (as returned by climax_search)"},"args":{"type":"object","description":"Arguments to pass to the tool (see tool's input_schema from climax_search); its working directory is its own arg for it (dir in bundled tools), not cwd"}},"required":["tool_name"]},"_meta":{"anthropic/alwaysLoad":true,"anthropic/searchHint":"run a CLI tool found by climax_search"}}]`
	if string(got) != want {
		t.Errorf("Definitions:\n got %s\nwant %s", got, want)
	}
	// Fresh values each time: changing one result must not affect the next.
	d := metatools.Definitions()
	d[0].InputSchema[0] = 'X'
	if metatools.Definitions()[0].InputSchema[0] != '{' {
		t.Error("Definitions shares its schema bytes between calls")
	}
}

func TestClassicDefinitions(t *testing.T) {
	ix := build(t, otherConfig, plainConfig)
	got, err := json.Marshal(metatools.ClassicDefinitions(ix))
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"name":"git_status","description":"Show the working tree status","inputSchema":{"type":"object","properties":{}}},` +
		`{"name":"git_commit","description":"Record changes to the repository","inputSchema":{"type":"object","properties":{"message":{"type":"string","description":"Commit message"}},"required":["message"]},"_meta":{"anthropic/searchHint":"save a snapshot, check in"}},` +
		`{"name":"plain_run","description":"Runs \u003cthings\u003e \u0026 more","inputSchema":{"type":"object","properties":{}}}]`
	if string(got) != want {
		t.Errorf("ClassicDefinitions:\n got %s\nwant %s", got, want)
	}
}

func TestSearchHint(t *testing.T) {
	long := strings.Repeat("é", 50) // 100 bytes
	tests := []struct {
		keywords []string
		want     string
	}{
		{nil, ""},
		{[]string{"history", "recent  commits", " "}, "history, recent commits"},
		{[]string{strings.Repeat("a", 40), "bbbbbbbbbb", "c"}, strings.Repeat("a", 40)}, // the next keyword would pass 48 bytes
		{[]string{long, "x"}, strings.Repeat("é", 24)},
	}
	for _, tt := range tests {
		if got := metatools.SearchHint(tt.keywords); got != tt.want {
			t.Errorf("SearchHint(%q) = %q, want %q", tt.keywords, got, tt.want)
		}
	}
}

const (
	gitStatusEntry = `{"tool_name":"git_status","description":"Show the working tree status","cli_name":"git-tools","input_schema":{"type":"object","properties":{}}}`
	gitCommitEntry = `{"tool_name":"git_commit","description":"Record changes to the repository","cli_name":"git-tools","input_schema":{"type":"object","properties":{"message":{"type":"string","description":"Commit message"}},"required":["message"]}}`
	plainEntry     = `{"tool_name":"plain_run","description":"Runs <things> & more","cli_name":"plain","input_schema":{"type":"object","properties":{}}}`
	gitSummary     = `{"name":"git-tools","description":"MCP tools for Git","tool_count":2,"category":"vcs","tags":["version-control","commits"]}`
	fakeSummary    = `{"name":"fake-tools","description":"A fake CLI for tests","tool_count":3,"category":"testing","tags":["fake","a<b&c"]}`
	plainSummary   = `{"name":"plain","description":"","tool_count":1,"category":null,"tags":[]}`
)

// searchText is the text of a search answer of total matches whose page
// holds entries, from offset.
func searchText(total, offset int, hint string, entries ...string) string {
	h := ""
	if hint != "" {
		h = `,"hint":"` + hint + `"`
	}
	return fmt.Sprintf(`{"mode":"search","total_matches":%d,"returned":%d,"has_more":%v%s,"results":[%s]}`,
		total, len(entries), offset+len(entries) < total, h, strings.Join(entries, ","))
}

// The hint of a search that finds nothing for its words.
const noMatchHint = "No tool matches. Try fewer or other words (what the tool does, or the program's name), or call climax_search with no arguments for an overview of the CLIs."

func TestSearch(t *testing.T) {
	mt := newTools(t)
	summary := `{"mode":"summary","total_matches":3,"returned":3,"has_more":false,"summary":[` + gitSummary + `,` + fakeSummary + `,` + plainSummary + `]}`
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"no args is the summary", nil, summary},
		{"empty object is the summary", map[string]any{}, summary},
		{"limit alone is still the summary", map[string]any{"limit": 2.0}, `{"mode":"summary","total_matches":3,"returned":2,"has_more":true,"hint":"Showing 2 of 3 CLIs; call again with offset 2 (or a larger limit) for the rest.","summary":[` + gitSummary + `,` + fakeSummary + `]}`},
		{"null filters count as absent", map[string]any{"query": nil, "category": nil, "cli": nil, "limit": nil}, summary},
		{"query", map[string]any{"query": "working tree"}, searchText(1, 0, "", gitStatusEntry)},
		{"query is case-insensitive", map[string]any{"query": "RECORD CHANGES"}, searchText(1, 0, "", gitCommitEntry)},
		{"query keeps HTML characters readable", map[string]any{"query": "<things>"}, searchText(1, 0, "", plainEntry)},
		{"category", map[string]any{"category": "VCS"}, searchText(2, 0, "", gitStatusEntry, gitCommitEntry)},
		{"cli", map[string]any{"cli": "Git-Tools"}, searchText(2, 0, "", gitStatusEntry, gitCommitEntry)},
		{"query and category AND together", map[string]any{"query": "commit", "category": "testing"}, searchText(0, 0, noMatchHint)},
		{"query and cli", map[string]any{"query": "record", "cli": "git-tools"}, searchText(1, 0, "", gitCommitEntry)},
		{"empty query with a filter searches", map[string]any{"query": "", "cli": "plain"}, searchText(1, 0, "", plainEntry)},
		{"no match", map[string]any{"query": "kubernetes"}, searchText(0, 0, noMatchHint)},
		{"unknown category", map[string]any{"category": "nope"}, searchText(0, 0, "No CLI has the category nope. The categories are: vcs, testing.")},
		{"unknown cli", map[string]any{"cli": "gti", "query": "status"}, searchText(0, 0, "No CLI is named gti. The CLIs are: git-tools, fake-tools, plain.")},
		{"offset", map[string]any{"cli": "git-tools", "limit": 1.0, "offset": 1.0}, searchText(2, 1, "", gitCommitEntry)},
		{"offset past the end", map[string]any{"cli": "git-tools", "offset": "7"}, searchText(2, 7, "Offset 7 is past the last of 2 matches.")},
		{"offset past the only match", map[string]any{"cli": "plain", "offset": 3.0}, searchText(1, 3, "Offset 3 is past the only match.")},
		{"bad offset is none", map[string]any{"cli": "git-tools", "limit": 1.0, "offset": -1.0}, searchText(2, 0, "", gitStatusEntry)},
		{"summary offset", map[string]any{"offset": 1.0, "limit": 1.0}, `{"mode":"summary","total_matches":3,"returned":1,"has_more":true,"hint":"Showing CLI 2 of 3; call again with offset 2 (or a larger limit) for the rest.","summary":[` + fakeSummary + `]}`},
		{"summary offset past the end", map[string]any{"offset": 3.0}, `{"mode":"summary","total_matches":3,"returned":0,"has_more":false,"hint":"Offset 3 is past the last of 3 CLIs.","summary":[]}`},
		{"limit", map[string]any{"cli": "git-tools", "limit": 1.0}, searchText(2, 0, "", gitStatusEntry)},
		{"limit as json.Number", map[string]any{"cli": "git-tools", "limit": json.Number("1")}, searchText(2, 0, "", gitStatusEntry)},
		{"limit as numeric string", map[string]any{"cli": "git-tools", "limit": "1"}, searchText(2, 0, "", gitStatusEntry)},
		{"limit summary", map[string]any{"limit": "1"}, `{"mode":"summary","total_matches":3,"returned":1,"has_more":true,"hint":"Showing 1 of 3 CLIs; call again with offset 1 (or a larger limit) for the rest.","summary":[` + gitSummary + `]}`},
		{"huge limit", map[string]any{"cli": "git-tools", "limit": 1e300}, searchText(2, 0, "", gitStatusEntry, gitCommitEntry)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := mt.Search(tt.args)
			if out.IsError || out.Text != tt.want {
				t.Errorf("Search(%v) = %v %s\nwant %s", tt.args, out.IsError, out.Text, tt.want)
			}
			if !json.Valid([]byte(out.Text)) {
				t.Errorf("not JSON: %s", out.Text)
			}
		})
	}
}

func TestSearchBadLimitFallsBack(t *testing.T) {
	// 12 CLIs, so that the default limit of 10 shows.
	var yamls []string
	for i := range 12 {
		yamls = append(yamls, fmt.Sprintf("name: cli%02d\ncommand: x\ntools:\n  - name: t%02d\n    description: d\n", i, i))
	}
	mt := metatools.New(build(t, yamls...), executor.New())
	for _, limit := range []any{"abc", 2.5, -3.0, true, []any{1.0}, map[string]any{}, "", json.Number("1.5")} {
		out := mt.Search(map[string]any{"limit": limit})
		var resp struct{ Summary []any }
		if err := json.Unmarshal([]byte(out.Text), &resp); err != nil || out.IsError {
			t.Fatalf("limit %#v: %v %s", limit, err, out.Text)
		}
		if len(resp.Summary) != metatools.DefaultLimit {
			t.Errorf("limit %#v: %d summaries, want %d", limit, len(resp.Summary), metatools.DefaultLimit)
		}
		out = mt.Search(map[string]any{"query": "d", "limit": limit})
		var sr struct{ Results []any }
		if err := json.Unmarshal([]byte(out.Text), &sr); err != nil || out.IsError {
			t.Fatalf("limit %#v: %v %s", limit, err, out.Text)
		}
		if len(sr.Results) != metatools.DefaultLimit {
			t.Errorf("search, limit %#v: %d results, want %d", limit, len(sr.Results), metatools.DefaultLimit)
		}
	}
	// Numbers too large for float64 are large limits, not bad ones.
	for _, limit := range []any{json.Number("1e400"), "1e400"} {
		var resp struct{ Summary []any }
		if out := mt.Search(map[string]any{"limit": limit}); json.Unmarshal([]byte(out.Text), &resp) != nil || len(resp.Summary) != 12 {
			t.Errorf("limit %#v: %d summaries, want all 12", limit, len(resp.Summary))
		}
	}
}

// An empty query is given, not absent: a search that every tool matches
// (docs/search.md, Summary or search). limit 0 asks for nothing.
func TestSearchEmptyQueryAndZeroLimit(t *testing.T) {
	mt := newTools(t)
	for _, args := range []map[string]any{{"query": ""}, {"query": "  "}, {"category": ""}, {"query": "", "cli": ""}} {
		out := mt.Search(args)
		var resp struct {
			Mode    string
			Results []index.Entry
			Hint    string
		}
		if err := json.Unmarshal([]byte(out.Text), &resp); err != nil || out.IsError {
			t.Fatalf("%v: %v %s", args, err, out.Text)
		}
		if resp.Mode != "search" || len(resp.Results) != 6 {
			t.Errorf("%v: mode %q with %d results, want a search listing all 6 tools", args, resp.Mode, len(resp.Results))
		}
		// The answer says why it lists every tool and how to get the overview.
		if !strings.Contains(resp.Hint, "An empty query matches every tool") || !strings.Contains(resp.Hint, "no arguments") {
			t.Errorf("%v: hint %q, want the empty-query hint", args, resp.Hint)
		}
	}
	// A filter is a search of its own: no such hint.
	if out := mt.Search(map[string]any{"query": "", "cli": "git-tools"}); !strings.Contains(out.Text, `"results":[{`) || strings.Contains(out.Text, "An empty query") {
		t.Errorf("query with cli: %s, want no empty-query hint", out.Text)
	}
	for _, args := range []map[string]any{{"limit": 0.0}, {"query": "echo", "limit": json.Number("0")}, {"limit": "0"}} {
		out := mt.Search(args)
		var resp struct {
			Returned int
			HasMore  bool `json:"has_more"`
			Summary  []any
			Results  []any
			Hint     string
		}
		if err := json.Unmarshal([]byte(out.Text), &resp); out.IsError || err != nil || resp.Returned != 0 || !resp.HasMore || len(resp.Summary)+len(resp.Results) != 0 || resp.Hint != "" {
			t.Errorf("%v: %s, want an empty list with more to come and no hint", args, out.Text)
		}
	}
}

func TestSearchBadTypes(t *testing.T) {
	mt := newTools(t)
	tests := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"query": 42.0}, "Argument validation failed:\n  - Argument 'query' must be a string (got number)"},
		{map[string]any{"category": []any{"vcs"}}, "Argument validation failed:\n  - Argument 'category' must be a string (got array)"},
		{map[string]any{"cli": true, "query": map[string]any{}}, "Argument validation failed:\n  - Argument 'query' must be a string (got object)\n  - Argument 'cli' must be a string (got boolean)"},
	}
	for _, tt := range tests {
		out := mt.Search(tt.args)
		if !out.IsError || out.Text != tt.want {
			t.Errorf("Search(%v) = %v %q\nwant error %q", tt.args, out.IsError, out.Text, tt.want)
		}
	}
}

func TestCallArgumentErrors(t *testing.T) {
	mt := newTools(t)
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"no args", nil, "Argument validation failed:\n  - Missing required argument 'tool_name'"},
		{"null tool_name", map[string]any{"tool_name": nil}, "Argument validation failed:\n  - Missing required argument 'tool_name'"},
		{"empty tool_name", map[string]any{"tool_name": ""}, "Argument validation failed:\n  - Missing required argument 'tool_name'"},
		// The name under another key: said, as the likely cause.
		{"tool instead of tool_name", map[string]any{"tool": "fake_echo", "args": map[string]any{}}, "Argument validation failed:\n  - Missing required argument 'tool_name' (did you mean to send 'tool' as tool_name?)"},
		{"toolName instead of tool_name", map[string]any{"toolName": "fake_echo", "args": map[string]any{}}, "Argument validation failed:\n  - Missing required argument 'tool_name' (did you mean to send 'toolName' as tool_name?)"},
		{"tool_nme instead of tool_name", map[string]any{"tool_nme": "fake_echo", "args": map[string]any{}}, "Argument validation failed:\n  - Missing required argument 'tool_name' (did you mean to send 'tool_nme' as tool_name?)"},
		{"tool_name a number", map[string]any{"tool_name": 3.0}, "Argument validation failed:\n  - Argument 'tool_name' must be a string (got number)"},
		{"args an array", map[string]any{"tool_name": "fake_echo", "args": []any{"x"}}, "Argument validation failed:\n  - Argument 'args' must be an object (got array)"},
		{"args a string", map[string]any{"tool_name": "fake_echo", "args": `{"message":"x"}`}, "Argument validation failed:\n  - Argument 'args' must be an object (got string)"},
		{"args a number", map[string]any{"tool_name": "fake_echo", "args": 1.0}, "Argument validation failed:\n  - Argument 'args' must be an object (got number)"},
		{"both wrong", map[string]any{"tool_name": false, "args": true}, "Argument validation failed:\n  - Argument 'tool_name' must be a string (got boolean)\n  - Argument 'args' must be an object (got boolean)"},
		// The tool's arguments under another key: refused, not run with none.
		{"arguments instead of args", map[string]any{"tool_name": "fake_echo", "arguments": map[string]any{"message": "x"}}, "Argument validation failed:\n  - Unknown argument 'arguments': climax_call takes tool_name and args; put the tool's arguments in args, e.g. {\"tool_name\": \"fake_echo\", \"args\": {...}}"},
		{"the arguments themselves", map[string]any{"tool_name": "fake_echo", "message": "x"}, "Argument validation failed:\n  - Unknown argument 'message': climax_call takes tool_name and args; put the tool's arguments in args, e.g. {\"tool_name\": \"fake_echo\", \"args\": {...}}"},
		// Many of them: one line, the first five named (a call of
		// 100,000 keys got a line each, 15 MB).
		{"many keys", manyKeys(100000), "Argument validation failed:\n  - Missing required argument 'tool_name'\n  - Unknown arguments 'k00000', 'k00001', 'k00002', 'k00003', 'k00004' and 99995 more: climax_call takes tool_name and args; put the tool's arguments in args, e.g. {\"tool_name\": \"TOOL\", \"args\": {...}}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := mt.Call(context.Background(), tt.args)
			if !out.IsError || out.Text != tt.want || out.Result != nil {
				t.Errorf("Call = %v %q (result %v)\nwant error %q", out.IsError, out.Text, out.Result, tt.want)
			}
		})
	}
}

func TestCallUnknownTool(t *testing.T) {
	mt := newTools(t)
	const avail = "\nAvailable tools: git_status, git_commit, fake_echo, fake_fail, fake_sleep, plain_run\nUse climax_search to find tools and their argument schemas."
	tests := []struct {
		name string
		want string
	}{
		{"nonexistent_tool", "Unknown tool: nonexistent_tool" + avail},
		{"git_stauts", "Unknown tool: git_stauts\nDid you mean: git_status?" + avail},
		{"Git_Status", "Unknown tool: Git_Status\nDid you mean: git_status?" + avail},
		{"git-commit", "Unknown tool: git-commit\nDid you mean: git_commit?" + avail},
		{"fake", "Unknown tool: fake\nDid you mean: fake_echo, fake_fail, fake_sleep?" + avail},
		{"status", "Unknown tool: status\nDid you mean: git_status?" + avail},
		{"climax_search", "Unknown tool: climax_search\nclimax_search is a meta-tool: call it directly, not through climax_call." + avail},
		{"bad\nname", "Unknown tool: \"bad\\nname\"" + avail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := mt.Call(context.Background(), map[string]any{"tool_name": tt.name})
			if !out.IsError || out.Text != tt.want {
				t.Errorf("Call(%q) = %v\n%s\nwant\n%s", tt.name, out.IsError, out.Text, tt.want)
			}
		})
	}
}

func TestCallUnknownToolManyTools(t *testing.T) {
	var b strings.Builder
	b.WriteString("name: many\ncommand: many\ntools:\n")
	var names []string
	for i := range 25 {
		name := fmt.Sprintf("many_tool_%02d", i)
		names = append(names, name)
		fmt.Fprintf(&b, "  - name: %s\n    description: d\n", name)
	}
	mt := metatools.New(build(t, b.String()), executor.New())
	out := mt.Call(context.Background(), map[string]any{"tool_name": "zzz"})
	want := "Unknown tool: zzz\nAvailable tools: " + strings.Join(names[:20], ", ") + ", ... and 5 more\nUse climax_search to find tools and their argument schemas."
	if !out.IsError || out.Text != want {
		t.Errorf("got\n%s\nwant\n%s", out.Text, want)
	}
	out = mt.Call(context.Background(), map[string]any{"tool_name": "many_tool_3"})
	if first := strings.SplitN(out.Text, "\n", 3); first[1] != "Did you mean: many_tool_03, many_tool_13, many_tool_23, many_tool_00, many_tool_01?" {
		t.Errorf("suggestions: %q", first[1])
	}
}

func TestSuggestions(t *testing.T) {
	names := []string{"git_status", "git_commit", "git_log", "docker_ps", "GIT_LOG"}
	tests := []struct {
		in   string
		want []string
	}{
		{"git_log", []string{"GIT_LOG"}},
		{"git_lgo", []string{"git_log", "GIT_LOG"}},
		{"docker", []string{"docker_ps"}},
		{"git", []string{"git_log", "GIT_LOG", "git_status", "git_commit"}},
		{"xy", nil},
		{"", nil},
	}
	for _, tt := range tests {
		if got := metatools.Suggestions(tt.in, names); strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("Suggestions(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The tests below run commands through the executor.

func TestCallRuns(t *testing.T) {
	mt := newTools(t)
	tests := []struct {
		name    string
		args    map[string]any
		want    string
		isError bool
	}{
		{"routes to the tool", map[string]any{"tool_name": "fake_echo", "args": map[string]any{"message": "hello"}}, "hello", false},
		{"flags", map[string]any{"tool_name": "fake_echo", "args": map[string]any{"message": "hi", "format": "csv"}}, "hi --format csv", false},
		{"extra keys are ignored", map[string]any{"tool_name": "fake_echo", "args": map[string]any{"message": "hi", "bogus": 1.0}}, "[ignored argument 'bogus': the tool has no argument of that name, so the command ran without it]\n\nhi", false},
		{"extra keys beside args are ignored", map[string]any{"tool_name": "fake_echo", "args": map[string]any{"message": "hi"}, "reason": "to test"}, "[ignored climax_call key 'reason': the tool's arguments go in args]\n\nhi", false},
		{"a tool's argument beside args is named with its place", map[string]any{"tool_name": "fake_echo", "args": map[string]any{"message": "hi"}, "mesage": "x", "format": "csv"}, "[ignored climax_call keys 'format' (did you mean args.format?), 'mesage' (did you mean args.message?): the tool's arguments go in args]\n\nhi", false},
		{"tool_name trimmed", map[string]any{"tool_name": " fake_echo\n", "args": map[string]any{"message": "hi"}}, "hi", false},
		{"missing required arg", map[string]any{"tool_name": "fake_echo"}, "Argument validation failed:\n  - Missing required argument 'message'", true},
		{"null args is {}", map[string]any{"tool_name": "fake_echo", "args": nil}, "Argument validation failed:\n  - Missing required argument 'message'", true},
		{"invalid enum", map[string]any{"tool_name": "fake_echo", "args": map[string]any{"message": "hi", "format": "xml"}}, "Argument validation failed:\n  - Argument 'format' must be one of: json, text, csv", true},
		{"non-zero exit", map[string]any{"tool_name": "fake_fail"}, "[stderr]\nsomething broke\n\n[exit code: 3]", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := mt.Call(context.Background(), tt.args)
			if out.Text != tt.want || out.IsError != tt.isError {
				t.Errorf("Call = %v %q\nwant %v %q", out.IsError, out.Text, tt.isError, tt.want)
			}
		})
	}
}

// climax_call gives exactly what the executor gives for the same tool and
// args, a timeout included.
func TestCallParityWithExecutor(t *testing.T) {
	ix := build(t, fakeConfig(t))
	runner := executor.New()
	mt := metatools.New(ix, runner)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"fake_sleep", nil},
		{"fake_fail", map[string]any{}},
		{"fake_echo", map[string]any{"message": "same"}},
		{"fake_echo", map[string]any{"format": "csv"}},
	} {
		rt, _ := ix.Get(c.tool)
		direct := runner.Call(context.Background(), rt, c.args)
		res := mt.Call(context.Background(), map[string]any{"tool_name": c.tool, "args": c.args})
		if res.Tool != c.tool {
			t.Errorf("CallResult.Tool = %q, want %q", res.Tool, c.tool)
		}
		via := res.Outcome
		for _, o := range []*executor.Outcome{&direct, &via} {
			if o.Result != nil {
				r := *o.Result
				r.DurationMS = 0
				o.Result = &r
			}
		}
		d, _ := json.Marshal(direct)
		v, _ := json.Marshal(via)
		if string(d) != string(v) {
			t.Errorf("%s: executor %s\nclimax_call %s", c.tool, d, v)
		}
		if c.tool == "fake_sleep" && (!via.IsError || via.Result == nil || !via.Result.TimedOut) {
			t.Errorf("fake_sleep did not time out: %+v", via)
		}
	}
}

func ExampleTools_Search() {
	cfg, err := config.Parse([]byte(`name: git-tools
description: "MCP tools for Git"
command: git
category: vcs
tags: [version-control]
tools:
  - name: git_log
    description: "Show commit logs"
    command: log
    args:
      - name: max_count
        type: integer
        flag: -n
        default: 10
`), "git.yaml")
	if err != nil {
		panic(err)
	}
	ix, _, err := index.New([]*config.Config{cfg}, nil)
	if err != nil {
		panic(err)
	}
	mt := metatools.New(ix, executor.New())
	fmt.Println(mt.Search(nil).Text)
	fmt.Println(mt.Search(map[string]any{"query": "log"}).Text)
	fmt.Println(mt.Search(map[string]any{"category": "containers"}).Text)
	// Output:
	// {"mode":"summary","total_matches":1,"returned":1,"has_more":false,"summary":[{"name":"git-tools","description":"MCP tools for Git","tool_count":1,"category":"vcs","tags":["version-control"]}]}
	// {"mode":"search","total_matches":1,"returned":1,"has_more":false,"results":[{"tool_name":"git_log","description":"Show commit logs","cli_name":"git-tools","input_schema":{"type":"object","properties":{"max_count":{"type":"integer","default":10}}}}]}
	// {"mode":"search","total_matches":0,"returned":0,"has_more":false,"hint":"No CLI has the category containers. The categories are: vcs.","results":[]}
}

func TestSearchKeepsHTMLCharactersInSchemas(t *testing.T) {
	mt := metatools.New(build(t, `name: html
command: html
tools:
  - name: html_tool
    description: "a <b> & c"
    args:
      - name: path
        description: 'Use <dir> & a > b; keep \u003c and \\ literally'
`), executor.New())
	out := mt.Search(map[string]any{"query": "html"})
	want := `{"mode":"search","total_matches":1,"returned":1,"has_more":false,"results":[{"tool_name":"html_tool","description":"a <b> & c","cli_name":"html","input_schema":{"type":"object","properties":{"path":{"type":"string","description":"Use <dir> & a > b; keep \\u003c and \\\\ literally"}}}}]}`
	if out.Text != want {
		t.Errorf("got  %s\nwant %s", out.Text, want)
	}
	var v any
	if err := json.Unmarshal([]byte(out.Text), &v); err != nil {
		t.Error(err)
	}
}

// A query beyond MaxQueryBytes is refused before any search: the caller
// learns the limit.
func TestSearchQueryTooLong(t *testing.T) {
	mt := newTools(t)
	long := strings.Repeat("a b ", 1<<20) // 4 MiB of terms
	out := mt.Search(map[string]any{"query": long})
	want := fmt.Sprintf("Query too long: %d bytes (limit %d); search with a few keywords", len(long)-1, metatools.MaxQueryBytes)
	if !out.IsError || out.Text != want {
		t.Errorf("4 MiB query: %v %q\nwant error %q", out.IsError, out.Text, want)
	}
	atLimit := strings.Repeat("x", metatools.MaxQueryBytes)
	if out := mt.Search(map[string]any{"query": atLimit}); out.IsError || out.Text != searchText(0, 0, noMatchHint) {
		t.Errorf("query of exactly MaxQueryBytes: %v %q", out.IsError, out.Text)
	}
}

// Configs cannot take the meta-tools' names.
func TestMetaToolNamesAreReserved(t *testing.T) {
	for _, name := range []string{metatools.SearchName, metatools.CallName} {
		if !slices.Contains(config.ReservedToolNames, name) {
			t.Errorf("%s is not in config.ReservedToolNames", name)
		}
	}
}

// Keys climax_search does not have are not silent: the answer's JSON
// names each with the property it probably stands for, in a note (the
// line a climax_call result starts with for such names) and in
// ignored_args; the search runs as it would without them.
func TestSearchIgnoredKeys(t *testing.T) {
	t.Parallel()
	mt := newTools(t)
	tests := []struct {
		args     map[string]any
		mode     string
		ignored  []executor.IgnoredArg
		omitted  int
		noteHead string
	}{
		{map[string]any{"q": "git status"}, "summary", []executor.IgnoredArg{{Name: "q", DidYouMean: "query"}},
			0, "[ignored argument 'q' (did you mean 'query'?): climax_search has no argument of that name, so the search ran without it]"},
		{map[string]any{"search": "git status"}, "summary", []executor.IgnoredArg{{Name: "search", DidYouMean: "query"}}, 0, "[ignored argument 'search' (did you mean 'query'?)"},
		{map[string]any{"keywords": "stash"}, "summary", []executor.IgnoredArg{{Name: "keywords", DidYouMean: "query"}}, 0, "[ignored argument 'keywords' (did you mean 'query'?)"},
		{map[string]any{"query": "stash", "dir": "/repo"}, "search", []executor.IgnoredArg{{Name: "dir", DidYouMean: "cwd"}}, 0, "[ignored argument 'dir' (did you mean 'cwd'?)"},
		{map[string]any{"query": "stash", "project": "/repo"}, "search", []executor.IgnoredArg{{Name: "project", DidYouMean: "cwd"}}, 0, "[ignored argument 'project' (did you mean 'cwd'?)"},
		{map[string]any{"query": "stash", "clii": "git"}, "search", []executor.IgnoredArg{{Name: "clii", DidYouMean: "cli"}}, 0, "[ignored argument 'clii' (did you mean 'cli'?)"},
		{map[string]any{"query": "x", "maxResults": 3, "page": 2, "zzz": 1}, "search",
			[]executor.IgnoredArg{{Name: "maxResults", DidYouMean: "limit"}, {Name: "page", DidYouMean: "offset"}, {Name: "zzz"}},
			0, "[ignored arguments 'maxResults' (did you mean 'limit'?), 'page' (did you mean 'offset'?) and 'zzz': climax_search has no arguments of those names, so the search ran without them]"},
	}
	for _, tt := range tests {
		res := mt.Search(tt.args)
		var got struct {
			Mode               string                `json:"mode"`
			Note               string                `json:"note"`
			IgnoredArgs        []executor.IgnoredArg `json:"ignored_args"`
			IgnoredArgsOmitted int                   `json:"ignored_args_omitted"`
		}
		if err := json.Unmarshal([]byte(res.Text), &got); err != nil || res.IsError {
			t.Errorf("%v: %v %q (%v)", tt.args, res.IsError, res.Text, err)
			continue
		}
		if got.Mode != tt.mode || !strings.HasPrefix(got.Note, tt.noteHead) || !reflect.DeepEqual(got.IgnoredArgs, tt.ignored) || !reflect.DeepEqual(res.IgnoredArgs, tt.ignored) {
			t.Errorf("%v: %s\nwant mode %s, note %q..., ignored %+v", tt.args, res.Text, tt.mode, tt.noteHead, tt.ignored)
		}
	}

	// The same search without the extra key answers the same otherwise.
	with := mt.Search(map[string]any{"query": "commit", "clii": "git"}).Text
	without := mt.Search(map[string]any{"query": "commit"}).Text
	if i := strings.Index(with, `,"total_matches"`); i < 0 || `{"mode":"search"`+with[i:] != without {
		t.Errorf("with an ignored key:\n%s\nwithout:\n%s", with, without)
	}
	// Known keys only: no note.
	if res := mt.Search(map[string]any{"query": "commit", "cli": "git-tools", "limit": 2}); strings.Contains(res.Text, "ignored") || res.IgnoredArgs != nil {
		t.Errorf("known keys: %s", res.Text)
	}
	// An error answer starts with the note.
	res := mt.Search(map[string]any{"query": 5.0, "q": "x"})
	if want := "[ignored argument 'q' (did you mean 'query'?): climax_search has no argument of that name, so the search ran without it]\n\nArgument validation failed:\n  - Argument 'query' must be a string (got number)"; !res.IsError || res.Text != want {
		t.Errorf("error with an ignored key: %q\nwant %q", res.Text, want)
	}
	// Very many keys: the first 20, the rest counted.
	many := map[string]any{}
	for i := range 1000 {
		many[fmt.Sprintf("k%04d", i)] = i
	}
	res = mt.Search(many)
	if !strings.Contains(res.Text, `'k0019' and 980 more: climax_search has no arguments of those names`) || !strings.Contains(res.Text, `"ignored_args_omitted":980`) || len(res.IgnoredArgs) != executor.MaxIgnoredArgs {
		t.Errorf("many keys: %.300s", res.Text)
	}
}

// Every property of climax_search's schema is one it knows: none is
// reported as ignored.
func TestSearchKnowsItsProperties(t *testing.T) {
	t.Parallel()
	var schema struct{ Properties map[string]any }
	if err := json.Unmarshal(metatools.Definitions()[0].InputSchema, &schema); err != nil {
		t.Fatal(err)
	}
	args := map[string]any{}
	for name := range schema.Properties {
		args[name] = nil
	}
	if len(args) != 6 {
		t.Fatalf("schema properties %v", schema.Properties)
	}
	if res := newTools(t).Search(args); res.IsError || res.IgnoredArgs != nil || strings.Contains(res.Text, "ignored") {
		t.Errorf("search with every property: %s", res.Text)
	}
}

// manyKeys returns n keys k00000, k00001, … with the value 1.
func manyKeys(n int) map[string]any {
	m := make(map[string]any, n)
	for i := range n {
		m[fmt.Sprintf("k%05d", i)] = 1.0
	}
	return m
}

// A query word or cli filter that names a config the server was not
// started with gets a hint saying so, beside the same results
// (docs/search.md, Answers); a name a loaded CLI has, or whose program
// one runs, is served. Without WithUnservedConfigs no search says so.
func TestSearchNamesUnservedConfigs(t *testing.T) {
	ix := build(t, otherConfig, fakeConfig(t), plainConfig)
	plain := metatools.New(ix, executor.New())
	mt := metatools.New(ix, executor.New(), metatools.WithUnservedConfigs([]string{"kubectl", "Docker", "git", "plain"}))
	const kubectl = "If you meant the program kubectl: it is a bundled config this server was not started with."
	const cliKubectl = "No CLI is named kubectl here: it is a bundled config this server was not started with."
	tests := []struct {
		args map[string]any
		hint string
	}{
		{map[string]any{"query": "kubectl status"}, kubectl},
		{map[string]any{"query": "KUBECTL: record changes"}, kubectl},
		{map[string]any{"query": "docker, kubectl or docker status"}, "If you meant the programs docker or kubectl: they are bundled configs this server was not started with."},
		{map[string]any{"query": "kubectl"}, kubectl + " " + noMatchHint},
		{map[string]any{"query": "status", "cli": "kubectl"}, cliKubectl + " The CLIs are: git-tools, fake-tools, plain."},
		{map[string]any{"query": "docker status", "cli": "kubectl"}, cliKubectl + " If you meant the program docker: it is a bundled config this server was not started with. The CLIs are: git-tools, fake-tools, plain."},
		{map[string]any{"query": "kubectl status", "cli": "git-tools", "limit": 0.0}, kubectl},
		{map[string]any{"query": "git status"}, ""},      // git-tools runs git
		{map[string]any{"query": "plain things"}, ""},    // a loaded CLI's name
		{map[string]any{"query": "kubectlx status"}, ""}, // not a whole word
		{map[string]any{"query": "status", "cli": "gti"}, "No CLI is named gti. The CLIs are: git-tools, fake-tools, plain."},
	}
	for _, tt := range tests {
		var got, want struct {
			Hint    string
			Total   int `json:"total_matches"`
			Results json.RawMessage
		}
		out, before := mt.Search(tt.args), plain.Search(tt.args)
		if err := json.Unmarshal([]byte(out.Text), &got); err != nil || out.IsError {
			t.Fatalf("%v: %v %s", tt.args, err, out.Text)
		}
		if err := json.Unmarshal([]byte(before.Text), &want); err != nil || before.IsError {
			t.Fatalf("%v: %v %s", tt.args, err, before.Text)
		}
		if got.Hint != tt.hint {
			t.Errorf("%v: hint %q, want %q", tt.args, got.Hint, tt.hint)
		}
		if got.Total != want.Total || !bytes.Equal(got.Results, want.Results) {
			t.Errorf("%v: results %d %s, want those without the option: %d %s", tt.args, got.Total, got.Results, want.Total, want.Results)
		}
		if strings.Contains(before.Text, "started with") {
			t.Errorf("%v: without WithUnservedConfigs: %s", tt.args, before.Text)
		}
	}
}

// The overview's hint names the CLIs that cannot run, after what it says
// of the page.
func TestOverviewNamesUnrunnable(t *testing.T) {
	for _, tt := range []struct {
		names []string
		want  string
	}{
		{nil, ""},
		{[]string{"jj"}, "jj cannot run here (its program is not found, or its container runtime): its calls fail."},
		{[]string{"jj", "obsidian"}, "jj and obsidian cannot run here (their programs are not found, or their container runtime): their calls fail."},
	} {
		mt := metatools.New(build(t, otherConfig, fakeConfig(t), plainConfig), executor.New(),
			metatools.WithUnrunnable(func() []string { return tt.names }))
		var resp struct{ Hint string }
		if err := json.Unmarshal([]byte(mt.Search(map[string]any{"limit": 1.0}).Text), &resp); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(resp.Hint, "Showing 1 of 3 CLIs;") || !strings.HasSuffix(resp.Hint, tt.want) {
			t.Errorf("%q: hint %q, want the page's then %q", tt.names, resp.Hint, tt.want)
		}
	}
}
