package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/configs"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
	"github.com/climax-mcp/climax/metatools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bundledReport measures every bundled config once per test binary.
func bundledReport(t *testing.T) *tokenReport {
	t.Helper()
	cfgs, err := loadConfigs(nil)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := measureTokens(cfgs, cl100kBase)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// SC-005: discovery mode saves at least 70 % on the bundled configs.
func TestBundledSavings(t *testing.T) {
	rep := bundledReport(t)
	names, err := config.BundledNames(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.configs) != len(names) {
		t.Fatalf("%d config rows, want one per bundled config (%d)", len(rep.configs), len(names))
	}
	tools := 0
	for _, r := range rep.configs {
		tools += r.tools
		if r.discovery != rep.total.discovery {
			t.Errorf("%s: discovery tokens %d, want the same for every row (%d)", r.label, r.discovery, rep.total.discovery)
		}
	}
	if rep.total.tools != tools {
		t.Errorf("total tools %d, want the sum of the rows, %d", rep.total.tools, tools)
	}
	if tenths, _ := percentTenths(rep.total.saved(), rep.total.classic); tenths < 700 {
		t.Errorf("discovery saves %s of %d classic tokens, want at least 70 %% (SC-005)",
			formatPercent(rep.total.saved(), rep.total.classic), rep.total.classic)
	}
	if rep.findAndCall.classic != rep.total.classic || rep.findAndCall.discovery <= rep.total.discovery {
		t.Errorf("find and call row %+v does not add searches to the total %+v", rep.findAndCall, rep.total)
	}
	if len(rep.searches) < 10 {
		t.Errorf("%d search queries, want at least 10", len(rep.searches))
	}
	for _, s := range rep.searches {
		if s.results == 0 || s.results > searchLimit {
			t.Errorf("query %q: %d results, want 1..%d", s.query, s.results, searchLimit)
		}
	}
}

// FR-029: two runs print the same bytes.
func TestTokenTableDeterministic(t *testing.T) {
	var out [2]bytes.Buffer
	for i := range out {
		var stderr bytes.Buffer
		if code := run(nil, &out[i], &stderr); code != exitOK {
			t.Fatalf("run: exit %d, stderr:\n%s", code, stderr.String())
		}
	}
	if !bytes.Equal(out[0].Bytes(), out[1].Bytes()) {
		t.Errorf("two runs differ:\n%s\n---\n%s", out[0].String(), out[1].String())
	}
	for _, want := range []string{"(cl100k_base)", "| git ", "| all ", "| find and call ", "| average "} {
		if !strings.Contains(out[0].String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out[0].String())
		}
	}
}

func TestReportWrite(t *testing.T) {
	rep := &tokenReport{
		encoding: cl100kBase,
		configs: []tokenRow{
			{label: "big", tools: 40, classic: 4000, discovery: 250},
			{label: "tiny", tools: 1, classic: 200, discovery: 250},
		},
		total:       tokenRow{label: "all 2 configs", tools: 41, classic: 4195, discovery: 250},
		findAndCall: tokenRow{label: "find and call", tools: 41, classic: 4195, discovery: 750},
		searches:    []searchRow{{"a", 5, 499}, {"bb", 4, 502}},
	}
	var b strings.Builder
	if err := rep.write(&b); err != nil {
		t.Fatal(err)
	}
	want := `Tokens of the tools/list result, classic mode against discovery mode (cl100k_base).

| Config        | Tools | Classic tokens | Discovery tokens | Saved tokens |   Saved |
| ------------- | ----: | -------------: | ---------------: | -----------: | ------: |
| big           |    40 |          4,000 |              250 |        3,750 |  93.8 % |
| tiny          |     1 |            200 |              250 |          -50 | -25.0 % |
| all 2 configs |    41 |          4,195 |              250 |        3,945 |  94.0 % |
| find and call |    41 |          4,195 |              750 |        3,445 |  82.1 % |

"find and call": the discovery tools/list plus the average climax_search response (limit 5) over the 2 queries below, against the classic tools/list of all configs.

| climax_search query | Results | Tokens |
| ------------------- | ------: | -----: |
| a                   |       5 |    499 |
| bb                  |       4 |    502 |
| average             |     4.5 |    501 |
`
	if b.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", b.String(), want)
	}
}

// The token table's tools/list is byte for byte what go-sdk sends for the
// same raw tools. (go-sdk lists tools by name; the climax server restores
// load order, which -perf checks against the real binary.)
func TestListResultIsWhatGoSDKSends(t *testing.T) {
	cfgs, err := loadConfigs([]string{"curl", "jq"})
	if err != nil {
		t.Fatal(err)
	}
	ix, _, err := index.New(cfgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, defs := range map[string][]metatools.Definition{
		"discovery": metatools.Definitions(),
		"classic":   metatools.ClassicDefinitions(ix),
	} {
		t.Run(name, func(t *testing.T) {
			slices.SortFunc(defs, func(a, b metatools.Definition) int { return strings.Compare(a.Name, b.Name) })
			want, err := listResult(defs)
			if err != nil {
				t.Fatal(err)
			}
			got := goSDKToolsList(t, defs)
			if !bytes.Equal(got, want) {
				t.Errorf("go-sdk sends\n%s\nthe token table counts\n%s", got, want)
			}
		})
	}
}

// goSDKToolsList serves defs from an in-process go-sdk server and returns
// the tools/list result as it comes over the wire.
func goSDKToolsList(t *testing.T, defs []metatools.Definition) []byte {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	for _, d := range defs {
		srv.AddTool(&mcp.Tool{Name: d.Name, Description: d.Description, InputSchema: d.InputSchema},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			})
	}
	toServerR, toServerW := io.Pipe()
	fromServerR, fromServerW := io.Pipe()
	ss, err := srv.Connect(t.Context(), &mcp.IOTransport{Reader: toServerR, Writer: fromServerW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	got, err := toolsListDialogue(toServerW, fromServerR, "go-sdk server")
	if err != nil {
		t.Fatal(err)
	}
	toServerW.Close()
	var probe struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(got, &probe); err != nil || len(probe.Tools) != len(defs) {
		t.Fatalf("tools/list result %s: %d tools, %v", got, len(probe.Tools), err)
	}
	return got
}
