package index_test

import (
	"github.com/climax-mcp/climax/index/config"

	"encoding/json"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/index"
)

// TestSearchQuality measures ranking with sets of natural-language
// queries, each with the tools that count as relevant (path.Match patterns
// such as "git_*" allowed): testdata/queries.json over the bundled configs
// and, when the compatibility configs of the original project are present,
// testdata/queries_compat.json over those. It reports hit@5 (a relevant
// tool among the first five) and MRR@5 (the mean of 1/rank of the first
// relevant tool, 0 beyond five), lists the misses, and fails below the
// set's minimum hit@5.
//
// Run with -v to see the figures. QUERIES and CONFIGS (a query file and a
// config directory) evaluate another set.
func TestSearchQuality(t *testing.T) {
	sets := []struct{ name, configs, queries string }{
		{"bundled", "../configs", "testdata/queries.json"},
		{"compat", "/work/shared/compat", "testdata/queries_compat.json"},
	}
	if q := os.Getenv("QUERIES"); q != "" {
		sets = sets[:1]
		sets[0].name, sets[0].queries = "custom", q
		if d := os.Getenv("CONFIGS"); d != "" {
			sets[0].configs = d
		}
	}
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) { searchQuality(t, set.configs, set.queries) })
	}
}

func searchQuality(t *testing.T, dir, queryFile string) {
	bundled := os.DirFS(dir)
	names, err := config.BundledNames(bundled)
	if err != nil || len(names) == 0 {
		t.Skipf("no configs in %s", dir)
	}
	var configs []*config.Config
	for _, name := range names {
		c, err := config.LoadFS(bundled, name+".yaml")
		if err != nil {
			t.Fatal(err)
		}
		configs = append(configs, c)
	}
	ix, _, err := index.New(configs, nil)
	if err != nil {
		t.Fatal(err)
	}

	data, err := os.ReadFile(queryFile)
	if err != nil {
		t.Fatal(err)
	}
	var queries []struct {
		Query    string   `json:"query"`
		Relevant []string `json:"relevant"`
	}
	if err := json.Unmarshal(data, &queries); err != nil {
		t.Fatal(err)
	}

	const k = 5
	var hits, rr float64
	var missed int
	for _, q := range queries {
		for _, pat := range q.Relevant {
			if !matchesAny(ix.Names(), pat) {
				t.Errorf("query %q: no bundled tool matches %q", q.Query, pat)
			}
		}
		got := ix.Search(q.Query, "", "", k)
		rank := 0
		for i, e := range got {
			if matchesAny(q.Relevant, e.ToolName) {
				rank = i + 1
				break
			}
		}
		if rank > 1 && testing.Verbose() {
			t.Logf("rank %d: %q", rank, q.Query)
		}
		if rank > 0 {
			hits++
			rr += 1 / float64(rank)
		} else {
			missed++
			var top []string
			for _, e := range got {
				top = append(top, e.ToolName)
			}
			t.Logf("miss: %q: want %s, got %s", q.Query, strings.Join(q.Relevant, " "), strings.Join(top, " "))
		}
	}
	n := float64(len(queries))
	t.Logf("%d queries over %d tools: hit@%d %.3f, MRR@%d %.3f, %d missed", len(queries), ix.Len(), k, hits/n, k, rr/n, missed)
	if hits/n < 0.90 {
		t.Errorf("hit@%d = %.3f, want at least 0.90", k, hits/n)
	}
}

// matchesAny reports whether name matches one of patterns, or (the other
// way around) whether the pattern name matches one of the names.
func matchesAny(list []string, s string) bool {
	for _, x := range list {
		if ok, _ := path.Match(x, s); ok {
			return true
		}
		if ok, _ := path.Match(s, x); ok {
			return true
		}
	}
	return false
}
