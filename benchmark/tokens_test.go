package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/configs"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
	"github.com/climax-mcp/climax/metatools"
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

// maxAnnotationTokens bounds what climax_call's annotations add to the
// discovery list of one config over that of all configs together.
const maxAnnotationTokens = 30

// Discovery mode saves at least 70 % on the bundled configs (docs/search.md,
// Two modes).
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
		// The discovery list is the two meta-tools whatever the tools; only
		// climax_call's annotations follow the tool set (readOnlyHint when
		// every tool is read-only, destructiveHint false when none may
		// destroy: docs/search.md, The meta-tools), a few tokens at most.
		if d := r.discovery - rep.total.discovery; d < 0 || d > maxAnnotationTokens {
			t.Errorf("%s: discovery tokens %d, want those of all configs (%d) plus at most %d for climax_call's annotations", r.label, r.discovery, rep.total.discovery, maxAnnotationTokens)
		}
	}
	if rep.total.tools != tools {
		t.Errorf("total tools %d, want the sum of the rows, %d", rep.total.tools, tools)
	}
	if tenths, _ := percentTenths(rep.total.saved(), rep.total.classic); tenths < 700 {
		t.Errorf("discovery saves %s of %d classic tokens, want at least 70 %%",
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
		if s.results10 < s.results || s.results10 > wideSearchLimit {
			t.Errorf("query %q: %d results with limit %d, want %d..%d", s.query, s.results10, wideSearchLimit, s.results, wideSearchLimit)
		}
	}
}

// Budgets of docs/search.md: paging and the project hint must not make
// climax_search's definition in the discovery tools/list dearer than it
// was before they came (164 tokens), and an average 5-result
// climax_search answer stays at most 550 tokens: a ceiling that catches
// results growing what every one of them repeats (512 with the bundled
// configs when this bound was set).
const (
	maxSearchDefinitionTokens = 164
	maxSearchTokens           = 550
)

func TestDiscoveryBudget(t *testing.T) {
	def, err := json.Marshal(metatools.Definitions()[0])
	if err != nil {
		t.Fatal(err)
	}
	if n, err := cl100k().Count(string(def)); err != nil || n > maxSearchDefinitionTokens {
		t.Errorf("climax_search definition: %d tokens (%v), want at most %d:\n%s", n, err, maxSearchDefinitionTokens, def)
	}
	rep := bundledReport(t)
	sum := 0
	for _, s := range rep.searches {
		sum += s.tokens
	}
	if avg := roundDiv(sum, len(rep.searches)); avg > maxSearchTokens {
		t.Errorf("average climax_search answer (limit %d): %d tokens, want at most %d", searchLimit, avg, maxSearchTokens)
	}
}

// The table is deterministic: two runs print the same bytes.
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
		searches:    []searchRow{{"a", 5, 499, 10, 990}, {"bb", 4, 502, 4, 502}},
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

"find and call": the discovery tools/list plus the average climax_search response (limit 5) over the 2 queries below, against the classic tools/list of all configs. The last two columns are the same queries with limit 10.

| climax_search query | Results | Tokens | Results (limit 10) | Tokens (limit 10) |
| ------------------- | ------: | -----: | -----------------: | ----------------: |
| a                   |       5 |    499 |                 10 |               990 |
| bb                  |       4 |    502 |                  4 |               502 |
| average             |     4.5 |    501 |                7.0 |               746 |
`
	if b.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", b.String(), want)
	}
}

// The token table counts the tools/list result the climax server itself
// sends: in discovery mode the two meta-tools, in classic mode every tool
// of the index in load order.
func TestServerToolsList(t *testing.T) {
	cfgs, err := loadConfigs([]string{"curl", "jq"})
	if err != nil {
		t.Fatal(err)
	}
	ix, _, err := index.New(cfgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, classic := range []bool{false, true} {
		got, err := serverToolsList(ix, classic)
		if err != nil {
			t.Fatal(err)
		}
		var list struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(got, &list); err != nil {
			t.Fatalf("classic=%v: %v\n%s", classic, err, got)
		}
		var names []string
		for _, tl := range list.Tools {
			names = append(names, tl.Name)
		}
		want := []string{metatools.SearchName, metatools.CallName}
		if classic {
			want = ix.Names()
		}
		if !slices.Equal(names, want) {
			t.Errorf("classic=%v: tools/list names %v, want %v", classic, names, want)
		}
	}
}
