package index_test

import (
	"github.com/climax-mcp/climax/index/config"

	"archive/zip"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/climax-mcp/climax/index"
)

// TestSearchQuality measures ranking with sets of natural-language
// queries, each with the tools that count as relevant (path.Match patterns
// such as "git_*" allowed) and a kind ("keyword", "task", "question",
// "typo", "error", ...):
//
//   - bundled: testdata/queries.json over the bundled configs;
//   - agent-tune and agent-held: queries written as an agent phrases them
//     (tasks, questions, typos, pasted error messages, mid-task context,
//     outcomes, abbreviations) over the bundled configs, split in two
//     halves: ranking weights are tuned on the first, the second is held
//     out to check that they hold in general;
//   - compat: testdata/queries_compat.json over the compatibility configs
//     of the original project, when they are present;
//   - blind-a to blind-h: queries written blind (from tool names and
//     command lines only, or for G and H without seeing the configs at
//     all) over the bundled configs, in pairs: one tuned on, one held
//     out (docs/search.md, Measuring).
//
// It reports hit@5 (a relevant tool among the first five), top-1 (a
// relevant tool first) and MRR@5 (the mean of 1/rank of the first
// relevant tool, 0 beyond five), per set and per kind of query, lists the
// misses, and fails below a set's minimum figures.
//
// Run with -v to see the figures. QUERIES and CONFIGS (a query file and a
// config directory) evaluate another set; DISTRACTORS=fig loads the real
// programs' configs beside it, DISTRACTORS=N as many synthetic tools.
func TestSearchQuality(t *testing.T) {
	sets := []qualitySet{
		{"bundled", "../configs", "testdata/queries.json", 0.97, 0.95, 0},
		{"agent-tune", "../configs", "testdata/queries_agent_tune.json", 0.95, 0.93, 0},
		{"agent-held", "../configs", "testdata/queries_agent_held.json", 0.95, 0.92, 0},
		{"compat", "../../shared/compat", "testdata/queries_compat.json", 0.96, 0.90, 0},
		// Blind sets, in pairs: the first of each pair is tuned on, the
		// second held out (docs/search.md, Measuring). A and B were
		// written from tool names and command lines only.
		{"blind-a", "../configs", "testdata/queries_blind_a.json", 0.97, 0.91, 0},
		{"blind-b", "../configs", "testdata/queries_blind_b.json", 0.88, 0.72, 0},
		// C and D, by a second writer from the same material: everyday
		// phrasing; pasted errors, context, outcomes, abbreviations.
		// Both are regression sets.
		{"blind-c", "../configs", "testdata/queries_blind_c.json", 0.97, 0.91, 0},
		{"blind-d", "../configs", "testdata/queries_blind_d.json", 0.90, 0.79, 0},
		// E (tuned on) and F (held out), by two more writers, 30
		// queries of each of eight kinds.
		{"blind-e", "../configs", "testdata/queries_blind_e.json", 0.95, 0.85, 0},
		{"blind-f", "../configs", "testdata/queries_blind_f.json", 0.91, 0.80, 0},
		// G (tuned on) and H (held out), by a writer who never saw the
		// configs: agent keywords, plan steps, disambiguation between
		// similar CLIs, flags and syntax, terse and misspelt phrasing.
		// Only H's totals are looked at.
		{"blind-g", "../configs", "testdata/queries_blind_g.json", 0.98, 0.93, 0},
		{"blind-h", "../configs", "testdata/queries_blind_h.json", 0.98, 0.92, 0},
		// I, the final measurement of issue 20: 240 queries by a writer
		// who saw only tool names and command lines, 48 of each of G's
		// kinds; only its totals are looked at.
		{"blind-i", "../configs", "testdata/queries_blind_i.json", 0.97, 0.93, 0},
		// J, a last check written before issue 20's last round by
		// another writer from the same material, kinds and numbers;
		// only its totals and kinds are used (docs/search.md).
		{"blind-j", "../configs", "testdata/queries_blind_j.json", 0.98, 0.91, 0},
		// K, written at the start of the round after issue 20's last
		// (held out: only its totals and kinds are used), and L, plan
		// steps and disambiguations by a further writer (tuned on).
		{"blind-k", "../configs", "testdata/queries_blind_k.json", 0.97, 0.87, 0},
		{"blind-l", "../configs", "testdata/queries_blind_l.json", 0.95, 0.80, 0},
		// The same sets with the 3,004 tools of 100 other real
		// programs loaded beside the bundled ones (figDistractors), at
		// most 0.02 lower.
		{"blind-g+fig", "../configs", "testdata/queries_blind_g.json", 0.97, 0.92, fig},
		{"blind-h+fig", "../configs", "testdata/queries_blind_h.json", 0.96, 0.90, fig},
		{"blind-i+fig", "../configs", "testdata/queries_blind_i.json", 0.97, 0.91, fig},
		{"blind-j+fig", "../configs", "testdata/queries_blind_j.json", 0.97, 0.90, fig},
		{"blind-k+fig", "../configs", "testdata/queries_blind_k.json", 0.97, 0.87, fig},
		{"blind-l+fig", "../configs", "testdata/queries_blind_l.json", 0.94, 0.80, fig},
		// And with 3,000 synthetic tools drawn from the bundled configs'
		// own words (distractors): harder than real programs, and their
		// figures move with the configs more than the others'.
		{"blind-g+3000", "../configs", "testdata/queries_blind_g.json", 0.96, 0.90, 3000},
		{"blind-h+3000", "../configs", "testdata/queries_blind_h.json", 0.96, 0.90, 3000},
	}
	if q := os.Getenv("QUERIES"); q != "" {
		sets = []qualitySet{{"custom", "../configs", q, 0, 0, 0}}
		if d := os.Getenv("DISTRACTORS"); d == "fig" {
			sets[0].distractors = fig
		} else if n, err := strconv.Atoi(d); err == nil {
			sets[0].distractors = n
		}
		if d := os.Getenv("CONFIGS"); d != "" {
			sets[0].configs = d
		}
	}
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) { searchQuality(t, set) })
	}
}

// A qualitySet is a query file evaluated over a config directory, with the
// hit@5 and MRR@5 below which the test fails, and how many synthetic
// distractor tools to load after the configs (see distractors), or fig
// for the real programs' configs (see figDistractors).
type qualitySet struct {
	name, configs, queries string
	minHit, minMRR         float64
	distractors            int
}

// qualityQuery is one entry of a query file.
type qualityQuery struct {
	Query    string   `json:"query"`
	Kind     string   `json:"kind"`
	Relevant []string `json:"relevant"`
}

// scores sums the figures of a group of queries.
type scores struct {
	n, hits, top1, rr float64
}

func (s *scores) add(rank int) {
	s.n++
	if rank > 0 {
		s.hits++
		s.rr += 1 / float64(rank)
	}
	if rank == 1 {
		s.top1++
	}
}

func (s scores) String() string {
	return fmt.Sprintf("%3.0f queries: hit@5 %.3f, top-1 %.3f, MRR@5 %.3f", s.n, s.hits/s.n, s.top1/s.n, s.rr/s.n)
}

func searchQuality(t *testing.T, set qualitySet) {
	dir := os.DirFS(set.configs)
	names, err := config.BundledNames(dir)
	if err != nil || len(names) == 0 {
		t.Skipf("no configs in %s", set.configs)
	}
	var configs []*config.Config
	for _, name := range names {
		c, err := config.LoadFS(dir, name+".yaml")
		if err != nil {
			t.Fatal(err)
		}
		configs = append(configs, c)
	}
	switch {
	case set.distractors == fig:
		configs = append(configs, figDistractors(t)...)
	case set.distractors > 0:
		configs = append(configs, distractors(configs, set.distractors)...)
	}
	ix, _, err := index.New(configs, nil)
	if err != nil {
		t.Fatal(err)
	}

	data, err := os.ReadFile(set.queries)
	if err != nil {
		t.Fatal(err)
	}
	var queries []qualityQuery
	if err := json.Unmarshal(data, &queries); err != nil {
		t.Fatalf("%s: %v", set.queries, err)
	}

	const k = 5
	var all scores
	byKind := map[string]*scores{}
	for _, q := range queries {
		if q.Kind == "" {
			t.Errorf("%s: query %q has no kind", set.queries, q.Query)
		}
		for _, pat := range q.Relevant {
			if !matchesAny(ix.Names(), pat) {
				t.Errorf("query %q: no tool matches %q", q.Query, pat)
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
		all.add(rank)
		if byKind[q.Kind] == nil {
			byKind[q.Kind] = &scores{}
		}
		byKind[q.Kind].add(rank)
		if rank != 1 {
			var top []string
			for _, e := range got {
				top = append(top, e.ToolName)
			}
			what := "miss"
			if rank > 1 {
				what = fmt.Sprintf("rank %d", rank)
			}
			t.Logf("%s: %s %q: want %s, got %s", what, q.Kind, q.Query, strings.Join(q.Relevant, " "), strings.Join(top, " "))
		}
	}
	t.Logf("%s over %d tools: %v", set.name, ix.Len(), all)
	kinds := make([]string, 0, len(byKind))
	for kind := range byKind {
		kinds = append(kinds, kind)
	}
	slices.Sort(kinds)
	for _, kind := range kinds {
		t.Logf("  %-9s %v", kind, *byKind[kind])
	}
	if hit, mrr := all.hits/all.n, all.rr/all.n; hit < set.minHit || mrr < set.minMRR {
		t.Errorf("hit@%d %.3f, MRR@%d %.3f; want at least %.2f and %.2f", k, hit, k, mrr, set.minHit, set.minMRR)
	}
}

// fig, as a qualitySet's distractors, loads figDistractors.
const fig = -1

//go:generate go run ./testdata/figclis -o testdata/figclis.zip

// figDistractors returns the configs of testdata/figclis.zip: 100 real
// programs that no bundled config covers (cloud CLIs, package managers,
// container and build tools, ...), 3,004 tools drafted by climax scaffold
// from their Fig autocomplete specs (MIT licence,
// testdata/LICENSE.withfig) and used as drafted, without category, tags
// or keywords. They compete with the bundled tools as a user's other
// configs do: in their own words, several of them for the same jobs
// (podman, yarn, pnpm, helm, terraform).
func figDistractors(t *testing.T) []*config.Config {
	zr, err := zip.OpenReader("testdata/figclis.zip")
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	names, err := config.BundledNames(zr)
	if err != nil {
		t.Fatal(err)
	}
	var out []*config.Config
	for _, name := range names {
		c, err := config.LoadFS(zr, name+".yaml")
		if err != nil {
			t.Fatalf("testdata/figclis.zip: %v", err)
		}
		out = append(out, c)
	}
	return out
}

// distractors returns n tools in CLIs of 100 tools each that ranking
// must not confuse with the real ones: other programs' tools in the same
// vocabulary. Their names, descriptions, keywords and argument
// descriptions are words drawn from the descriptions and keywords of
// configs, as often as they are used there, so that they compete for the
// same query words; the same configs and n always give the same tools.
func distractors(configs []*config.Config, n int) []*config.Config {
	var vocab []string
	for _, c := range configs {
		for _, tool := range c.Tools {
			for _, text := range append([]string{tool.Description}, tool.Keywords...) {
				for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
					if len(w) > 2 {
						vocab = append(vocab, w)
					}
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(uint64(n), 20))
	words := func(lo, hi int) []string {
		ws := make([]string, lo+r.IntN(hi-lo+1))
		for i := range ws {
			ws[i] = vocab[r.IntN(len(vocab))]
		}
		return ws
	}
	var out []*config.Config
	for c := 0; c*100 < n; c++ {
		cfg := &config.Config{
			Name:        fmt.Sprintf("other%02d", c),
			Description: strings.Join(words(8, 16), " "),
			Category:    []string{"build", "data", "network", "system", "cloud"}[c%5],
			Tags:        words(2, 3),
		}
		for i := c * 100; i < min(n, (c+1)*100); i++ {
			tool := config.Tool{
				Name:        fmt.Sprintf("other%02d_%s_%d", c, strings.Join(words(1, 2), "_"), i),
				Description: strings.Join(words(6, 18), " ") + ".",
				Command:     strings.Join(words(1, 2), " "),
			}
			for range r.IntN(4) {
				tool.Keywords = append(tool.Keywords, strings.Join(words(1, 3), " "))
			}
			for a := range r.IntN(4) {
				tool.Args = append(tool.Args, config.Arg{Name: fmt.Sprintf("arg%d", a), Description: strings.Join(words(3, 8), " ")})
			}
			cfg.Tools = append(cfg.Tools, tool)
		}
		out = append(out, cfg)
	}
	return out
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
